// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "JWSVerify",
    // The oldest Apple releases whose runtime has what the code uses: Synchronization's `Mutex` and `Atomic`
    // (macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2: the Swift 6.0 runtime), typed throws in function
    // types (the same runtime) and `Duration` (macOS 13, iOS 16, tvOS 16, watchOS 9). Linux ignores it.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "JWSVerify", targets: ["JWSVerify"]),
        // Signing with an In-App Purchase key: Apple's signature creators and the Retention Messaging answer.
        // Kept apart so that a server that only verifies links none of it.
        .library(name: "JWSSigning", targets: ["JWSSigning"]),
        // The App Store Server API client: every endpoint, every signed item of a response verified. Kept apart
        // so that a server that only verifies links none of its HTTP.
        .library(name: "AppStoreServerAPI", targets: ["AppStoreServerAPI"]),
        // The purchase ledger: verified items in, exactly-once state and entitlements out, on SQLite. Kept apart
        // so that a server that only verifies links no database.
        .library(name: "PurchaseLedger", targets: ["PurchaseLedger"]),
        // The ledger's PostgreSQL store, for servers that share one database; the only product that links libpq.
        .library(name: "PurchaseLedgerPostgreSQL", targets: ["PurchaseLedgerPostgreSQL"]),
        // The ledger's reconciler over the App Store Server API client: kept apart so that a ledger links no HTTP.
        .library(name: "PurchaseLedgerReconciliation", targets: ["PurchaseLedgerReconciliation"]),
        // Test PKI and token minting for integration tests; production servers need not link it.
        .library(name: "JWSVerifyTesting", targets: ["JWSVerifyTesting"]),
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
        // The one signer (PKCS #8 P-256 keys, ES256 r||s and DER): JWSSigning's and the testing library's. It
        // shares CJWSOpenSSL's conventions and uses its error drain and free functions; the verification path
        // never links it.
        .target(
            name: "CJWSSigning",
            dependencies: ["COpenSSL", "CJWSOpenSSL"]
        ),
        .target(
            name: "JWSSigning",
            dependencies: ["JWSVerify", "CJWSSigning", "CJWSOpenSSL"]
        ),
        // The App Store Server API client over a transport protocol (URLSession by default): bearer tokens from
        // JWSSigning's signer, every signed item verified by JWSVerify.
        .target(
            name: "AppStoreServerAPI",
            dependencies: ["JWSVerify", "JWSSigning"]
        ),
        // System SQLite 3 (Debian: libsqlite3-dev): the ledger's embedded store.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        // System libpq (Debian: libpq-dev): the ledger's PostgreSQL store.
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"]), .brew(["libpq"])]
        ),
        // The purchase ledger: the append-only log of verified items, the fold into state, entitlements, the
        // store protocol and its SQLite store, import and rebuild.
        .target(
            name: "PurchaseLedger",
            dependencies: ["JWSVerify", "CSQLite"]
        ),
        // The ledger's PostgreSQL store (libpq), a product of its own so that an SQLite user links no libpq.
        .target(
            name: "PurchaseLedgerPostgreSQL",
            dependencies: ["PurchaseLedger", "JWSVerify", "CLibPQ"]
        ),
        // Reconciliation: notification and transaction history from saved cursors, the status audit.
        .target(
            name: "PurchaseLedgerReconciliation",
            dependencies: ["PurchaseLedger", "AppStoreServerAPI", "JWSVerify"]
        ),
        // Test keys, certificates and receipts, kept apart from the verification path; it signs through
        // CJWSSigning and uses CJWSOpenSSL's error drain and free functions.
        .target(
            name: "CJWSTesting",
            dependencies: ["COpenSSL", "CJWSOpenSSL", "CJWSSigning"]
        ),
        .target(
            name: "JWSVerifyTesting",
            dependencies: ["JWSVerify", "CJWSTesting", "CJWSSigning", "CJWSOpenSSL"]
        ),
        .executableTarget(
            name: "jwsverify",
            dependencies: [
                "JWSVerify", "JWSSigning", "JWSVerifyTesting", "AppStoreServerAPI", "PurchaseLedger",
                "PurchaseLedgerPostgreSQL", "PurchaseLedgerReconciliation",
            ]
        ),
        // Benchmarks: `swift run -c release jwsverify-benchmark`, or Benchmarks/compare.sh; JWSSigning for the
        // realtime answer (`--realtime`), AppStoreServerAPI for the verified history page (`--api-history`),
        // PurchaseLedger for the entitlements answer (`--ledger-entitlements`).
        .executableTarget(
            name: "jwsverify-benchmark",
            dependencies: ["JWSVerify", "JWSSigning", "JWSVerifyTesting", "AppStoreServerAPI", "PurchaseLedger"],
            path: "Benchmarks/Sources/jwsverify-benchmark"
        ),
        .testTarget(
            name: "JWSVerifyTests",
            dependencies: ["JWSVerify", "JWSVerifyTesting"]
        ),
        .testTarget(
            name: "JWSSigningTests",
            dependencies: ["JWSSigning", "JWSVerify", "JWSVerifyTesting"]
        ),
        // The App Store Server API emulator on loopback (Tests/app-store-api-emulator.py), started and read by
        // the client's tests and the CLI's: not a product, nothing in Sources links it.
        .target(
            name: "AppStoreServerAPIEmulator",
            dependencies: ["JWSVerify", "JWSVerifyTesting"],
            path: "Tests/AppStoreServerAPIEmulator"
        ),
        .testTarget(
            name: "AppStoreServerAPITests",
            dependencies: [
                "AppStoreServerAPI", "JWSSigning", "JWSVerify", "JWSVerifyTesting", "AppStoreServerAPIEmulator",
            ]
        ),
        // The ledger's shared store suite runs against SQLite and, when `LEDGER_TEST_POSTGRESQL` names a server
        // (`.ci/run` starts one on loopback), PostgreSQL; its command tests run the built `jwsverify`.
        .testTarget(
            name: "PurchaseLedgerTests",
            dependencies: [
                "PurchaseLedger", "PurchaseLedgerPostgreSQL", "PurchaseLedgerReconciliation", "JWSVerify",
                "JWSVerifyTesting", "AppStoreServerAPI", "AppStoreServerAPIEmulator", "jwsverify",
            ]
        ),
        .testTarget(
            name: "JWSVerifyTestingTests",
            dependencies: ["JWSVerifyTesting"]
        ),
        .testTarget(
            name: "jwsverifyTests",
            dependencies: ["jwsverify", "JWSVerify", "JWSSigning", "JWSVerifyTesting", "AppStoreServerAPIEmulator"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
