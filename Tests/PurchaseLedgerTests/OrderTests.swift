import Foundation
import JWSVerify
import JWSVerifyTesting
import PurchaseLedger
import Testing

@testable import PurchaseLedgerPostgreSQL

/// The order and number of deliveries never change the state: every scenario's deliveries, shuffled with
/// duplicates, give the same state byte for byte and the same entitlements as in order, in the fold and in each
/// store.
@Suite("Ledger delivery order")
struct OrderTests {
    /// How many shuffles each scenario gets in the fold and in SQLite (an in-memory database each).
    static let shuffles = 1_000
    /// How many in PostgreSQL (one schema per scenario, emptied between shuffles).
    static let postgreSQLShuffles = 40

    /// A shuffle of `entries` with about a third of them delivered again at random places, cut into groups of 1 to 4
    /// (one database transaction each).
    static func deliveries<G: RandomNumberGenerator>(
        _ entries: [LedgerEntry], using generator: inout G
    ) -> [[LedgerEntry]] {
        var shuffled = entries
        for entry in entries where Int.random(in: 0..<3, using: &generator) == 0 {
            shuffled.append(entry)
        }
        shuffled.shuffle(using: &generator)
        var groups: [[LedgerEntry]] = []
        var index = 0
        while index < shuffled.count {
            let size = Int.random(in: 1...4, using: &generator)
            groups.append(Array(shuffled[index..<min(index + size, shuffled.count)]))
            index += size
        }
        return groups
    }

    /// The entitlements documents of every purchase of the scenario at every day it asks about, as text.
    static func documents(_ ledger: Ledger, _ scenario: Scenario) throws -> [String] {
        var texts: [String] = []
        let days = Set(scenario.stages.flatMap(\.expectations).map(\.day)).sorted()
        for purchase in scenario.purchases {
            for day in days {
                let time = Timestamp(millisecondsSince1970: Double(LedgerWorld.at(day: day)))
                texts.append(
                    try ledger.entitlements(for: .originalTransactionId(purchase.original), at: time).jsonText(
                        pretty: false))
            }
        }
        return texts
    }

    /// The fold of 1,000 seeded shuffles with duplicates equals the fold in delivery order, line for line.
    @Test("any order with duplicates folds into the same state", arguments: Scenario.all.indices)
    func foldIgnoresOrder(index: Int) throws {
        let scenario = Scenario.all[index]
        let entries = try LedgerWorld.shared.entries(scenario.allDeliveries)
        let expected = LedgerState.folding(entries)
        var generator = SeededGenerator(seed: UInt64(1_000 + index), label: "ledger order")
        for round in 0..<Self.shuffles {
            // Equal states have equal canonical lines (every field, the rank with the token's bytes): compared as
            // values here, as text only when they differ.
            let folded = LedgerState.folding(Self.deliveries(entries, using: &generator).joined())
            guard folded == expected else {
                #expect(folded.canonicalLines == expected.canonicalLines)
                Issue.record("\(scenario): shuffle \(round) folds into another state")
                return
            }
        }
    }

    /// Delivers `rounds` seeded shuffles of a scenario, each into the store `next()` gives (new or emptied), and
    /// records an issue at the first whose stored state or entitlements differ from the fold in order, or that
    /// appended another number of entries than the scenario has.
    static func deliverShuffles(
        of scenario: Scenario, rounds: Int, seed: UInt64, next: () throws -> Ledger
    ) throws {
        let entries = try LedgerWorld.shared.entries(scenario.allDeliveries)
        let expected = LedgerState.folding(entries)
        let reference = Ledger(store: try SQLiteLedgerStore(path: ":memory:"), verifier: LedgerWorld.shared.verifier)
        _ = try reference.store.append(entries)
        let expectedDocuments = try documents(reference, scenario)
        var generator = SeededGenerator(seed: seed, label: "ledger order")
        for round in 0..<rounds {
            let ledger = try next()
            var appended = 0
            for group in deliveries(entries, using: &generator) {
                appended += try ledger.store.append(group).filter { $0.result == .appended }.count
            }
            guard appended == entries.count, try ledger.store.state() == expected,
                try documents(ledger, scenario) == expectedDocuments
            else {
                Issue.record("\(scenario): shuffle \(round) stored another state (\(appended) appended)")
                return
            }
        }
    }

    /// 1,000 seeded shuffles with duplicates into SQLite stores (a new in-memory database each): the same stored
    /// state and entitlements as the fold in order, and each delivery appended exactly once.
    @Test("any order with duplicates stores the same state in SQLite", arguments: Scenario.all.indices)
    func sqliteIgnoresOrder(index: Int) throws {
        try Self.deliverShuffles(of: Scenario.all[index], rounds: Self.shuffles, seed: UInt64(2_000 + index)) {
            Ledger(store: try SQLiteLedgerStore(path: ":memory:"), verifier: LedgerWorld.shared.verifier)
        }
    }

    /// Seeded shuffles with duplicates into one PostgreSQL schema, emptied between them.
    @Test(
        "any order with duplicates stores the same state in PostgreSQL",
        .enabled(if: StoreKind.available.contains(.postgreSQL)),
        arguments: Scenario.all.indices)
    func postgreSQLIgnoresOrder(index: Int) throws {
        let url = try TestStores.freshPostgreSQLURL()
        let ledger = Ledger(store: try PostgreSQLLedgerStore(url: url), verifier: LedgerWorld.shared.verifier)
        let cleaner = try PostgreSQLConnection(url: url)
        try Self.deliverShuffles(of: Scenario.all[index], rounds: Self.postgreSQLShuffles, seed: UInt64(3_000 + index))
        {
            try cleaner.run("TRUNCATE ledger_log, ledger_transactions, ledger_renewals", [])
            return ledger
        }
    }
}
