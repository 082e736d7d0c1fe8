import PurchaseLedger
import Testing

/// The entitlements queries search indexes: an account's or a purchase's records are found without reading every
/// row (the p99 of `Benchmarks/ledger-rate.sh` depends on it).
@Suite("Ledger query plans")
struct QueryPlanTests {
    /// Input: SQLite's plan of each query an entitlements answer runs. Expected: every table access is a SEARCH
    /// through an index (or the primary key), none a SCAN of a table.
    @Test("every entitlements query searches an index")
    func entitlementQueriesUseIndexes() throws {
        let store = try SQLiteLedgerStore(path: ":memory:")
        let plans = try store.entitlementQueryPlans()
        let accesses = plans.filter { $0.contains("ledger_") }
        #expect(accesses.count >= 4, "\(plans)")
        for step in accesses {
            #expect(step.hasPrefix("SEARCH") && step.contains("INDEX"), "\(step)")
        }
    }
}
