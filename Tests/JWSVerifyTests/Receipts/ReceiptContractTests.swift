import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// The receipt contract (Docs/ErrorCodes.md, "App receipts") check by check, on receipts minted to fail each
/// one (``CraftedReceipts``): the code, the check and the failed step, and the same verdict from a verifier
/// whose cache holds a good receipt of the same PKI as from one with every cache off.
@Suite("Receipt contract: minted failures, warm and cold")
struct ReceiptContractTests {
    /// Input: the catalog. Expected: it builds, and every code of receipt checks 1 to 10 appears in it, each with
    /// the check and step the contract gives it, and verified receipts too.
    @Test("the crafted receipts cover every check of the receipt contract")
    func catalogCoversTheContract() throws {
        let cases = try CraftedReceipts.all.get()
        #expect(cases.count == CraftedReceipts.ids.count && Set(CraftedReceipts.ids).count == cases.count)
        let expected = Set(cases.map(\.expected.description))
        for outcome in [
            "verified", "malformedReceipt/format/format", "malformedReceipt/format/content",
            "unsupportedAlgorithm/header/algorithm",
            "missingCertificateChain/header/certificateChain", "untrustedChain/chain/trust",
            "certificateExpired/chain/validity", "missingAppleExtension/chain/appleExtensions",
            "unsupportedKey/chain/signerKey", "invalidSignature/signature/signature",
            "invalidAppIdentifier/claims/bundleId", "invalidAppIdentifier/claims/appAppleId",
            "invalidEnvironment/claims/environment", "deviceHashMismatch/claims/deviceHash",
        ] {
            #expect(expected.contains(outcome), "no crafted receipt expects \(outcome)")
        }
    }

    /// Input: each crafted receipt, to a cold verifier (`chainCacheCapacity: 0`) and to a warm one that verified
    /// a good receipt of the same PKI first. Expected: the catalog's code, check and failed step; warm equals
    /// cold (code, check, every report step, payload), twice in a row; a receipt that fails checks 1 to 8 leaves
    /// the cache as it was.
    @Test(
        "each crafted receipt gets its code, check and step, from a warm verifier as from a cold one",
        arguments: CraftedReceipts.ids)
    func verdict(_ id: String) throws {
        let crafted = try CraftedReceipts.named(id)
        let cold = try crafted.verifier(capacity: 0).outcome(
            crafted.receipt, deviceIdentifier: crafted.deviceIdentifier)
        switch crafted.expected {
        case .verified:
            #expect(cold.code == nil, "\(id): \(cold)")
        case .failed(let code, let check, let step):
            #expect(cold.code == code && cold.check == check && cold.failedStep == step, "\(id): \(cold)")
        }

        let warm = try crafted.verifier(capacity: 64)
        let primed = warm.outcome(crafted.primer)
        #expect(primed.passedSignatureChecks, "\(id): the primer failed: \(primed)")
        let before = warm.cacheStatistics
        #expect(before.count == 1, "\(id): the primer did not enter the cache")
        for round in 1...2 {
            let observed = crafted.outcome(warm)
            #expect(observed == cold, "\(id), round \(round): warm \(observed) != cold \(cold)")
            #expect(observed.report.steps == cold.report.steps, "\(id), round \(round)")
        }
        if !cold.passedSignatureChecks {
            #expect(warm.cacheStatistics.count == before.count, "\(id): a receipt that failed entered the cache")
            #expect(warm.cacheStatistics.hits == before.hits, "\(id): the cache answered for a failure")
        }
    }

    /// Input: the classic forgery (a developer certificate issued by the same WWDR intermediate signs), and a
    /// receipt that embeds the real leaf but names and is signed by the developer certificate. Expected: both
    /// chain to the trusted root (trust passed) and stop at the receipt-signing marker, the message saying so.
    @Test("the classic forgery stops at the receipt-signing marker, after a passed trust step")
    func classicForgery() throws {
        for id in ["markers-developer-certificate-signs", "markers-real-leaf-embedded-developer-named"] {
            let crafted = try CraftedReceipts.named(id)
            let outcome = crafted.outcome(try crafted.verifier(capacity: 0))
            #expect(outcome.report.steps.first { $0.name == .trust }?.outcome == .passed, "\(id)")
            let detail = outcome.report.failedStep?.detail ?? ""
            #expect(detail.contains(AppleOID.leafMarker) && detail.contains("signer"), "\(id): \(detail)")
        }
        let intermediate = try CraftedReceipts.named("markers-intermediate-without-marker")
        let detail = intermediate.outcome(try intermediate.verifier(capacity: 0)).report.failedStep?.detail ?? ""
        #expect(detail.contains(AppleOID.intermediateMarker), "\(detail)")
    }

    /// Input: the window receipts at each boundary. Expected: the expired ones name the certificate that is out
    /// of its window (the receipt signer, or the intermediate) and the validation time.
    @Test("an expired certificate is named, with its window and the time")
    func expiredNamesTheCertificate() throws {
        for (role, prefix) in [
            ("signer", "the receipt signer certificate (CN=Mac App Store and iTunes Store Receipt Signing)"),
            ("intermediate", "the intermediate certificate (CN=Apple Worldwide Developer Relations Certification"),
        ] {
            for label in ["one-second-before-not-before", "at-not-after"] {
                let crafted = try CraftedReceipts.named("validity-\(role)-\(label)")
                let message =
                    try crafted.verifier(capacity: 0).verifyAndDecodeAppReceipt(Data(crafted.receipt))
                    .error?.message ?? ""
                #expect(message.hasPrefix(prefix), "\(role) \(label): \(message)")
                #expect(message.contains(ISO8601Text.iso8601(crafted.time)), "\(role) \(label): \(message)")
            }
        }
    }

    /// Input: a receipt signed with a 1024-bit leaf key. Expected: unsupportedKey, saying how many bits.
    @Test("a 1024-bit signer key is refused with its size")
    func smallKeyMessage() throws {
        let crafted = try CraftedReceipts.named("key-rsa-1024")
        let message = try crafted.verifier(capacity: 0).verifyAndDecodeAppReceipt(Data(crafted.receipt)).error?.message
        #expect(message?.contains("1024 bits") == true, "\(message ?? "")")
    }

    /// Input: the test's own SHA-1 on FIPS 180-4's "abc", then a receipt whose field 5 is that SHA-1 of the device
    /// identifier, the opaque value and the bundle id's value, verified with the identifier (and as a `UUID`).
    /// Expected: the helper gives the standard answer; the receipt verifies with the device-hash step passed, and
    /// fails with one byte of the identifier changed.
    @Test("a device hash computed in the test verifies; another device does not")
    func deviceHash() throws {
        #expect([UInt8](ReceiptDeviceHash.sha1(Array("abc".utf8))) == ReceiptDeviceHash.abc)
        let fixture = try ReceiptAttackFixture.get()
        let verifier = try ReceiptVerifiers.make(capacity: 0)
        let good = try fixture.good()
        let result = verifier.verifyAndDecodeAppReceipt(
            Data(good), deviceIdentifier: ReceiptAttackFixture.deviceIdentifier)
        #expect(result.isVerified, "\(String(describing: result.error))")
        #expect(result.report.steps.first { $0.name == .deviceHash }?.outcome == .passed)
        let uuid = UUID(
            uuid: (0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1A, 0x1B, 0x1C, 0x1D, 0x1E, 0x1F))
        #expect(verifier.verifyAndDecodeAppReceipt(Data(good).base64EncodedString(), deviceIdentifier: uuid).isVerified)
        var other = ReceiptAttackFixture.deviceIdentifier
        other[15] ^= 0x80
        #expect(
            verifier.verifyAndDecodeAppReceipt(Data(good), deviceIdentifier: other).error?.code == .deviceHashMismatch)
        #expect(
            verifier.verifyAndDecodeAppReceipt(Data(good)).report.steps.first { $0.name == .deviceHash }?.outcome
                == .skipped)
    }
}
