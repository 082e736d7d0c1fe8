import Foundation
import Testing

@testable import JWSVerify

/// ``AppReceiptVerifier/decodeUnverified(_:maximumReceiptBytes:)`` on the real receipts of `TestVectors`, and
/// ``ReceiptInputDescription/startsLikeReceipt(_:)``, which `jwsverify batch` asks of every line.
@Suite("Receipt decoding without verification")
struct UnverifiedAppReceiptTests {
    /// Input: the 2025 sandbox receipt (DER, base64). Expected: its content (bundle id, two purchases), its three
    /// embedded certificates in Apple's order (signer, WWDR G5, Apple Root CA) with RSA keys, the signer named by
    /// the SignerInfo found at index 0, SHA-256 and rsaEncryption, no signed attributes.
    @Test("an App Store receipt decodes with its embedded certificates and signer")
    func appStoreReceipt() throws {
        let bytes = try ReceiptVectors.text("receipts/04_sandbox_2025_sha256-G5_2iap_tpinappreceipt.b64")
        let unverified = try AppReceiptVerifier.decodeUnverified(bytes)
        #expect(unverified.receipt.bundleId == "dev.bonzer.weeka.app")
        #expect(unverified.receipt.inApp.count == 2)
        #expect(unverified.certificates.count == 3)
        #expect(unverified.certificateProblems.isEmpty)
        #expect(unverified.signerIndex == 0)
        #expect(unverified.certificates[0].subjectCommonName == "Mac App Store and iTunes Store Receipt Signing")
        #expect(
            unverified.certificates[1].subjectCommonName
                == "Apple Worldwide Developer Relations Certification Authority")
        #expect(unverified.certificates[2].sha256Fingerprint == AppleRootCertificate.appleIncRootSHA256)
        #expect(unverified.certificates.allSatisfy { $0.keyType == "RSA 2048" })
        #expect(unverified.digestAlgorithm == "sha256")
        #expect(unverified.signatureAlgorithm == "rsaEncryption")
        #expect(!unverified.hasSignedAttributes)
    }

    /// Input: Apple's Xcode receipt with a transaction (BER). Expected: one self-signed `CN=StoreKit` certificate,
    /// which the SignerInfo names; the receipt type `Xcode`.
    @Test("an Xcode receipt decodes with its one StoreKit certificate")
    func xcodeReceipt() throws {
        let bytes = try ReceiptVectors.bytes("apple-library/xcode/xcode-app-receipt-with-transaction")
        let unverified = try AppReceiptVerifier.decodeUnverified(bytes)
        #expect(unverified.receipt.receiptType == "Xcode")
        #expect(unverified.certificates.count == 1)
        #expect(unverified.signerIndex == 0)
        #expect(unverified.certificates[0].subjectCommonName == "StoreKit")
    }

    /// Input: an iOS 6 transaction receipt (a property list in base64), and a JWS-looking text. Expected:
    /// `malformedReceipt` at check `format`, with the verifier's message saying what the input is.
    @Test("what is not a receipt is refused as malformedReceipt, saying what it is")
    func notAReceipt() throws {
        let ios6 = try ReceiptVectors.text("receipts/12_ios6-transaction-receipt_sandbox_appreceiptvalidator.b64")
        do {
            _ = try AppReceiptVerifier.decodeUnverified(ios6)
            Issue.record("an iOS 6 transaction receipt decoded as an app receipt")
        } catch {
            #expect(error.code == .malformedReceipt)
            #expect(error.check == .format)
            #expect(error.message.contains("iOS 6 transaction receipt"))
        }
        do {
            _ = try AppReceiptVerifier.decodeUnverified(Array("eyJhbGciOiJFUzI1NiJ9.e30.c2ln".utf8))
            Issue.record("a JWS decoded as a receipt")
        } catch {
            #expect(error.code == .malformedReceipt)
        }
    }

    /// Input: receipts raw and in base64; a JWS token; short and non-receipt base64. Expected: only the
    /// receipts start like one.
    @Test("startsLikeReceipt recognizes receipts raw and in base64 by their first bytes only")
    func recognition() throws {
        let text = try ReceiptVectors.text("receipts/06_sandbox_2020_sha1_187iap_tpinappreceipt.b64")
        let raw = try ReceiptVectors.bytes("receipts/06_sandbox_2020_sha1_187iap_tpinappreceipt.b64")
        let xcode = try ReceiptVectors.text("apple-library/xcode/xcode-app-receipt-empty")
        #expect(ReceiptInputDescription.startsLikeReceipt(text))
        #expect(ReceiptInputDescription.startsLikeReceipt(raw))
        #expect(ReceiptInputDescription.startsLikeReceipt(xcode))
        #expect(ReceiptInputDescription.startsLikeReceipt(Array(text.prefix(24))))
        #expect(!ReceiptInputDescription.startsLikeReceipt(Array(text.prefix(23))))
        #expect(!ReceiptInputDescription.startsLikeReceipt(Array("eyJhbGciOiJFUzI1NiIsIng1YyI6WyJNSUlF.e30.c2ln".utf8)))
        #expect(
            !ReceiptInputDescription.startsLikeReceipt(
                Array(Data(repeating: 0x30, count: 40).base64EncodedString().utf8)))
        #expect(!ReceiptInputDescription.startsLikeReceipt([]))
    }
}
