import Foundation
import JWSVerify
import JWSVerifyTesting
import PurchaseLedger
import Testing

/// The store answers an entitlements query with only the transactions that can be current at T (each purchase's
/// latest purchase date at or before T, consumables left out): the answer must be the one `EntitlementEvaluation`
/// gives on every record of the purchases.
@Suite("Ledger entitlement queries")
struct EntitlementQueryTests {
    /// Input: 240 transactions of 12 purchases in two environments, purchase dates drawn from a few days (ties),
    /// some consumable, some without the account token, with renewal infos; T at and around every purchase date.
    /// Expected: for each purchase and for the account, in each environment and in all, the store's answer equals
    /// `EntitlementEvaluation` over the whole stored state.
    @Test("the narrowed query answers as the evaluation of every record", arguments: StoreKind.available)
    func narrowedQueryMatchesFullEvaluation(kind: StoreKind) throws {
        let world = LedgerWorld.shared
        var generator = SeededGenerator(seed: 3_838, label: "entitlement queries")
        let account = "0b6b6b8e-9a5a-4c3e-8a1f-3c2e5f7a9d10"
        var tokens: [String] = []
        var times: Set<Int64> = []
        for index in 0..<240 {
            let original = String(60_000 + Int.random(in: 0..<12, using: &generator))
            let purchase = LedgerWorld.at(day: Double(Int.random(in: 0..<8, using: &generator)))
            times.formUnion([purchase - 1, purchase, purchase + 1])
            let type = ["Auto-Renewable Subscription", "Consumable", "Non-Consumable"][
                Int.random(in: 0..<6, using: &generator) % 3]
            tokens.append(
                try world.token(
                    LedgerWorld.Transaction(
                        id: String(70_000 + index), original: original, type: type, purchase: purchase,
                        expires: purchase + LedgerWorld.day * Int64.random(in: 1..<4, using: &generator),
                        signed: purchase + Int64(index),
                        environment: Bool.random(using: &generator) ? "Sandbox" : "Production",
                        account: Bool.random(using: &generator) ? account : nil,
                        revocation: Int.random(in: 0..<10, using: &generator) == 0 ? purchase + 3_600_000 : nil)))
        }
        for original in 0..<12 {
            tokens.append(
                try world.token(
                    LedgerWorld.Renewal(
                        original: String(60_000 + original), signed: LedgerWorld.at(day: 9),
                        account: original % 3 == 0 ? account : nil, grace: LedgerWorld.at(day: 5),
                        retry: original % 2 == 0)))
        }
        let store = try TestStores.make(kind)
        _ = try store.append(world.entries(tokens))
        let state = try store.state()
        let queries: [EntitlementQuery] =
            [.appAccountToken(account)] + (0..<12).map { .originalTransactionId(String(60_000 + $0)) }
        for query in queries {
            for environment in [nil, AppStoreEnvironment.sandbox, .production] {
                let purchases = Self.purchases(of: query, in: state, environment: environment?.rawValue)
                let transactions = state.transactions.values.filter {
                    purchases.contains(RecordKey(environment: $0.environment, id: $0.originalTransactionId))
                }
                let renewals = state.renewals.values.filter { purchases.contains($0.key) }
                for time in times.sorted() {
                    let at = Timestamp(millisecondsSince1970: Double(time))
                    let answered = try Ledger.entitlements(in: store, for: query, at: at, environment: environment)
                    let expected = EntitlementEvaluation.entitlements(
                        transactions: Array(transactions), renewals: Array(renewals), at: at)
                    #expect(answered.entitlements == expected, "\(query) \(environment?.rawValue ?? "any") at \(time)")
                }
            }
        }
    }

    /// The (environment, originalTransactionId) pairs a query selects, from the whole state.
    static func purchases(of query: EntitlementQuery, in state: LedgerState, environment: String?) -> Set<RecordKey> {
        var keys: Set<RecordKey> = []
        for record in state.transactions.values where environment == nil || record.environment == environment {
            let key = RecordKey(environment: record.environment, id: record.originalTransactionId)
            switch query {
            case .appAccountToken(let token) where record.appAccountToken == token: keys.insert(key)
            case .originalTransactionId(let id) where record.originalTransactionId == id: keys.insert(key)
            default: break
            }
        }
        for record in state.renewals.values where environment == nil || record.environment == environment {
            switch query {
            case .appAccountToken(let token) where record.appAccountToken == token: keys.insert(record.key)
            case .originalTransactionId(let id) where record.originalTransactionId == id: keys.insert(record.key)
            default: break
            }
        }
        return keys
    }
}
