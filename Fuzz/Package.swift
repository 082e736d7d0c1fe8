// swift-tools-version:5.4
// libFuzzer targets for JWSVerify, a package of their own so that the sanitizer and coverage flags
// never touch the main build. Build and run one target with `Fuzz/run.sh TARGET SECONDS`; see
// Docs/Security.md.
//
// Tools version 5.4, not 6: from 5.5 on, SwiftPM renames an executable's entry point to `<module>_main`
// and links `main` to it, which a libFuzzer target (whose `main` is libFuzzer's) does not define.
// The targets are still compiled in the Swift 6 language mode (`swiftLanguageVersions` below).
//
//   swift build -c release --package-path Fuzz --product verifier \
//       -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -enable-testing
import PackageDescription

let package = Package(
    name: "JWSVerifyFuzz",
    dependencies: [
        // The root package, whatever its checkout folder is called.
        .package(name: "JWSVerify", path: "..")
    ],
    targets: [
        // `LLVMFuzzerMutate`, declared for Swift (libFuzzer defines it; only the fuzz binaries call it).
        .target(name: "CLibFuzzer"),
        // The entry points shared by the fuzz targets, the leak check and Tests/JWSVerifyTests/Hardening
        // (RegressionTests replays Fuzz/regressions through the same functions).
        .target(
            name: "FuzzHarness",
            dependencies: [
                .product(name: "JWSVerify", package: "JWSVerify"),
                .product(name: "JWSVerifyTesting", package: "JWSVerify"),
                .product(name: "JWSSigning", package: "JWSVerify"),
                .product(name: "AppStoreServerAPI", package: "JWSVerify"),
            ]
        ),
        // The token mutator with libFuzzer's byte mutations, for the targets that mutate tokens.
        .target(
            name: "LibFuzzerMutation",
            dependencies: [
                "FuzzHarness", "CLibFuzzer", .product(name: "JWSVerifyTesting", package: "JWSVerify"),
            ]
        ),
        .executableTarget(name: "jws-parser", dependencies: ["FuzzHarness"]),
        .executableTarget(name: "verifier", dependencies: ["FuzzHarness", "LibFuzzerMutation"]),
        .executableTarget(name: "models", dependencies: ["FuzzHarness"]),
        .executableTarget(name: "inspect", dependencies: ["FuzzHarness", "LibFuzzerMutation"]),
        // Crafted chains: warm verifier, cold verifier and X509_verify_cert agree (ChainsDifferential).
        .executableTarget(name: "chains", dependencies: ["FuzzHarness"]),
        // App receipts: content decoder, envelope scan against OpenSSL's CMS parse, warm and cold
        // AppReceiptVerifier (FuzzEntryPoints.receipts), with a mutator that re-signs the content.
        .executableTarget(name: "receipts", dependencies: ["FuzzHarness", "LibFuzzerMutation"]),
        // The App Store Server API's response path: status, headers and body into the verifying client through an
        // in-memory transport (APIFuzzEntryPoints), every page alike.
        .executableTarget(name: "api-responses", dependencies: ["FuzzHarness"]),
        // 100,000 verifications of good and bad tokens under LeakSanitizer (built without -sanitize=fuzzer).
        .executableTarget(name: "leak-check", dependencies: ["FuzzHarness"]),
    ],
    swiftLanguageVersions: [.version("6")]
)
