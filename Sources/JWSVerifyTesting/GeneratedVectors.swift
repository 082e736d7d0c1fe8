import Foundation
import JWSVerify

/// Writes JWSVerify's generated test vectors: a fixed test hierarchy, one token file per case and
/// `manifest.json`, which says for each case what a verifier must answer.
///
/// Every case uses the manifest's default configuration unless it says otherwise: trusted roots
/// `[root.der]`, bundleId `com.example.jwsverify`, appAppleId 1234, environment `Sandbox`, and
/// the validation time is the payload's `signedDate` (`receiptCreationDate` for app
/// transactions). Certificates are valid from 2025-01-01 to 2035-01-01 unless a case needs
/// otherwise; every `signedDate` is 2026-03-15T12:00:00Z.
///
/// Output is deterministic for a seed except ECDSA signatures (certificate signatures and token
/// signatures), which OpenSSL 3.0 randomizes.
public enum GeneratedVectors {
    /// The seed used for the vectors checked into `TestVectors/generated`.
    public static let defaultSeed: UInt64 = 20_260_315
    /// The manifest's file name.
    public static let manifestFileName = "manifest.json"
    /// File names of the unrelated root written next to the hierarchy (for `roots` overrides).
    public static let otherRootDER = "other-root.der"
    /// PEM form of ``otherRootDER``.
    public static let otherRootPEM = "other-root.pem"
    /// The default configuration's bundle identifier.
    public static let bundleId = "com.example.jwsverify"
    /// The default configuration's app Apple ID.
    public static let appAppleId: Int64 = 1234
    /// The default configuration's environment.
    public static let environment = "Sandbox"
    /// `signedDate` of every token: 2026-03-15T12:00:00Z.
    public static let signedDate = Date(timeIntervalSince1970: 1_773_576_000)

    /// What a verifier must answer for a case.
    public struct Expected: Sendable, Hashable {
        /// `true` for "valid".
        public var valid: Bool
        /// The error code for an invalid token (for example `invalidSignature`), nil when valid.
        public var code: String?
        /// The verification step that fails (`header`, `signature`, `chain`, `claims`, `payload`),
        /// nil when valid.
        public var check: String?

        /// A valid token.
        public static let valid = Expected(valid: true, code: nil, check: nil)

        /// An invalid token failing `check` with `code`.
        public static func invalid(_ code: String, _ check: String) -> Expected {
            Expected(valid: false, code: code, check: check)
        }
    }

    /// One test vector.
    public struct Case: Sendable, Hashable {
        /// Stable identifier; the token file is `<id>.jws`.
        public var id: String
        /// What the case is about.
        public var comment: String
        /// How the token must be verified.
        public var kind: TestPayloadKind
        /// Members of the configuration that differ from the default (`bundleId`, `appAppleId`,
        /// `environment`, `roots`).
        public var configuration: [String: JSONValue]
        /// The expected answer.
        public var expected: Expected
        /// The compact JWS.
        public var token: String

        /// The token file name.
        public var file: String { id + ".jws" }
    }

    /// Writes the hierarchy (root.der, intermediate.der, leaf.der, their PEMs, the three key PEMs
    /// with mode 0600), other-root.der/pem, one `<id>.jws` per case and `manifest.json` into
    /// `directory`, creating it when missing.
    public static func write(to directory: URL, seed: UInt64) throws {
        let pki = try TestHierarchy.generate(.appStoreEC, seed: seed)
        var otherSeed = SeededGenerator(seed: seed, label: "other-pki")
        let other = try TestHierarchy.generate(.appStoreEC, seed: otherSeed.next())
        let cases = try makeCases(pki: pki, other: other, seed: seed)

        try pki.write(to: directory)
        try FileOutput.write(other.root.der, to: directory.appendingPathComponent(otherRootDER))
        try FileOutput.write(other.root.pem, to: directory.appendingPathComponent(otherRootPEM))
        for vector in cases {
            try FileOutput.write(vector.token, to: directory.appendingPathComponent(vector.file))
        }
        try FileOutput.write(manifest(cases), to: directory.appendingPathComponent(manifestFileName))
    }

    /// The manifest for `cases`, members in a fixed order for people reading it, written by the library's writer.
    static func manifest(_ cases: [Case]) throws -> String {
        var writer = JSONWriter(style: .indented)
        func member(_ key: String, _ value: JSONValue) {
            writer.key(key)
            writer.value(value)
        }
        writer.beginObject()
        writer.key("configuration")
        writer.beginObject()
        member("roots", .array([.string(TestHierarchy.FileName.rootDER)]))
        member("bundleId", .string(bundleId))
        member("appAppleId", .integer(appAppleId))
        member("environment", .string(environment))
        writer.endObject()
        writer.key("cases")
        writer.beginArray()
        for vector in cases {
            writer.beginObject()
            member("id", .string(vector.id))
            member("comment", .string(vector.comment))
            member("file", .string(vector.file))
            member("kind", .string(vector.kind.rawValue))
            if !vector.configuration.isEmpty {
                let order = ["roots", "bundleId", "appAppleId", "environment"]
                let keys = vector.configuration.keys.sorted {
                    (order.firstIndex(of: $0) ?? order.count, $0) < (order.firstIndex(of: $1) ?? order.count, $1)
                }
                writer.key("configuration")
                writer.beginObject()
                for key in keys { if let value = vector.configuration[key] { member(key, value) } }
                writer.endObject()
            }
            writer.key("expected")
            writer.beginObject()
            member("result", .string(vector.expected.valid ? "valid" : "invalid"))
            member("code", vector.expected.code.map(JSONValue.string) ?? .null)
            member("check", vector.expected.check.map(JSONValue.string) ?? .null)
            writer.endObject()
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        return writer.text
    }
}
