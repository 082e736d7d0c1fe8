import Foundation

@testable import JWSVerify

/// Apple's library test configuration: roots [testCA.der], bundle com.example, app Apple id 1234.
enum AppleTestData {
    static func token(_ name: String) throws -> String {
        String(decoding: try TestVectorFiles.data("apple-library/mock_signed_data/\(name)"), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static var testCA: Data {
        get throws { try TestVectorFiles.data("apple-library/certs/testCA.der") }
    }

    static func verifier(
        environment: AppStoreEnvironment? = .sandbox, bundleId: String? = "com.example", appAppleId: Int64? = 1234,
        cacheCapacity: Int = 64
    ) throws -> SignedDataVerifier {
        try SignedDataVerifier(
            rootCertificates: [try testCA], bundleId: bundleId, appAppleId: appAppleId, environment: environment,
            chainCacheCapacity: cacheCapacity)
    }
}

/// Rebuilds a compact token from parts, for tests that alter one part.
struct TokenParts {
    var header: [String: Any]
    var payload: [String: Any]
    var signature: [UInt8]

    init(_ token: String) throws {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let header = Base64.decodeURL(parts[0]), let payload = Base64.decodeURL(parts[1]),
            let signature = Base64.decodeURL(parts[2])
        else { throw CocoaError(.coderInvalidValue) }
        self.header = try JSONSerialization.jsonObject(with: Data(header)) as? [String: Any] ?? [:]
        self.payload = try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any] ?? [:]
        self.signature = signature
    }

    static func segment(_ object: Any) throws -> String {
        Base64.encodeURL(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
    }

    func token() throws -> String {
        try Self.segment(header) + "." + Self.segment(payload) + "." + Base64.encodeURL(signature)
    }
}

/// Raw R‖S (64 bytes) to DER, for the test that hands a DER signature to an ES256 verifier.
func derSignature(_ raw: [UInt8]) -> [UInt8] {
    func integer(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var value = Array(bytes.drop { $0 == 0 })
        if value.isEmpty { value = [0] }
        if value[0] & 0x80 != 0 { value.insert(0, at: 0) }
        return [0x02, UInt8(value.count)] + value
    }
    let body = integer(raw[0..<32]) + integer(raw[32..<64])
    return [0x30, UInt8(body.count)] + body
}

extension VerificationResult {
    /// The verified value, or nil for a failure.
    var verified: Verified<Payload>? {
        if case .verified(let verified) = self { return verified }
        return nil
    }
}
