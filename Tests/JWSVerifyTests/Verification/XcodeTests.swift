import Foundation
import Testing

@testable import JWSVerify

/// StoreKit Testing in Xcode tokens (environment Xcode, kid Apple_Xcode_Key, one self-signed
/// certificate in x5c) verify only against the pinned certificate that Xcode exports.
@Suite("Xcode StoreKit Testing tokens")
struct XcodeTests {
    static let bundleId = "com.example.naturelab.backyardbirds.example"

    static func token(_ name: String) throws -> String {
        String(decoding: try TestVectorFiles.data("apple-library/xcode/xcode-signed-\(name)"), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func verifier(certificate: Data, bundleId: String? = bundleId) throws -> SignedDataVerifier {
        try SignedDataVerifier(bundleId: bundleId, environment: .xcode, xcodeCertificate: certificate)
    }

    static var pinned: Data {
        get throws { try TestVectorFiles.data("apple-library/xcode/StoreKitTestCertificate.cer") }
    }

    /// The pinned file is the certificate inside each of the three tokens.
    @Test(
        "the exported certificate is the one in every token",
        arguments: ["transaction", "renewal-info", "app-transaction"])
    func pinnedIsTokenCertificate(_ name: String) throws {
        let header = try TokenParts(Self.token(name)).header
        let x5c = try #require(header["x5c"] as? [String])
        #expect(x5c.count == 1)
        #expect(header["kid"] as? String == "Apple_Xcode_Key")
        #expect(Data(try #require(Base64.decodeStandard(x5c[0]))) == (try Self.pinned))
    }

    @Test("the transaction verifies with the pinned certificate, fractional dates intact")
    func transactionVerifies() throws {
        let payload = try Self.verifier(certificate: try Self.pinned).verifyAndDecodeTransaction(
            try Self.token("transaction")
        ).get()
        #expect(payload.environment == .xcode)
        #expect(payload.bundleId == Self.bundleId)
        #expect(payload.purchaseDateTimestamp?.millisecondsSince1970 == 1_697_679_936_049.7297)
        #expect(payload.signedDateTimestamp?.millisecondsSince1970 == 1_697_679_936_056.485)
        #expect(payload.productId == "pass.premium")
    }

    @Test("the renewal info verifies with the pinned certificate")
    func renewalVerifies() throws {
        let payload = try Self.verifier(certificate: try Self.pinned).verifyAndDecodeRenewalInfo(
            try Self.token("renewal-info")
        ).get()
        #expect(payload.environment == .xcode)
        #expect(payload.renewalDateTimestamp?.millisecondsSince1970 == 1_700_358_336_049.7297)
    }

    /// Its originalPurchaseDate is -62135769600000 (year 1): negative dates decode.
    @Test("the app transaction verifies with the pinned certificate (PEM too)")
    func appTransactionVerifies() throws {
        let pem = try TestVectorFiles.data("apple-library/xcode/StoreKitTestCertificate.pem")
        let payload = try Self.verifier(certificate: pem).verifyAndDecodeAppTransaction(
            try Self.token("app-transaction")
        ).get()
        #expect(payload.receiptType == .xcode)
        #expect(payload.originalPurchaseDateTimestamp?.millisecondsSince1970 == -62_135_769_600_000)
        #expect(payload.receiptCreationDateTimestamp?.millisecondsSince1970 == 1_697_680_122_257.447)
    }

    /// Pinned to another certificate (Apple's test CA, a test leaf): `untrustedChain`.
    @Test("another pinned certificate is refused", arguments: ["transaction", "renewal-info", "app-transaction"])
    func otherCertificateFails(_ name: String) throws {
        let others = [
            try TestVectorFiles.data("apple-library/certs/testCA.der"),
            try TestVectorFiles.data("apple-library/certs/testLeaf.pem"),
        ]
        for other in others {
            let verifier = try Self.verifier(certificate: other)
            let result = verifier.verifyAndDecode(try Self.token(name), as: nil)
            #expect(result.error?.code == .untrustedChain, "\(name)")
            #expect(result.error?.check == .chain, "\(name)")
        }
    }

    /// Configured for Production or Sandbox with Apple's roots: `invalidChainLength`, with a hint.
    @Test(
        "Production and Sandbox verifiers refuse Xcode tokens",
        arguments: ["transaction", "renewal-info", "app-transaction"])
    func productionFails(_ name: String) throws {
        let production = try SignedDataVerifier(bundleId: Self.bundleId, appAppleId: 1, environment: .production)
        let sandbox = try SignedDataVerifier(bundleId: Self.bundleId, environment: .sandbox)
        for verifier in [production, sandbox] {
            let error = verifier.verifyAndDecode(try Self.token(name), as: nil).error
            #expect(error?.code == .invalidChainLength, "\(name)")
            #expect(error?.message.contains("Xcode") == true, "\(name)")
        }
    }

    /// A token whose signature is altered fails even with the right certificate.
    @Test("a tampered Xcode token fails the signature")
    func tamperedFails() throws {
        var parts = try TokenParts(Self.token("transaction"))
        parts.payload["productId"] = "pass.free"
        let segments = try Self.token("transaction").split(separator: ".").map(String.init)
        let token = segments[0] + "." + (try TokenParts.segment(parts.payload)) + "." + segments[2]
        let result = try Self.verifier(certificate: try Self.pinned).verifyAndDecodeTransaction(token)
        #expect(result.error?.code == .invalidSignature)
    }

    /// Claims still apply: a wrong bundle id fails.
    @Test("claims are checked for Xcode tokens")
    func claimsChecked() throws {
        let verifier = try Self.verifier(certificate: try Self.pinned, bundleId: "com.example.other")
        #expect(verifier.verifyAndDecodeTransaction(try Self.token("transaction")).error?.code == .invalidAppIdentifier)
    }

    /// Without a pinned certificate the verifier cannot be made, and the message says what to export.
    @Test("Xcode without a pinned certificate is a configuration error")
    func needsCertificate() throws {
        #expect {
            _ = try SignedDataVerifier(bundleId: Self.bundleId, environment: .xcode)
        } throws: { error in
            guard let error = error as? VerificationError else { return false }
            return error.code == .invalidConfiguration && error.message.contains("Save Public Certificate")
        }
    }

    /// LocalTesting: the verifier refuses it; decodeUnverified decodes it and says nothing is verified.
    @Test("LocalTesting is decode-only")
    func localTesting() throws {
        #expect(throws: VerificationError.self) {
            _ = try SignedDataVerifier(bundleId: Self.bundleId, environment: .localTesting)
        }
        let unverified = try SignedDataVerifier.decodeUnverified(try Self.token("transaction"))
        #expect(unverified.kind == .transaction)
        #expect(unverified.certificates.count == 1)
        guard case .transaction(let payload) = unverified.payload else {
            Issue.record("expected a transaction")
            return
        }
        #expect(payload.environment == .xcode)
    }
}
