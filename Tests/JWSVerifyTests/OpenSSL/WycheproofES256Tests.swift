import Foundation
import Testing

@testable import JWSVerify

/// Every case of Wycheproof's `ecdsa_secp256r1_sha256_p1363_test.json` (raw R‖S signatures, the JWS
/// ES256 format) through `PublicKey.isValidES256Signature`, the function the verifier calls.
@Suite("Wycheproof ECDSA P-256 SHA-256 (P1363)")
struct WycheproofES256Tests {
    typealias Case = WycheproofECDSACase

    static let cases = WycheproofECDSACase.load("wycheproof/ecdsa_secp256r1_sha256_p1363_test.json")

    /// The file holds 262 cases; all of them must be loaded, none silently dropped.
    @Test("all 262 cases are loaded")
    func allCasesLoaded() {
        #expect(Self.cases.count == 262)
        #expect(Self.cases.filter(\.valid).count == 173)
    }

    /// Input: one Wycheproof case. Expected: `valid` cases verify, `invalid` ones do not.
    @Test("each case gives its expected result", arguments: cases)
    func verifiesCase(_ testCase: Case) throws {
        let key = try #require(PublicKey(subjectPublicKeyInfo: testCase.publicKeyDER), "tcId \(testCase.id): key")
        #expect(key.curve == .p256, "tcId \(testCase.id)")
        let result = key.isValidES256Signature(testCase.signature, for: testCase.message)
        #expect(
            result == testCase.valid,
            "tcId \(testCase.id) (\(testCase.comment)): expected \(testCase.valid ? "valid" : "invalid")")
    }

    /// Input: one Wycheproof case, verified by a key that has its fixed-base table (the path a hot key
    /// takes after `PublicKey.fixedBaseThreshold` verifications: u1·G + u2·Q from two tables, in
    /// `ec_key.c`). Expected: the same result as the case says (its arithmetic edge cases: r or s
    /// 0, n or above, u1·G + u2·Q at infinity, x(R) ≥ n, …).
    @Test("each case gives its expected result with the key's fixed-base table", arguments: cases)
    func verifiesCaseWithTable(_ testCase: Case) throws {
        let key = try #require(PublicKey(subjectPublicKeyInfo: testCase.publicKeyDER), "tcId \(testCase.id): key")
        #expect(!key.hasFixedBaseTable)
        #expect(key.prepareFixedBaseTable(), "tcId \(testCase.id): the table could not be built")
        #expect(key.hasFixedBaseTable)
        let result = key.isValidES256Signature(testCase.signature, for: testCase.message)
        #expect(
            result == testCase.valid,
            "tcId \(testCase.id) (\(testCase.comment)): expected \(testCase.valid ? "valid" : "invalid")")
        // The table path's own s^-1 mod n (checked with BN_mod_mul) never had to fall back.
        #expect(PublicKey.inverseFallbacks == 0)
    }
}

func hexBytes(_ hex: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var iterator = hex.utf8.makeIterator()
    while let high = iterator.next(), let low = iterator.next() {
        guard let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) else { return [] }
        bytes.append(value)
    }
    return bytes
}

/// One case of a Wycheproof ECDSA verification file (`ecdsa_verify_schema_v1` or its P1363 variant):
/// the group's public key, the message, the signature and whether it must verify.
struct WycheproofECDSACase: Sendable, CustomTestStringConvertible {
    let id: Int
    let comment: String
    let publicKeyDER: [UInt8]
    let message: [UInt8]
    let signature: [UInt8]
    let valid: Bool
    var testDescription: String { "tcId \(id) \(comment)" }

    /// Every case of the file at `relativePath` under TestVectors; empty when it cannot be read (the
    /// suites' count tests then fail).
    static func load(_ relativePath: String) -> [WycheproofECDSACase] {
        guard let data = try? TestVectorFiles.data(relativePath),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let groups = root["testGroups"] as? [[String: Any]]
        else { return [] }
        var cases: [WycheproofECDSACase] = []
        for group in groups {
            let key = hexBytes(group["publicKeyDer"] as? String ?? "")
            for test in group["tests"] as? [[String: Any]] ?? [] {
                cases.append(
                    WycheproofECDSACase(
                        id: test["tcId"] as? Int ?? -1, comment: test["comment"] as? String ?? "",
                        publicKeyDER: key, message: hexBytes(test["msg"] as? String ?? ""),
                        signature: hexBytes(test["sig"] as? String ?? ""),
                        valid: (test["result"] as? String) == "valid"))
            }
        }
        return cases
    }
}
