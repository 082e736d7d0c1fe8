import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// Receipt check 2, algorithms (Docs/ErrorCodes.md, "App receipts"): SHA-1 or SHA-256 with RSA; else
/// `unsupportedAlgorithm`.
///
/// The SignedData's `digestAlgorithms` set: a receipt whose SignerInfo and RSA
/// signature are valid but whose set does not give OpenSSL's `CMS_verify` the signer's digest (an unknown OID
/// beside SHA-256, an empty set, only an unknown OID, a set without SHA-256) is refused by `CMS_verify`; JWSVerify
/// refuses it at check 2 with `unsupportedAlgorithm`, a message naming the set and OpenSSL's reason in
/// `underlying`, warm (after a good receipt of the same chain verified) as cold.
@Suite("Receipt check 2, algorithms: unsupportedAlgorithm")
struct ReceiptCheck02AlgorithmsTests {
    /// Input: each crafted receipt of this check (``CraftedReceipts``, ids starting `algorithm-`). Expected: the
    /// catalog's code, check and failed step, warm as cold (``ReceiptContractTests/expectVerdict(_:)``).
    @Test(
        "each crafted receipt of this check gets its code, check and step, warm as cold",
        arguments: CraftedReceipts.ids(check: .algorithm))
    func verdict(_ id: String) throws {
        try ReceiptContractTests.expectVerdict(id)
    }

    typealias Fixture = ReceiptFixture

    /// A digest OID no one knows (the OID arc of ISO's examples).
    static let unknownDigestOID = "1.2.3.4.5"

    /// One crafted `digestAlgorithms` set and what OpenSSL says about it.
    struct Case: Sendable, CustomTestStringConvertible {
        let label: String
        let oids: [String]
        /// Text OpenSSL's reason (or, for the empty set, on which it queues none, the note saying so) contains.
        let reason: String
        var testDescription: String { label }
    }

    static let cases: [Case] = [
        Case(
            label: "an unknown OID beside SHA-256", oids: [ReceiptDigest.sha256.oid, unknownDigestOID],
            reason: "unknown digest algorithm"),
        Case(label: "an empty set", oids: [], reason: "CMS_dataInit"),
        Case(label: "only an unknown OID", oids: [unknownDigestOID], reason: "unknown digest algorithm"),
        Case(label: "only SHA-1 under a SHA-256 signer", oids: [ReceiptDigest.sha1.oid], reason: "no matching digest"),
    ]

    static func receipt(_ oids: [String]) throws -> [UInt8] {
        try ReceiptSigner(hierarchy: Fixture.get().pki).sign(
            content: Fixture.content(), options: .init(digestAlgorithmOIDs: oids))
    }

    /// Input: the fixture's good receipt with its `digestAlgorithms` set replaced, judged by a warm verifier (primed
    /// with a good receipt of the same chain) and a cold one. Expected: both `unsupportedAlgorithm` at check
    /// `header`, step `algorithm`; the message names the digestAlgorithms set; `underlying` holds OpenSSL's reason;
    /// no cache hit; OpenSSL's own `CMS_verify` refuses the receipt with the same reason.
    @Test("a digestAlgorithms set CMS_verify cannot use fails check 2, warm as cold", arguments: cases)
    func unusableDigestSet(_ testCase: Case) throws {
        let fixture = try Fixture.get()
        let pair = try ReceiptOneVerdictTests.Pair()
        ReceiptOneVerdictTests.primed(pair, try fixture.good())
        let receipt = try Self.receipt(testCase.oids)
        let verdict = pair.judge(receipt, expect: .unsupportedAlgorithm, testCase.label)
        #expect(verdict.hits == 0 && verdict.entries == 0, "\(testCase.label)")
        for verifier in [pair.warm, pair.cold] {
            let error = try #require(verifier.verifyAndDecodeAppReceipt(Data(receipt)).error)
            #expect(error.code == .unsupportedAlgorithm)
            #expect(error.check == .header)
            #expect(error.step == .algorithm)
            #expect(error.message.contains("digestAlgorithms set"), "\(error.message)")
            let underlying = try #require(error.underlying, "\(testCase.label): no underlying reason")
            #expect(underlying.contains(testCase.reason), "\(testCase.label): \(underlying)")
        }
        let oracle = try ReceiptReference.verify(
            receipt, roots: [fixture.pki.rootDER], at: Fixture.created, purpose: .any)
        #expect(!oracle.verified, "\(testCase.label): OpenSSL verified")
        if testCase.oids.isEmpty {
            #expect(oracle.openSSLErrorCode == 0, "OpenSSL gave a reason for the empty set: \(oracle.reason)")
        } else {
            #expect(oracle.reason.contains(testCase.reason), "\(testCase.label): \(oracle.reason)")
        }
    }

    /// Input: the fixture's good receipt rewritten with the set `{SHA-256}` (no parameters, as OpenSSL writes it)
    /// and `{SHA-256, SHA-512}`. Expected: verified warm and cold, as by OpenSSL: the knob changes only the set,
    /// and a set that lists the signer's digest beside other digests OpenSSL knows is usable.
    @Test("a digestAlgorithms set with the signer's digest verifies")
    func usableDigestSet() throws {
        let fixture = try Fixture.get()
        for oids in [[ReceiptDigest.sha256.oid], [ReceiptDigest.sha256.oid, ReceiptDigest.sha512.oid]] {
            let pair = try ReceiptOneVerdictTests.Pair()
            let receipt = try Self.receipt(oids)
            pair.judge(receipt, expect: nil, "\(oids) first")
            pair.judge(receipt, expect: nil, "\(oids) again")
            let oracle = try ReceiptReference.verify(
                receipt, roots: [fixture.pki.rootDER], at: Fixture.created, purpose: .any)
            #expect(oracle.verified, "\(oids): \(oracle.reason)")
        }
    }

    /// Input: the good receipt with a byte of its signature changed, and with a byte of its content changed, cold
    /// and warm. Expected: `invalidSignature` at check 8 with OpenSSL's reason from `CMS_verify` in `underlying`.
    @Test("a signature CMS_verify refuses keeps OpenSSL's reason")
    func signatureRefusalKeepsReason() throws {
        let fixture = try Fixture.get()
        let pair = try ReceiptOneVerdictTests.Pair()
        let good = try fixture.good()
        ReceiptOneVerdictTests.primed(pair, good)
        for (label, receipt) in [
            ("signature", try ReceiptSurgery.flipSignature(good)), ("content", try ReceiptSurgery.alterContent(good)),
        ] {
            pair.judge(receipt, expect: .invalidSignature, label)
            for verifier in [pair.warm, pair.cold] {
                let error = try #require(verifier.verifyAndDecodeAppReceipt(Data(receipt)).error)
                #expect(error.check == .signature && error.step == .signature, "\(label)")
                let underlying = try #require(error.underlying, "\(label): no underlying reason")
                #expect(underlying.contains("CMS routines"), "\(label): \(underlying)")
            }
        }
    }
}
