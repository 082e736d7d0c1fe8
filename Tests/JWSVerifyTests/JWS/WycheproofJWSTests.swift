import Foundation
import Testing

@testable import JWSVerify

/// The cases of Wycheproof's `json_web_signature_test.json` that apply to a compact ES256 verifier:
/// groups `es256` and `SpecialCaseEs256` (ES256 tokens, verified with the group's public key) and
/// `base64` (strict base64url segment decoding). Groups about HMAC, RSA, P-521, JWK `use`/`key_ops`
/// and the JSON serialization do not apply: App Store tokens are compact ES256 and the key comes
/// from a certificate, never from a JWK.
@Suite("Wycheproof JSON Web Signature (ES256 and base64url)")
struct WycheproofJWSTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let id: Int
        let group: String
        let comment: String
        let token: String
        let valid: Bool
        let point: [UInt8]
        var testDescription: String { "tcId \(id) \(group)/\(comment)" }
    }

    static let cases: [Case] = {
        guard let data = try? TestVectorFiles.data("wycheproof/json_web_signature_test.json"),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let groups = root["testGroups"] as? [[String: Any]]
        else { return [] }
        var cases: [Case] = []
        for group in groups {
            let name = group["comment"] as? String ?? ""
            guard ["es256", "SpecialCaseEs256", "base64"].contains(name) else { continue }
            var point: [UInt8] = []
            if let jwk = group["public"] as? [String: Any], let x = jwk["x"] as? String, let y = jwk["y"] as? String {
                point = [0x04] + (Base64.decodeURL(x) ?? []) + (Base64.decodeURL(y) ?? [])
            }
            for test in group["tests"] as? [[String: Any]] ?? [] {
                guard let token = test["jws"] as? String else { continue }
                cases.append(
                    Case(
                        id: test["tcId"] as? Int ?? -1, group: name, comment: test["comment"] as? String ?? "",
                        token: token, valid: (test["result"] as? String) == "valid", point: point))
            }
        }
        return cases
    }()

    /// 15 + 24 ES256 cases and 21 base64url cases.
    @Test("the applicable groups are loaded")
    func casesLoaded() {
        #expect(Self.cases.filter { $0.group != "base64" }.count == 39)
        #expect(Self.cases.filter { $0.group == "base64" }.count == 21)
    }

    /// Input: an ES256 case. Expected: valid cases parse, have alg ES256 and verify with the group key;
    /// invalid ones fail one of those steps.
    @Test("ES256 cases give their expected result", arguments: cases.filter { $0.group != "base64" })
    func es256Case(_ testCase: Case) throws {
        let key = try #require(PublicKey(p256UncompressedPoint: testCase.point), "tcId \(testCase.id): key")
        var accepted = false
        if let jws = try? CompactJWS.split(Array(testCase.token.utf8), maximumBytes: 65536, requireJSONPayload: false),
            jws.header.alg == "ES256", jws.header.crit == nil
        {
            accepted = key.isValidES256Signature(jws.signature, for: jws.signingInput)
        }
        #expect(accepted == testCase.valid, "tcId \(testCase.id) \(testCase.comment)")
    }

    /// Wycheproof marks 372 and 373 valid: they insert `?` into a segment, which lenient decoders skip.
    /// Strict base64url (RFC 7515 §2) rejects them, as it must: one token, one byte form.
    static let strictlyRejected: Set<Int> = [372, 373]

    /// Wycheproof marks 367 (`invalidBase64Padding`) and 370 (`invalidBase64PaddingInPayload`) invalid,
    /// but their tokens are byte-identical to the valid 357 in this version of the file: the padding they
    /// meant to add is not there. They are strict base64url and parse; the padding rule itself is tested
    /// in `Base64Tests` and `Check01FormatTests`.
    static let identicalToValid357: Set<Int> = [367, 370]

    /// Input: a base64url edge case. Expected: segments that are strict base64url parse, all others
    /// fail with `malformedToken`.
    @Test("base64url cases are decoded strictly", arguments: cases.filter { $0.group == "base64" })
    func base64Case(_ testCase: Case) {
        let result = Result { () throws(VerificationError) in
            try CompactJWS.split(Array(testCase.token.utf8), maximumBytes: 65536, requireJSONPayload: false)
        }
        if Self.identicalToValid357.contains(testCase.id) {
            #expect(testCase.token == Self.cases.first { $0.id == 357 }?.token, "tcId \(testCase.id) changed upstream")
        }
        let shouldParse =
            (testCase.valid && !Self.strictlyRejected.contains(testCase.id))
            || Self.identicalToValid357.contains(testCase.id)
        switch result {
        case .success: #expect(shouldParse, "tcId \(testCase.id) \(testCase.comment) parsed but should not")
        case .failure(let error):
            #expect(!shouldParse, "tcId \(testCase.id) \(testCase.comment): \(error)")
            #expect(error.code == .malformedToken, "tcId \(testCase.id)")
            #expect(error.check == .format, "tcId \(testCase.id)")
        }
    }
}
