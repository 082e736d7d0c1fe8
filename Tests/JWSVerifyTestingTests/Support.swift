import Foundation
import JWSVerifyTesting

/// Helpers for tests that check minted material with independent tools: the `openssl` command
/// and Python's `cryptography` package. A test whose tool is missing prints why and returns.
enum Tools {
    /// The result of running a command.
    struct Output {
        var status: Int32
        var text: String
    }

    /// Path of the openssl command-line tool, or nil.
    static let openssl: String? = {
        let candidates = ["/usr/bin/openssl", "/usr/local/bin/openssl", "/opt/homebrew/bin/openssl"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Path of a python3 with the `cryptography` package (first on PATH, then the usual places), or nil.
    static let pythonWithCryptography: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let directories =
            path.split(separator: ":").map(String.init) + ["/usr/local/bin", "/usr/bin", "/opt/homebrew/bin"]
        for directory in directories {
            let candidate = directory + "/python3"
            guard FileManager.default.isExecutableFile(atPath: candidate) else { continue }
            if let output = try? run(candidate, ["-c", "import cryptography"]), output.status == 0 {
                return candidate
            }
        }
        return nil
    }()

    /// The openssl path, or nil after printing why the calling test is skipped.
    static func requireOpenSSL(_ test: String) -> String? {
        if openssl == nil {
            print(
                "SKIPPED \(test): the openssl command-line tool was not found in /usr/bin, /usr/local/bin or /opt/homebrew/bin"
            )
        }
        return openssl
    }

    /// The python3 path, or nil after printing why the calling test is skipped.
    static func requirePython(_ test: String) -> String? {
        if pythonWithCryptography == nil {
            print("SKIPPED \(test): no python3 with the cryptography package was found")
        }
        return pythonWithCryptography
    }

    /// Runs `executable` with `arguments`; standard output and error are merged.
    static func run(_ executable: String, _ arguments: [String], in directory: URL? = nil) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, text: String(decoding: data, as: UTF8.self))
    }

    /// Runs a Python script (given as text) with `arguments`.
    static func python(_ python: String, script: String, _ arguments: [String]) throws -> Output {
        try run(python, ["-c", script] + arguments)
    }
}

/// A fresh temporary directory, removed when the value is released.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("jwsverify-testing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

/// DER encoding of a raw R‖S ECDSA signature (ECDSA-Sig-Value), written independently of the
/// library so that openssl can check the library's raw signatures.
func derSignature(raw: Data) -> Data {
    func integer(_ bytes: Data) -> [UInt8] {
        var value = Array(bytes.drop { $0 == 0 })
        if value.isEmpty { value = [0] }
        if value[0] & 0x80 != 0 { value.insert(0, at: 0) }
        return [0x02] + length(value.count) + value
    }
    func length(_ count: Int) -> [UInt8] {
        count < 0x80 ? [UInt8(count)] : [0x81, UInt8(count)]
    }
    let half = raw.count / 2
    let body = integer(raw.prefix(half)) + integer(raw.suffix(half))
    return Data([0x30] + length(body.count) + body)
}

/// Decodes base64url without padding.
func base64URLDecode(_ text: Substring) -> Data? {
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while base64.count % 4 != 0 { base64 += "=" }
    return Data(base64Encoded: base64)
}

/// A Python helper shared by the token tests: ES256 verification of a compact JWS with the key
/// of its own x5c[0], using only the `cryptography` package.
let pythonJWSHelpers = #"""
    import base64, json, sys
    from cryptography import x509
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec, utils

    def b64u_decode(text):
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))

    def b64u_encode(data):
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

    def verify_raw_es256(public_key, signature, message):
        if not isinstance(public_key, ec.EllipticCurvePublicKey) or public_key.curve.name != "secp256r1":
            return False
        if len(signature) != 64:
            return False
        der = utils.encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
        try:
            public_key.verify(der, message, ec.ECDSA(hashes.SHA256()))
            return True
        except InvalidSignature:
            return False

    def verifies(header, payload, signature):
        """True when the header is JSON with alg ES256 and the signature verifies with x5c[0]'s key."""
        try:
            parsed = json.loads(header)
            certificate = x509.load_der_x509_certificate(base64.b64decode(parsed["x5c"][0], validate=True))
            public_key = certificate.public_key()
        except Exception:
            return False
        if parsed.get("alg") != "ES256":
            return False
        message = (b64u_encode(header) + "." + b64u_encode(payload)).encode()
        return verify_raw_es256(public_key, signature, message)

    """#
