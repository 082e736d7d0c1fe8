import Foundation
import Testing

@testable import JWSVerify

/// Every case of Wycheproof's `ecdsa_secp384r1_sha384_test.json` (DER signatures, the format of an
/// X.509 certificate's signature) through `PublicKey.isValidECDSASignature(_:overDigest:)`, the check
/// of a new leaf's signature under a known intermediate: once with OpenSSL's verification and once
/// with the key's fixed-base table (`ec_key.c`, the path a hot intermediate takes).
@Suite("Wycheproof ECDSA P-384 SHA-384 (DER)")
struct WycheproofP384Tests {
    typealias Case = WycheproofECDSACase

    static let cases = WycheproofECDSACase.load("wycheproof/ecdsa_secp384r1_sha384_test.json")

    /// The file holds 504 cases; all of them must be loaded, none silently dropped.
    @Test("all 504 cases are loaded")
    func allCasesLoaded() {
        #expect(Self.cases.count == 504)
        #expect(Self.cases.filter(\.valid).count == 194)
    }

    /// Input: one case, with OpenSSL's verification and then with the key's table. Expected: the
    /// result the case names, both times (BER and other non-DER encodings, r or s out of range,
    /// u1·G + u2·Q at infinity, x(R) ≥ n, …).
    @Test("each case gives its expected result, with and without the key's table", arguments: cases)
    func verifiesCase(_ testCase: Case) throws {
        let key = try #require(PublicKey(subjectPublicKeyInfo: testCase.publicKeyDER), "tcId \(testCase.id): key")
        #expect(key.curve == .p384, "tcId \(testCase.id)")
        let digest = SHA384.hash(testCase.message)
        let expected = testCase.valid ? "valid" : "invalid"
        #expect(!key.hasFixedBaseTable)
        #expect(
            key.isValidECDSASignature(testCase.signature, overDigest: digest) == testCase.valid,
            "tcId \(testCase.id) (\(testCase.comment)), OpenSSL's path: expected \(expected)")
        #expect(key.prepareFixedBaseTable(), "tcId \(testCase.id): the table could not be built")
        #expect(key.hasFixedBaseTable)
        #expect(
            key.isValidECDSASignature(testCase.signature, overDigest: digest) == testCase.valid,
            "tcId \(testCase.id) (\(testCase.comment)), fixed-base table: expected \(expected)")
        // The table path's own s^-1 mod n (checked with BN_mod_mul) never had to fall back.
        #expect(PublicKey.inverseFallbacks == 0)
    }
}
