import Foundation

/// Locates the files of the repository's `TestVectors` folder from the test sources, so that tests never depend on the
/// working directory or on anything outside the repository.
enum TestVectorFiles {
    /// The repository root: the nearest folder above this source file (symlinks resolved) that holds both
    /// `Package.swift` and `TestVectors`. Falls back to this file's folder, so that a missing vector fails with a
    /// file-not-found error naming the path rather than a crash.
    static let root: URL = {
        let source = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        let fileManager = FileManager.default
        var folder = source.deletingLastPathComponent()
        while folder.path != "/" {
            let hasManifest = fileManager.fileExists(atPath: folder.appendingPathComponent("Package.swift").path)
            let hasVectors = fileManager.fileExists(atPath: folder.appendingPathComponent("TestVectors").path)
            if hasManifest && hasVectors {
                return folder
            }
            folder = folder.deletingLastPathComponent()
        }
        return source.deletingLastPathComponent()
    }()

    /// The URL of a file given by its path inside `TestVectors`, such as `apple-library/models/appData.json`.
    static func url(_ relativePath: String) -> URL {
        root.appendingPathComponent("TestVectors").appendingPathComponent(relativePath)
    }

    /// The contents of a file given by its path inside `TestVectors`.
    static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: url(relativePath))
    }
}

/// JSON helpers of the model tests.
enum ModelJSON {
    /// The contents of `TestVectors/apple-library/models/<name>`.
    static func vector(_ name: String) throws -> Data {
        try TestVectorFiles.data("apple-library/models/" + name)
    }

    static func decode<Model: Decodable>(_ type: Model.Type, from data: Data) throws -> Model {
        try JSONDecoder().decode(type, from: data)
    }

    static func decode<Model: Decodable>(_ type: Model.Type, from json: String) throws -> Model {
        try decode(type, from: Data(json.utf8))
    }

    static func encode<Model: Encodable>(_ value: Model) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(value)
    }

    static func encodedString<Model: Encodable>(_ value: Model) throws -> String {
        String(decoding: try encode(value), as: UTF8.self)
    }

    /// The `JSONSerialization` object of some JSON text.
    static func object(_ data: Data) throws -> Any {
        try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    }

    /// JSON text for a `JSONSerialization` object.
    static func data(_ object: Any) throws -> Data {
        try JSONSerialization.data(withJSONObject: object, options: [.fragmentsAllowed])
    }

    /// Whether two JSON texts parse to equal `JSONSerialization` objects (member order ignored).
    static func sameJSON(_ lhs: Data, _ rhs: Data) throws -> Bool {
        equal(try object(lhs), try object(rhs))
    }

    /// Deep equality of `JSONSerialization` objects.
    static func equal(_ lhs: Any, _ rhs: Any) -> Bool {
        switch (lhs, rhs) {
        case let (lhs as [String: Any], rhs as [String: Any]):
            return lhs.count == rhs.count
                && lhs.allSatisfy { key, value in rhs[key].map { equal(value, $0) } ?? false }
        case let (lhs as [Any], rhs as [Any]):
            return lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { equal($0, $1) }
        case let (lhs as String, rhs as String):
            return lhs == rhs
        case (is NSNull, is NSNull):
            return true
        case let (lhs as NSNumber, rhs as NSNumber):
            return lhs == rhs
        default:
            return false
        }
    }

    /// Decodes a model vector, encodes it again and returns the model with whether the re-encoded JSON equals the
    /// original.
    static func roundTrip<Model: Codable>(_ type: Model.Type, vector name: String) throws -> (Model, Bool) {
        let original = try vector(name)
        let model = try decode(type, from: original)
        return (model, try sameJSON(original, try encode(model)))
    }
}
