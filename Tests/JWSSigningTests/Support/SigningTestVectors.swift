import Foundation
import JWSVerify
import Testing

/// The repository's `TestVectors` folder, found from this source file (the nearest folder above it with
/// `Package.swift`), and JSON helpers of the signing tests. Nothing outside the repository is read.
enum SigningTestVectors {
    static let root: URL = {
        var folder = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
        while folder.path != "/",
            !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path)
        {
            folder = folder.deletingLastPathComponent()
        }
        return folder
    }()

    /// The contents of `TestVectors/apple-library/api/<name>`.
    static func appleAPI(_ name: String) throws -> Data {
        try Data(contentsOf: root.appendingPathComponent("TestVectors/apple-library/api/" + name))
    }

    /// JSON text as a value tree, so that two texts compare as JSON values (member order and spacing aside).
    static func tree(_ data: Data) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// The members of a JSON object.
    static func object(_ data: Data) throws -> [String: JSONValue] {
        guard case .object(let members) = try tree(data) else {
            Issue.record("not a JSON object: \(String(decoding: data, as: UTF8.self))")
            return [:]
        }
        return members
    }
}
