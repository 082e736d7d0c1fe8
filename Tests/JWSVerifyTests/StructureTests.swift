import Foundation
import Testing

/// The structure rules of the codebase, checked on the package's own sources: each check of
/// Docs/ErrorCodes.md in one file under `Verification/Checks`, file sizes, unsafe pointers only in
/// the named places (Docs/Security.md, "Unsafe code").
@Suite("Structure of the sources")
struct StructureTests {
    /// The package's root, from this file's path (`Tests/JWSVerifyTests/StructureTests.swift`).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every file under `Sources/` ending in `suffix`, as paths relative to `Sources/`.
    static func files(endingIn suffix: String) -> [String] {
        let sources = root.appendingPathComponent("Sources")
        let enumerator = FileManager.default.enumerator(atPath: sources.path)
        var found: [String] = []
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix(suffix) { found.append(path) }
        }
        return found.sorted()
    }

    /// Every file under `Tests/` ending in `suffix`, as paths relative to `Tests/`.
    static func testFiles(endingIn suffix: String) -> [String] {
        let tests = root.appendingPathComponent("Tests")
        let enumerator = FileManager.default.enumerator(atPath: tests.path)
        var found: [String] = []
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix(suffix) { found.append(path) }
        }
        return found.sorted()
    }

    static func lines(_ path: String) throws -> [Substring] {
        let text = try String(
            contentsOf: root.appendingPathComponent("Sources").appendingPathComponent(path), encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// Input: the file names under `Sources/JWSVerify/Verification/Checks`. Expected: each of the
    /// contract's checks 1 to 13 is named by exactly one file (`Check06-07…` holds 6 and 7).
    @Test("each check of the contract is in one file, by its number")
    func oneFilePerCheck() {
        var owners: [Int: [String]] = [:]
        for path in Self.files(endingIn: ".swift") where path.hasPrefix("JWSVerify/Verification/Checks/Check") {
            let name = String(path.split(separator: "/").last ?? "")
            let digits = name.dropFirst("Check".count).prefix { $0.isNumber || $0 == "-" }
            let bounds = digits.split(separator: "-").compactMap { Int($0) }
            guard let first = bounds.first else { continue }
            for number in first...(bounds.last ?? first) { owners[number, default: []].append(name) }
        }
        for number in 1...13 {
            #expect(owners[number]?.count == 1, "check \(number): \(owners[number] ?? [])")
        }
        #expect(Set(owners.keys) == Set(1...13))
    }

    /// Input: every Swift file of the CLI (`Sources/jwsverify`). Expected: 4,500 lines at most for the commands of
    /// issue #25, and 600 more for the `ledger` group (issue #38: four subcommands, their help and `reconcile`'s
    /// phases, which reuse `api`'s option declarations and connection): the CLI parses
    /// arguments, calls the libraries and prints what they return; the JSON documents, `batch` lines, outcomes and
    /// the ledger's fold, entitlements, import and reports are the libraries'.
    @Test("the CLI stays within its line budget")
    func cliLineBudget() throws {
        var total = 0
        for path in Self.files(endingIn: ".swift") where path.hasPrefix("jwsverify/") {
            total += try Self.lines(path).count - 1
        }
        #expect(total <= 5_100, "Sources/jwsverify: \(total) lines")
    }

    /// Input: every Swift and C file under `Sources/`. Expected: none over its limit (Swift 450 lines,
    /// generated models aside; C 400; each `SignedDataVerifier` file 300).
    @Test("no source file over its size limit")
    func fileSizes() throws {
        for path in Self.files(endingIn: ".swift") where !path.hasPrefix("JWSVerify/Models/Generated/") {
            let limit = path.contains("/SignedDataVerifier") ? 300 : 450
            let count = try Self.lines(path).count - 1
            #expect(count <= limit, "\(path): \(count) lines")
        }
        for path in Self.files(endingIn: ".c") {
            let count = try Self.lines(path).count - 1
            #expect(count <= 400, "\(path): \(count) lines")
        }
    }

    /// Input: every C file and public header of the three C modules. Expected: the one convention of
    /// `CJWSOpenSSL.h`: every exported function carries its module's prefix (`cjws_`, `cjwst_`, `cjwss_`); every C file
    /// includes its module's `internal.h` first (it hides deprecated OpenSSL API); only
    /// `CJWSOpenSSL/fastpath/ec_key.c` asks for the deprecated API; one error drain: only
    /// `CJWSOpenSSL/errors.c` takes errors off OpenSSL's queue.
    @Test("the C modules follow one convention and have one error drain")
    func cConvention() throws {
        let cFiles = Self.files(endingIn: ".c").filter {
            $0.hasPrefix("CJWSOpenSSL/") || $0.hasPrefix("CJWSTesting/") || $0.hasPrefix("CJWSSigning/")
        }
        #expect(cFiles.contains("CJWSOpenSSL/fastpath/ec_key.c") && cFiles.contains("CJWSOpenSSL/fastpath/leaf.c"))
        for path in cFiles {
            let lines = try Self.lines(path)
            let firstInclude = lines.first { $0.hasPrefix("#include") } ?? ""
            #expect(
                firstInclude.hasPrefix("#include \"internal.h\"")
                    || firstInclude.hasPrefix("#include \"../internal.h\""),
                "\(path): first include \(firstInclude)")
            let text = lines.joined(separator: "\n")
            #expect(
                text.contains("#define CJWS_INTERNAL_USES_DEPRECATED_EC") == (path == "CJWSOpenSSL/fastpath/ec_key.c"),
                "\(path)")
            #expect(!text.contains("ERR_get_error") || path == "CJWSOpenSSL/errors.c", "\(path) drains the queue")
        }
        let headers = Self.files(endingIn: ".h").filter { $0.contains("/include/") && $0.hasPrefix("CJWS") }
        #expect(headers.count == 5, "\(headers)")
        for path in headers {
            let prefix = path.hasPrefix("CJWSTesting/") ? "cjwst_" : path.hasPrefix("CJWSSigning/") ? "cjwss_" : "cjws_"
            for line in try Self.lines(path) {
                guard let open = line.firstIndex(of: "("), let first = line.first, first.isLetter,
                    !line.hasPrefix("typedef"), !line.hasPrefix("extern")
                else { continue }
                let name = line[..<open].split(whereSeparator: { $0 == " " || $0 == "*" }).last ?? ""
                #expect(name.hasPrefix(prefix), "\(path): \(line)")
            }
        }
    }

    /// Input: every Swift file of the library and of JWSSigning. Expected: unsafe pointers (`Unsafe…`, `withUnsafe…`,
    /// `memchr`, `memcmp`) only in their `OpenSSL/` folders and the five named files.
    @Test("unsafe pointers only at the C boundary and in the named files")
    func unsafeOnlyInNamedPlaces() throws {
        let named: Set<String> = [
            "JWSVerify/JWS/Base64.swift", "JWSVerify/JWS/JSONParser.swift", "JWSVerify/JWS/ByteScanning.swift",
            "JWSVerify/Caches/ReadWriteLocked.swift", "JWSVerify/JSON/JSONWriter+Chunk.swift",
        ]
        for path in Self.files(endingIn: ".swift") where path.hasPrefix("JWSVerify/") || path.hasPrefix("JWSSigning/") {
            guard !path.hasPrefix("JWSVerify/OpenSSL/"), !path.hasPrefix("JWSSigning/OpenSSL/"), !named.contains(path)
            else { continue }
            for (number, line) in try Self.lines(path).enumerated() {
                let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                let unsafe = ["Unsafe", "withUnsafe", "memchr", "memcmp"].contains { code.contains($0) }
                #expect(!unsafe, "\(path):\(number + 1): \(line)")
            }
        }
    }

    /// Input: every Swift file of the ledger's products. Expected: SQLite's and libpq's pointers only in the one file
    /// of each that calls its C library (`SQLite/SQLiteConnection_sqlite.swift`, `PostgreSQLConnection_libpq.swift`),
    /// and the C modules imported nowhere else.
    @Test("the ledger's unsafe code and C calls are in one file per database")
    func ledgerUnsafeOnlyAtTheBoundary() throws {
        let boundary: Set<String> = [
            "PurchaseLedger/SQLite/SQLiteConnection_sqlite.swift",
            "PurchaseLedgerPostgreSQL/PostgreSQLConnection_libpq.swift",
        ]
        let ledgerFiles = Self.files(endingIn: ".swift").filter { $0.hasPrefix("PurchaseLedger") }
        #expect(ledgerFiles.count > 10)
        for path in ledgerFiles where !boundary.contains(path) {
            for (number, line) in try Self.lines(path).enumerated() {
                let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                let unsafe = ["Unsafe", "withUnsafe", "OpaquePointer", "import CSQLite", "import CLibPQ"]
                    .contains { code.contains($0) }
                #expect(!unsafe, "\(path):\(number + 1): \(line)")
            }
        }
    }

    /// Input: `Package.swift`. Expected: a server that only verifies links no database: `JWSVerify`, `JWSSigning` and
    /// `AppStoreServerAPI` depend on none of the ledger's targets, and only the PostgreSQL store's target links libpq.
    @Test("the verification, signing and API products link no database")
    func verificationLinksNoDatabase() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        for target in ["JWSVerify", "JWSSigning", "AppStoreServerAPI", "PurchaseLedger"] {
            let declaration = try #require(manifest.range(of: "name: \"\(target)\",\n            dependencies: ["))
            let dependencies = manifest[declaration.upperBound...].prefix { $0 != "]" }
            let forbidden =
                target == "PurchaseLedger"
                ? ["CLibPQ", "PurchaseLedgerPostgreSQL"] : ["CSQLite", "CLibPQ", "PurchaseLedger"]
            for name in forbidden {
                #expect(!dependencies.contains("\"\(name)\""), "\(target) depends on \(name)")
            }
        }
    }

    /// Input: `Package.swift` and the sources of the verification path. Expected: a server that only verifies links
    /// no signing code: the `JWSVerify` and `CJWSOpenSSL` targets depend on none of `JWSSigning`, `CJWSSigning`,
    /// `CJWSTesting` and `JWSVerifyTesting`, and none of their files imports one; the one signer's C (`cjwss_`) is
    /// called from Swift only in `JWSSigning/OpenSSL/` and `JWSVerifyTesting`.
    @Test("the verification path links no signing code")
    func verificationLinksNoSigning() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let signing = ["JWSSigning", "CJWSSigning", "CJWSTesting", "JWSVerifyTesting"]
        for target in ["JWSVerify", "CJWSOpenSSL"] {
            // The `.target(` whose name is `target`, up to the end of its dependency list.
            let declarations = manifest.components(separatedBy: ".target(").dropFirst().filter {
                $0.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("name: \"\(target)\",")
            }
            try #require(declarations.count == 1, "target \(target)")
            let declaration = declarations[0].prefix { $0 != "]" }
            #expect(declaration.contains("dependencies:"), "\(declaration)")
            for name in signing {
                #expect(!declaration.contains("\"\(name)\""), "\(target) depends on \(name)")
            }
        }
        for path in Self.files(endingIn: ".swift") + Self.files(endingIn: ".c") + Self.files(endingIn: ".h")
        where path.hasPrefix("JWSVerify/") || path.hasPrefix("CJWSOpenSSL/") {
            for (number, line) in try Self.lines(path).enumerated() {
                let links = signing.contains { line.contains("import \($0)") || line.contains("#include \"\($0).h\"") }
                #expect(!links && !line.contains("cjwss_"), "\(path):\(number + 1): \(line)")
            }
        }
        for path in Self.files(endingIn: ".swift") where !path.hasPrefix("JWSVerifyTesting/") {
            guard !path.hasPrefix("JWSSigning/OpenSSL/") else { continue }
            for (number, line) in try Self.lines(path).enumerated() where line.contains("import CJWSSigning") {
                Issue.record("\(path):\(number + 1): \(line)")
            }
        }
    }

    /// Input: `Package.swift` and every Swift file under `Sources/`. Expected: a server that only verifies (or only
    /// signs, or keeps a ledger) links no HTTP: the `JWSVerify`, `CJWSOpenSSL`, `JWSSigning` and ledger targets do
    /// not depend on `AppStoreServerAPI`, no file outside `AppStoreServerAPI/` (and the CLI and the ledger's
    /// reconciler, which call the API) imports it, and
    /// `URLSession` and `FoundationNetworking` appear only in `AppStoreServerAPI/Transport/`.
    @Test("the verification and signing paths link no HTTP client")
    func verificationLinksNoHTTP() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        for target in ["JWSVerify", "CJWSOpenSSL", "JWSSigning", "PurchaseLedger", "PurchaseLedgerPostgreSQL"] {
            let declarations = manifest.components(separatedBy: ".target(").dropFirst().filter {
                $0.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("name: \"\(target)\",")
            }
            try #require(declarations.count == 1, "target \(target)")
            let declaration = declarations[0].prefix { $0 != "]" }
            #expect(!declaration.contains("\"AppStoreServerAPI\""), "\(target) depends on AppStoreServerAPI")
        }
        for path in Self.files(endingIn: ".swift") where !path.hasPrefix("AppStoreServerAPI/") {
            for (number, line) in try Self.lines(path).enumerated() {
                let imports =
                    !path.hasPrefix("jwsverify/") && !path.hasPrefix("PurchaseLedgerReconciliation/")
                    && line.contains("import AppStoreServerAPI")
                let http =
                    line.replacingOccurrences(of: "URLSessionTransport", with: "").contains("URLSession")
                    || line.contains("import FoundationNetworking")
                #expect(!imports && !http, "\(path):\(number + 1): \(line)")
            }
        }
        for path in Self.files(endingIn: ".swift") where path.hasPrefix("AppStoreServerAPI/") {
            guard !path.hasPrefix("AppStoreServerAPI/Transport/") else { continue }
            for (number, line) in try Self.lines(path).enumerated()
            where line.replacingOccurrences(of: "URLSessionTransport", with: "").contains("URLSession") {
                Issue.record("\(path):\(number + 1): URLSession outside Transport/: \(line)")
            }
        }
    }

    /// Input: every C file under `Sources/`. Expected: one signer: only `CJWSSigning/sign.c` signs with OpenSSL's
    /// signing calls (`EVP_DigestSign`, `EVP_PKEY_sign`, `ECDSA_do_sign`); the testing library's tokens and
    /// certificates sign through it (`cjwss_sign`), and no `cjwst_sign_` function remains.
    @Test("one ES256 signer, in CJWSSigning")
    func oneSigner() throws {
        let calls = ["EVP_DigestSign(", "EVP_DigestSignInit", "EVP_PKEY_sign(", "EVP_PKEY_sign_init", "ECDSA_do_sign"]
        for path in Self.files(endingIn: ".c") + Self.files(endingIn: ".h") + Self.files(endingIn: ".swift") {
            for (number, line) in try Self.lines(path).enumerated() {
                let signs = calls.contains { line.contains($0) } && path != "CJWSSigning/sign.c"
                #expect(!signs && !line.contains("cjwst_sign_"), "\(path):\(number + 1): \(line)")
            }
        }
        #expect(try Self.lines("CJWSTesting/crafted.c").contains { $0.contains("cjwss_sign(") })
        #expect(try Self.lines("JWSVerifyTesting/OpenSSLKey_openssl.swift").contains { $0.contains("cjwss_sign(") })
    }

    /// Input: every Swift file under `Sources/`. Expected: no reflection (`Mirror(`): what the models know of their
    /// fields (enumerations, timestamps) is generated, and the payload kinds are one table.
    @Test("no reflection in the sources")
    func noReflection() throws {
        for path in Self.files(endingIn: ".swift") {
            for (number, line) in try Self.lines(path).enumerated() where line.contains("Mirror" + "(") {
                Issue.record("\(path):\(number + 1): \(line)")
            }
        }
    }

    /// Input: every Swift file under `Sources/`. Expected: one JSON writer, the library's `JSONWriter`
    /// (`JSON/JSONWriter.swift`): no other type of that name, and no second writer (`OrderedJSON`).
    @Test("one JSON writer, in the library")
    func oneJSONWriter() throws {
        for path in Self.files(endingIn: ".swift") {
            for (number, line) in try Self.lines(path).enumerated() {
                let declaresWriter = ["enum JSONWriter", "struct JSONWriter"].contains { line.contains($0) }
                if declaresWriter && path != "JWSVerify/JSON/JSONWriter.swift" || line.contains("Ordered" + "JSON") {
                    Issue.record("\(path):\(number + 1): \(line)")
                }
            }
        }
    }

    /// Input: the file names under `Tests/JWSVerifyTests/Verification/Checks` and `…/Receipts/Checks`.
    /// Expected: each token check 1 to 13 and each receipt check 1 to 10 has exactly one test file named after it
    /// (`Check07ValidityTests.swift`, `ReceiptCheck04TrustTests.swift`), mirroring `Sources`.
    @Test("each check of the contract has one test file, by its number")
    func oneTestFilePerCheck() {
        for (folder, prefix, count) in [
            ("JWSVerifyTests/Verification/Checks/", "Check", 13),
            ("JWSVerifyTests/Receipts/Checks/", "ReceiptCheck", 10),
        ] {
            var owners: [Int: [String]] = [:]
            for path in Self.testFiles(endingIn: "Tests.swift") where path.hasPrefix(folder + prefix) {
                let name = String(path.split(separator: "/").last ?? "")
                guard let number = Int(name.dropFirst(prefix.count).prefix(2)) else { continue }
                owners[number, default: []].append(name)
            }
            for number in 1...count {
                #expect(owners[number]?.count == 1, "\(prefix) \(number): \(owners[number] ?? [])")
            }
            #expect(Set(owners.keys) == Set(1...count), "\(prefix): \(owners.keys.sorted())")
        }
    }

    /// Input: every Swift file under `Tests/`, its name, the types it declares and its `@Suite` names.
    /// Expected: none named after a review round or an attack ("Review", "Attack", "OneParse", "One
    /// parse"): suites are named after what they test, so that a newcomer finds them by subject.
    @Test("no test file or suite is named after a review round")
    func testsNamedBySubject() throws {
        let forbidden = ["review", "attack", "oneparse", "one parse"]
        func named(_ text: some StringProtocol) -> String? {
            let lowered = text.lowercased()
            return forbidden.first { lowered.contains($0) }
        }
        for path in Self.testFiles(endingIn: ".swift") {
            #expect(named(path.split(separator: "/").last ?? "") == nil, "file \(path)")
            let text = try String(
                contentsOf: Self.root.appendingPathComponent("Tests").appendingPathComponent(path), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                let declares = ["struct ", "enum ", "final class ", "class ", "actor ", "extension "].contains {
                    code.hasPrefix($0)
                }
                let typeName = declares ? code.split(separator: " ").dropFirst().first { $0 != "class" } : nil
                if let typeName { #expect(named(typeName) == nil, "\(path):\(number + 1): \(line)") }
                if code.hasPrefix("@Suite(") { #expect(named(code) == nil, "\(path):\(number + 1): \(line)") }
            }
        }
    }

    /// Input: the four cache files. Expected: each is built on ``BoundedCache`` (the one mechanism: bound,
    /// eviction, lock) and holds no lock or eviction order of its own.
    @Test("the four caches share one cache mechanism")
    func oneCacheMechanism() throws {
        for path in [
            "JWSVerify/Caches/ChainCache.swift", "JWSVerify/Caches/ReceiptChainCache.swift",
            "JWSVerify/Caches/IntermediateCache.swift", "JWSVerify/Revocation/RevocationCache.swift",
        ] {
            let code = try Self.lines(path).map { $0.split(separator: "///", maxSplits: 1).first ?? "" }.joined()
            #expect(code.contains("BoundedCache<"), "\(path) is not built on BoundedCache")
            for own in ["ReadWriteLocked(", "Mutex<", "Atomic<", "removeFirst(", "order"] {
                #expect(!code.contains(own), "\(path) has its own \(own)")
            }
        }
    }

    /// Input: every Swift file of the library. Expected: the pinned StoreKit Testing certificate is compared
    /// and Apple's marker extensions are looked up in one file each under `SignedData/`, for both envelopes.
    @Test("the pinned-certificate and marker checks are written once")
    func sharedChecksWrittenOnce() throws {
        var pinned: [String] = []
        var markers: [String] = []
        for path in Self.files(endingIn: ".swift") where path.hasPrefix("JWSVerify/") {
            let code = try Self.lines(path).map { $0.split(separator: "//", maxSplits: 1).first ?? "" }.joined()
            if code.contains("pinned.der") { pinned.append(path) }
            if code.contains("hasExtension(AppleOID.") { markers.append(path) }
        }
        #expect(pinned == ["JWSVerify/SignedData/PinnedCertificateCheck.swift"])
        #expect(markers == ["JWSVerify/SignedData/AppleMarkersCheck.swift"])
    }

    /// Input: the code (comments left out) of every Swift file under `Sources/`, `Tests/`, `Benchmarks/` and
    /// `Fuzz/Sources/`. Expected: the deprecated test hierarchies `TestPKI` and `ReceiptTestPKI` (and the minter's
    /// and signer's `pki:` initializers) appear only where they are declared, where ``TestHierarchy``'s types
    /// convert to them, and in the one suite that tests them: every other call site uses ``TestHierarchy``, so that
    /// the build has no deprecation warning.
    @Test("only the deprecated names' own files and their suite use TestPKI and ReceiptTestPKI")
    func deprecatedTestHierarchiesUnused() throws {
        let names: Set<Substring> = ["Test" + "PKI", "ReceiptTest" + "PKI"]
        let allowed: Set<String> = [
            "Sources/JWSVerifyTesting/TestPKI.swift", "Sources/JWSVerifyTesting/ReceiptTestPKI.swift",
            "Sources/JWSVerifyTesting/TokenMinter.swift", "Sources/JWSVerifyTesting/ReceiptSigner.swift",
            "Tests/JWSVerifyTestingTests/DeprecatedTestPKITests.swift", "Tests/JWSVerifyTests/StructureTests.swift",
        ]
        var checked = 0
        for folder in ["Sources", "Tests", "Benchmarks", "Fuzz/Sources"] {
            let enumerator = FileManager.default.enumerator(atPath: Self.root.appendingPathComponent(folder).path)
            while let relative = enumerator?.nextObject() as? String {
                let path = folder + "/" + relative
                guard path.hasSuffix(".swift"), !allowed.contains(path) else { continue }
                let url = Self.root.appendingPathComponent(path)
                // Symbolic links (the fuzz harness in Tests/) are checked where they point.
                guard (try? url.resourceValues(forKeys: [.isSymbolicLinkKey]).isSymbolicLink) != true else { continue }
                checked += 1
                let text = try String(contentsOf: url, encoding: .utf8)
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                    let words = code.split { !($0.isLetter || $0.isNumber || $0 == "_") }
                    let oldInitializer = ["TokenMinter(pki:", "ReceiptSigner(pki:"].contains { code.contains($0) }
                    if oldInitializer || words.contains(where: names.contains) {
                        Issue.record("\(path):\(number + 1): \(line)")
                    }
                }
            }
        }
        #expect(checked > 100)
    }
}
