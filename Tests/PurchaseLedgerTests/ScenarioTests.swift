import Foundation
import JWSVerify
import PurchaseLedger
import Testing

/// Apple's documented lifecycles, delivered in order into each store: after each stage the entitlements at several
/// times are Apple's status, the stored state equals the fold of the log, and a rebuild finds no difference.
@Suite("Ledger scenarios")
struct ScenarioTests {
    static let cases: [(StoreKind, Int)] = StoreKind.available.flatMap { kind in
        Scenario.all.indices.map { (kind, $0) }
    }

    /// Each stage's deliveries appended one by one; then every expectation of the stage holds.
    @Test("each lifecycle gives Apple's status at every time asked", arguments: cases)
    func lifecycle(kind: StoreKind, index: Int) throws {
        let scenario = Scenario.all[index]
        let ledger = Ledger(store: try TestStores.make(kind), verifier: LedgerWorld.shared.verifier)
        var delivered: [String] = []
        for (number, stage) in scenario.stages.enumerated() {
            for token in stage.deliveries {
                let outcome = try ledger.append(token: token, source: .notification)
                #expect(outcome.result == .appended, "\(scenario) stage \(number)")
            }
            delivered += stage.deliveries
            try Self.check(stage.expectations, in: ledger, scenario: "\(scenario) stage \(number)")
            let folded = LedgerState.folding(try LedgerWorld.shared.entries(delivered))
            #expect(try ledger.store.state().canonicalLines == folded.canonicalLines, "\(scenario) stage \(number)")
            #expect(try ledger.rebuild(repairing: false).differences == [], "\(scenario) stage \(number)")
        }
    }

    /// Checks each expectation against the ledger's entitlements of its purchase.
    static func check(_ expectations: [Scenario.Expectation], in ledger: Ledger, scenario: String) throws {
        for expected in expectations {
            let time = Timestamp(millisecondsSince1970: Double(LedgerWorld.at(day: expected.day)))
            let document = try ledger.entitlements(
                for: .originalTransactionId(expected.original), at: time,
                environment: AppStoreEnvironment(rawValue: expected.environment))
            let label = "\(scenario): \(expected.original) \(expected.environment) at day \(expected.day)"
            guard let status = expected.status else {
                #expect(document.entitlements.isEmpty, "\(label)")
                continue
            }
            try #require(document.entitlements.count == 1, "\(label)")
            let entry = document.entitlements[0]
            #expect(entry.status == status, "\(label)")
            #expect(entry.entitled == status.entitled, "\(label)")
            #expect(entry.environment == expected.environment, "\(label)")
            if let id = expected.transactionId { #expect(entry.transactionId == id, "\(label)") }
            if let entitled = expected.entitled { #expect(entry.entitled == entitled, "\(label)") }
            if let quantity = expected.quantity { #expect(entry.quantity == quantity, "\(label)") }
            if let type = expected.revocationType { #expect(entry.revocationType == type, "\(label)") }
            if let renew = expected.autoRenewStatus { #expect(entry.autoRenewStatus == renew, "\(label)") }
        }
    }
}
