import Foundation
import Testing

/// What the signing tests share: the repository's test key, a scratch directory, and the outside tools that judge
/// the signatures (the `openssl` command, and Apple's Python library with `cryptography` in the virtual environment
/// of `Scripts/apple-python-venv.sh`).
enum SigningFixtures {
    /// The repository's root: the nearest folder above this file that holds `Package.swift`.
    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while url.path != "/"
            && !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path)
        {
            url.deleteLastPathComponent()
        }
        return url
    }()

    /// Apple's stand-in In-App Purchase key (TestVectors/README.md).
    static let appleKeyPath = root.appendingPathComponent("TestVectors/apple-library/certs/testSigningKey.p8").path

    /// Its PEM text.
    static func appleKeyPEM() throws -> String { try String(contentsOfFile: appleKeyPath, encoding: .utf8) }

    /// Runs a command with `input` on its standard input: status, standard output, standard error.
    @discardableResult
    static func run(
        _ executable: String, _ arguments: [String], input: Data? = nil
    ) throws -> (
        status: Int32, out: Data, err: String
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        let stdin = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = stdin
        signal(SIGPIPE, SIG_IGN)
        try process.run()
        if let input { try? stdin.fileHandleForWriting.write(contentsOf: input) }
        try? stdin.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, out, String(decoding: err, as: UTF8.self))
    }

    /// Runs `openssl` with `arguments`; records an issue when it fails.
    @discardableResult
    static func openssl(_ arguments: [String], input: Data? = nil) throws -> Data {
        let result = try run("/usr/bin/env", ["openssl"] + arguments, input: input)
        #expect(result.status == 0, "openssl \(arguments.joined(separator: " ")): \(result.err)")
        return result.out
    }

    /// The Python interpreter of Apple's library (created on first use), or nil after printing why the test skips.
    static func applePython(_ test: String) throws -> String? {
        let setup = try run("/bin/bash", [root.appendingPathComponent("Scripts/apple-python-venv.sh").path])
        guard setup.status == 0 else {
            print("SKIPPED \(test): \(setup.err.trimmingCharacters(in: .whitespacesAndNewlines))")
            return nil
        }
        return String(decoding: setup.out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs a Python script with a JSON document on its standard input; returns the JSON object it prints.
    static func python(_ python: String, _ script: String, input: [String: Any]) throws -> [String: Any] {
        let data = try JSONSerialization.data(withJSONObject: input)
        let result = try run(python, ["-c", script], input: data)
        #expect(result.status == 0, "python: \(result.err)")
        return (try? JSONSerialization.jsonObject(with: result.out)) as? [String: Any] ?? [:]
    }
}

/// A scratch directory, removed when released.
final class ScratchDirectory: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("jwssigning-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of `name` in the directory.
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `data` to `name`; returns its path.
    @discardableResult
    func write(_ data: Data, to name: String) throws -> String {
        try data.write(to: url.appendingPathComponent(name))
        return path(name)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// A compact JWS split into its parts, decoded independently of the library.
struct DecodedJWS {
    let header: [String: Any]
    let claims: [String: Any]
    let signingInput: Data
    let signature: Data

    init(_ token: String) throws {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        try #require(parts.count == 3)
        func decode(_ text: String) throws -> Data {
            var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while base64.count % 4 != 0 { base64 += "=" }
            return try #require(Data(base64Encoded: base64))
        }
        header = try #require(try JSONSerialization.jsonObject(with: decode(parts[0])) as? [String: Any])
        claims = try #require(try JSONSerialization.jsonObject(with: decode(parts[1])) as? [String: Any])
        signingInput = Data((parts[0] + "." + parts[1]).utf8)
        signature = try decode(parts[2])
    }

    /// The claims without the two that differ from one signature to the next.
    var claimsWithoutNonceAndTime: NSDictionary {
        var copy = claims
        copy["nonce"] = nil
        copy["iat"] = nil
        return copy as NSDictionary
    }
}

/// The DER ECDSA-Sig-Value of a raw r‖s signature, written here (not by the library) so that `openssl dgst` can
/// judge raw signatures.
func derFromRaw(_ raw: Data) -> Data {
    func integer(_ bytes: Data) -> [UInt8] {
        var value = Array(bytes.drop { $0 == 0 })
        if value.isEmpty { value = [0] }
        if value[0] & 0x80 != 0 { value.insert(0, at: 0) }
        return [0x02, UInt8(value.count)] + value
    }
    let body = integer(raw.prefix(raw.count / 2)) + integer(raw.suffix(raw.count / 2))
    return Data([0x30, UInt8(body.count)] + body)
}

/// Verifies a DER signature of `message` with `openssl dgst -sha256 -verify` and the public key PEM at `publicKey`.
func opensslVerifies(
    _ derSignature: Data, _ message: Data, publicKey: String, in directory: ScratchDirectory
) throws
    -> Bool
{
    let name = UUID().uuidString
    let signature = try directory.write(derSignature, to: name + ".sig")
    let file = try directory.write(message, to: name + ".msg")
    let result = try SigningFixtures.run(
        "/usr/bin/env", ["openssl", "dgst", "-sha256", "-verify", publicKey, "-signature", signature, file])
    return result.status == 0 && String(decoding: result.out, as: UTF8.self).contains("Verified OK")
}
