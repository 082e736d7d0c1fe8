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

    /// Input: each crafted receipt that Apple's verifier accepts (the ids starting `good-`). Expected: verified,
    /// warm as cold (``expectVerdict(_:)``). The failing ones are in the suite of their check
    /// (`Receipts/Checks/ReceiptCheckNN…Tests.swift`).
    @Test(
        "each good crafted receipt verifies, from a warm verifier as from a cold one",
        arguments: CraftedReceipts.ids(check: .good))
    func verdict(_ id: String) throws {
        try Self.expectVerdict(id)
    }

    /// Input: the catalog's ids. Expected: each starts with the prefix of exactly one receipt check (or `good-`),
    /// so that each is run by one check's suite.
    @Test("every crafted receipt belongs to one check's suite")
    func everyCaseHasItsCheck() throws {
        for id in CraftedReceipts.ids {
            let owners = CraftedReceipts.Check.allCases.filter { id.hasPrefix($0.rawValue + "-") }
            #expect(owners.count == 1, "\(id): \(owners)")
        }
    }

    /// Input: each crafted receipt, to a cold verifier (`chainCacheCapacity: 0`) and to a warm one that verified
    /// a good receipt of the same PKI first. Expected: the catalog's code, check and failed step; warm equals
    /// cold (code, check, every report step, payload), twice in a row; a receipt that fails checks 1 to 8 leaves
    /// the cache as it was.
    static func expectVerdict(_ id: String) throws {
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
}
