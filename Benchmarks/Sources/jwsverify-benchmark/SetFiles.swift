import Foundation
import JWSVerify

/// The exported form of the token sets: `<set>.ndjson` (one `{"token":…,"expect":…}` object per
/// line; `jwsverify batch` reads these lines as they are), `root.der` and `config.json`.
enum SetFiles {
    static let configName = "config.json"
    static let rootName = "root.der"

    struct Configuration: Codable {
        struct SetEntry: Codable {
            var file: String
            var kind: String
            var count: Int
            /// Verify this token once before measuring (it fills the chain or intermediate cache).
            var primer: String?
        }

        var bundleId: String
        var appAppleId: Int64
        var environment: String
        /// The root to trust (DER), relative to the directory.
        var root: String
        /// Every payload's signedDate, milliseconds since 1970.
        var signedDateMilliseconds: Int64
        var seed: UInt64
        var sets: [String: SetEntry]
    }

    private struct Line: Codable {
        var token: String
        /// "verified" or the expected error code.
        var expect: String
        var category: String?
    }

    static func write(_ sets: [TokenSet], rootDER: Data, seed: UInt64, to directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try rootDER.write(to: directory.appendingPathComponent(rootName))
        var entries: [String: Configuration.SetEntry] = [:]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for set in sets {
            let file = set.name + ".ndjson"
            var data = Data()
            data.reserveCapacity(set.totalBytes + set.tokens.count * 40)
            for (index, token) in set.tokens.enumerated() {
                let line = Line(
                    token: token, expect: set.expected[index]?.rawValue ?? "verified", category: set.categories?[index])
                data.append(try encoder.encode(line))
                data.append(0x0A)
            }
            try data.write(to: directory.appendingPathComponent(file))
            entries[set.name] = Configuration.SetEntry(
                file: file, kind: set.kind, count: set.tokens.count, primer: set.primer)
        }
        let configuration = Configuration(
            bundleId: BenchmarkConfiguration.bundleId, appAppleId: BenchmarkConfiguration.appAppleId,
            environment: BenchmarkConfiguration.environment, root: rootName,
            signedDateMilliseconds: Int64(BenchmarkConfiguration.signedDate.timeIntervalSince1970 * 1000), seed: seed,
            sets: entries)
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        try encoder.encode(configuration).write(to: directory.appendingPathComponent(configName))
    }

    /// Reads the set `name` and the root from a directory written by ``write(_:rootDER:seed:to:)``.
    static func read(_ name: String, from directory: URL) throws -> (set: TokenSet, rootDER: Data) {
        let configuration = try JSONDecoder().decode(
            Configuration.self, from: Data(contentsOf: directory.appendingPathComponent(configName)))
        guard let entry = configuration.sets[name] else {
            throw BenchmarkError("\(directory.path)/\(configName) has no set '\(name)'")
        }
        let rootDER = try Data(contentsOf: directory.appendingPathComponent(configuration.root))
        let data = try Data(contentsOf: directory.appendingPathComponent(entry.file))
        let decoder = JSONDecoder()
        var set = TokenSet(
            name: name, kind: entry.kind, tokens: [], expected: [], categories: nil, primer: entry.primer)
        var categories: [String] = []
        // Split as an array of bytes: `Data.split` costs hundreds of instructions a byte (11 billion for the warm
        // set), which a profiler of the measured loop (`Benchmarks/batch-line-cost.sh`) would sit through.
        for line in [UInt8](data).split(separator: 0x0A) where !line.isEmpty {
            let decoded = try decoder.decode(Line.self, from: Data(line))
            set.tokens.append(decoded.token)
            set.expected.append(decoded.expect == "verified" ? nil : VerificationError.Code(rawValue: decoded.expect))
            if let category = decoded.category { categories.append(category) }
        }
        if !categories.isEmpty { set.categories = categories }
        return (set, rootDER)
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
