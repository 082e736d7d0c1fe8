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

    /// Input: every Swift file of the library. Expected: unsafe pointers (`Unsafe…`, `withUnsafe…`,
    /// `memchr`, `memcmp`) only in `OpenSSL/` and the four named files.
    @Test("unsafe pointers only at the C boundary and in the named files")
    func unsafeOnlyInNamedPlaces() throws {
        let named: Set<String> = [
            "JWSVerify/JWS/Base64.swift", "JWSVerify/JWS/JSONParser.swift", "JWSVerify/JWS/ByteScanning.swift",
            "JWSVerify/Caches/ReadWriteLocked.swift",
        ]
        for path in Self.files(endingIn: ".swift") where path.hasPrefix("JWSVerify/") {
            guard !path.hasPrefix("JWSVerify/OpenSSL/"), !named.contains(path) else { continue }
            for (number, line) in try Self.lines(path).enumerated() {
                let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                let unsafe = ["Unsafe", "withUnsafe", "memchr", "memcmp"].contains { code.contains($0) }
                #expect(!unsafe, "\(path):\(number + 1): \(line)")
            }
        }
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
}
