import Foundation
import JWSVerifyTesting

/// The test data the fuzz entry points use: the generated test PKI of `TestVectors/generated`.
///
/// Found by walking up from this source file to the folder that holds `TestVectors/` (the
/// repository root), or from `JWSVERIFY_TEST_VECTORS` when set. A missing file stops the process:
/// a fuzz target must never run against the wrong configuration.
public enum FuzzVectors {
    /// The `TestVectors` folder.
    public static let directory: URL = {
        if let path = ProcessInfo.processInfo.environment["JWSVERIFY_TEST_VECTORS"] {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        var folder = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("TestVectors/generated/root.der")
            if FileManager.default.fileExists(atPath: candidate.path) {
                return folder.appendingPathComponent("TestVectors", isDirectory: true)
            }
            folder.deleteLastPathComponent()
        }
        fatalError("TestVectors/generated not found above \(#filePath); set JWSVERIFY_TEST_VECTORS")
    }()

    /// The bytes of a file under `TestVectors/`.
    public static func data(_ relativePath: String) -> Data {
        let url = directory.appendingPathComponent(relativePath)
        guard let data = try? Data(contentsOf: url) else { fatalError("cannot read \(url.path)") }
        return data
    }

    /// The generated test root (`generated/root.der`), the only trust anchor of the fuzzed verifier.
    public static let rootDER: Data = data("generated/root.der")

    /// The generated leaf key (`generated/leaf.key.pem`), which signs every generated token.
    public static let leafKey: TestPrivateKey = {
        let pem = String(decoding: data("generated/leaf.key.pem"), as: UTF8.self)
        guard let key = try? TestPrivateKey(pem: pem) else { fatalError("generated/leaf.key.pem is not a key") }
        return key
    }()

    /// The generated tokens, by id (`transaction-valid`, ...), from `generated/manifest.json`.
    public static let generatedTokens: [(id: String, kind: String, token: String)] = {
        guard
            let manifest = try? JSONSerialization.jsonObject(with: data("generated/manifest.json")) as? [String: Any],
            let cases = manifest["cases"] as? [[String: Any]]
        else { fatalError("generated/manifest.json does not parse") }
        return cases.compactMap { entry in
            guard let id = entry["id"] as? String, let kind = entry["kind"] as? String,
                let file = entry["file"] as? String
            else { return nil }
            let token = String(decoding: data("generated/" + file), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            return (id, kind, token)
        }
    }()
}
