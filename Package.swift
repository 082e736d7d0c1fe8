// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "JWSVerify",
    products: [
        .library(name: "JWSVerify", targets: ["JWSVerify"]),
        .executable(name: "jwsverify", targets: ["jwsverify"]),
    ],
    targets: [
        // System OpenSSL 3, found through pkg-config (Debian: libssl-dev).
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        // The only C code and the only OpenSSL calls of the verification path.
        .target(
            name: "CJWSOpenSSL",
            dependencies: ["COpenSSL"]
        ),
        .target(
            name: "JWSVerify",
            dependencies: ["CJWSOpenSSL"]
        ),
        .executableTarget(
            name: "jwsverify",
            dependencies: ["JWSVerify"]
        ),
        .testTarget(
            name: "JWSVerifyTests",
            dependencies: ["JWSVerify"]
        ),
        .testTarget(
            name: "jwsverifyTests",
            dependencies: ["jwsverify", "JWSVerify"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
