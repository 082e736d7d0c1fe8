import Foundation
import JWSVerify
import JWSVerifyTesting
import Synchronization
import Testing

@testable import PurchaseLedger
@testable import PurchaseLedgerPostgreSQL

/// What every store must do, run against each: only verified items reach the log, the schema is checked at open,
/// cursors persist, and a rebuild finds and repairs a state changed behind the ledger's back.
@Suite("Ledger stores")
struct StoreTests {
    /// Input: a transaction signed by another PKI, one of another app, a realtime request and a notification without
    /// a notificationUUID. Expected: each refused with its code; the log stays empty.
    @Test("nothing that fails verification or lacks its key reaches the log", arguments: StoreKind.available)
    func refusals(kind: StoreKind) throws {
        let world = LedgerWorld.shared
        let ledger = Ledger(store: try TestStores.make(kind), verifier: world.verifier)
        let stranger = try LedgerWorld(hierarchy: TestHierarchy.generate(.appStoreEC, seed: 40))
        let sample = LedgerWorld.Transaction(id: "1", original: "1", purchase: LedgerWorld.t0, signed: LedgerWorld.t0)
        let cases: [(String, LedgerError.Code, String?)] = [
            (try stranger.token(sample), .notVerified, "untrustedChain"),
            (
                try world.minter.sign(
                    DefaultPayloads.transaction(
                        PayloadParameters(bundleId: "com.example.other", environment: "Sandbox"))),
                .notVerified, "invalidAppIdentifier"
            ),
            (
                try world.minter.sign(
                    DefaultPayloads.realtime(PayloadParameters(bundleId: LedgerWorld.bundleId, environment: "Sandbox"))),
                .unsupportedKind, nil
            ),
            (
                try world.minter.sign(
                    DefaultPayloads.notification(
                        PayloadParameters(bundleId: LedgerWorld.bundleId, environment: "Sandbox"),
                        signedTransactionInfo: nil, signedRenewalInfo: nil, signedAppTransactionInfo: nil
                    ).filter { $0.key != "notificationUUID" }), .missingIdentifier, nil
            ),
            ("not.a.token", .notVerified, "malformedToken"),
        ]
        for (token, code, verification) in cases {
            #expect(throws: LedgerError(code, "")) { try ledger.append(token: token, source: .device) }
            do {
                _ = try ledger.append(token: token, source: .device)
            } catch {
                #expect(error.verification?.code.rawValue == verification, "\(error)")
            }
        }
        #expect(try ledger.store.logCount() == 0)
        #expect(try ledger.store.state() == LedgerState())
    }

    /// Input: a new store, opened again; then its schema version set beyond this code's. Expected: the first open
    /// creates the current version and a second open keeps it with its data; the newer schema is refused with
    /// `schemaTooNew`, nothing changed.
    @Test("the schema is created, kept, and refused when newer", arguments: StoreKind.available)
    func schemaVersion(kind: StoreKind) throws {
        let location = try TestStores.location(kind)
        let first = try LedgerCLIStores.open(location)
        _ = try first.append(LedgerWorld.shared.entries([Scenario.all[0].allDeliveries[0]]))
        let again = try LedgerCLIStores.open(location)
        #expect(try again.logCount() == 3)
        let newer = LedgerSQL.schemaVersion + 1
        switch kind {
        case .sqlite:
            let connection = try SQLiteConnection(path: String(location.dropFirst("sqlite:".count)))
            try connection.execute("UPDATE ledger_meta SET value = '\(newer)' WHERE name = 'schema_version'")
        case .postgreSQL:
            try PostgreSQLConnection(url: location).run(
                "UPDATE ledger_meta SET value = '\(newer)' WHERE name = 'schema_version'", [])
        }
        #expect(throws: LedgerError(.schemaTooNew, "")) { _ = try LedgerCLIStores.open(location) }
    }

    /// Input: a store made with schema version 1 (its statements run by hand) holding a scenario's items. Expected:
    /// opening it migrates it to the current version (version 2's indexes in place of version 1's) with its log and
    /// state kept, and its entitlements are those of a store made new with the same items.
    @Test("a version 1 store is migrated with its data", arguments: StoreKind.available)
    func migrationFromVersion1(kind: StoreKind) throws {
        let scenario = Scenario.all[0]
        let entries = try LedgerWorld.shared.entries(scenario.allDeliveries)
        let location = try TestStores.location(kind)
        let version1 = LedgerSQL(kind == .sqlite ? .sqlite : .postgreSQL).migrations[0]
        let operations = LedgerOperations(kind == .sqlite ? .sqlite : .postgreSQL)
        let meta =
            ["CREATE TABLE ledger_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)"] + version1 + [
                "INSERT INTO ledger_meta (name, value) VALUES ('schema_version', '1')"
            ]
        switch kind {
        case .sqlite:
            let connection = try SQLiteConnection(path: String(location.dropFirst("sqlite:".count)))
            for statement in meta { try connection.execute(statement) }
            _ = try operations.append(entries, settingCursor: nil, in: connection, appendedAt: 0)
        case .postgreSQL:
            let connection = try PostgreSQLConnection(url: location)
            for statement in meta { try connection.run(statement, []) }
            _ = try operations.append(entries, settingCursor: nil, in: connection, appendedAt: 0)
        }
        let migrated = try LedgerCLIStores.open(location)
        let fresh = try TestStores.make(kind)
        _ = try fresh.append(entries)
        #expect(try migrated.state() == fresh.state())
        #expect(try migrated.logCount() == fresh.logCount())
        for expectation in scenario.stages.flatMap(\.expectations) {
            let at = Timestamp(millisecondsSince1970: Double(LedgerWorld.at(day: expectation.day)))
            let query = EntitlementQuery.originalTransactionId(expectation.original)
            #expect(
                try Ledger.entitlements(in: migrated, for: query, at: at)
                    == Ledger.entitlements(in: fresh, for: query, at: at))
        }
        if kind == .sqlite {
            var indexes: [String] = []
            try SQLiteConnection(path: String(location.dropFirst("sqlite:".count))).query(
                "SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'ledger_%' ORDER BY name", []
            ) { row in
                if case .text(let name) = row.value(0) { indexes.append(name) }
            }
            #expect(indexes.contains("ledger_transactions_purchase_date"))
            #expect(
                !indexes.contains("ledger_transactions_original") && !indexes.contains("ledger_transactions_account"))
        }
    }

    /// Input: a file that is not an SQLite database. Expected: `storeNotOpened`, the file unchanged.
    @Test("a file that is not a database is not opened")
    func notADatabase() throws {
        let path = TestStores.temporarySQLitePath()
        let text = Data(repeating: UInt8(ascii: "x"), count: 4096)
        try text.write(to: URL(fileURLWithPath: path))
        #expect(throws: LedgerError(.storeNotOpened, "")) { _ = try SQLiteLedgerStore(path: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == text)
    }

    /// Input: a cursor set, replaced, read from a second connection, removed. Expected: each read sees the last write.
    @Test("cursors persist across connections", arguments: StoreKind.available)
    func cursors(kind: StoreKind) throws {
        let location = try TestStores.location(kind)
        let store = try LedgerCLIStores.open(location)
        #expect(try store.cursor(named: "history") == nil)
        try store.setCursor(named: "history", to: "token-1")
        try store.setCursor(named: "history", to: "token-2")
        #expect(try LedgerCLIStores.open(location).cursor(named: "history") == "token-2")
        try store.setCursor(named: "history", to: nil)
        #expect(try LedgerCLIStores.open(location).cursor(named: "history") == nil)
    }

    /// Input: a scenario's deliveries, then one stored record changed and one deleted behind the ledger's back.
    /// Expected: a rebuild without repair names both and changes nothing; with repair it restores the fold of the log.
    @Test("a rebuild finds a state changed behind the ledger's back and repairs it", arguments: StoreKind.available)
    func rebuildRepairs(kind: StoreKind) throws {
        let location = try TestStores.location(kind)
        let store = try LedgerCLIStores.open(location)
        let entries = try LedgerWorld.shared.entries(Scenario.all[0].allDeliveries)
        _ = try store.append(entries)
        var tampered = try store.state()
        let key = try #require(tampered.transactions.keys.sorted().first)
        tampered.transactions[key]?.expiresDate = Timestamp(millisecondsSince1970: 4_102_444_800_000)
        tampered.renewals.removeAll()
        try store.replaceState(with: tampered, ifLogCountIs: nil)
        let report = try Ledger.rebuild(store, repairing: false)
        #expect(report.items == 6)
        #expect(report.differences.count == 2, "\(report.differences)")
        #expect(!report.repaired)
        #expect(try store.state() == tampered)
        let repaired = try Ledger.rebuild(store, repairing: true)
        #expect(repaired.repaired)
        #expect(try store.state() == LedgerState.folding(entries))
        #expect(try Ledger.rebuild(store, repairing: false).differences == [])
        // A repair folded from fewer items than the log holds now (an append during the rebuild) is refused.
        let count = try store.logCount()
        #expect(throws: LedgerError(.storeUnavailable, "")) {
            try store.replaceState(with: tampered, ifLogCountIs: count - 1)
        }
        #expect(try store.state() == LedgerState.folding(entries))
    }

    /// Input: an import of a line longer than the bound between two good lines. Expected: that line refused as
    /// `malformedToken`, both others appended.
    @Test("a line over the bound is refused and the import goes on")
    func longLine() throws {
        let world = LedgerWorld.shared
        let ledger = Ledger(store: try TestStores.make(.sqlite), verifier: world.verifier)
        let good = Array(LedgerCommandTests.bulk.prefix(2))
        let path = try LedgerCLI.file([
            good[0], String(repeating: "a", count: LedgerImport.maximumLineBytes + 10), good[1],
        ])
        var refusals: [LedgerImport.Refusal] = []
        let report = try ledger.importLines(
            from: try #require(FileHandle(forReadingAtPath: path)), refused: { refusals.append($0) })
        #expect(report.appended == 2)
        #expect(report.refused == 1)
        #expect(refusals.map(\.line) == [2])
        #expect(refusals.map(\.code) == ["malformedToken"])
    }

    /// Input: versions of one transaction signed in the same millisecond: two that differ only in their bytes, and one
    /// with a revocation; appended in every order. Expected: the revoked one wins over both; between the other two the
    /// larger token bytes win; the store keeps what the fold keeps, whatever the order.
    @Test("ties on signedDate go to the revocation, then to the larger token bytes", arguments: StoreKind.available)
    func ties(kind: StoreKind) throws {
        let world = LedgerWorld.shared
        var base = LedgerWorld.Transaction(
            id: "4242", original: "4242", purchase: LedgerWorld.t0, expires: LedgerWorld.at(day: 30),
            signed: LedgerWorld.at(day: 1))
        base.offerType = 1
        var other = base
        other.offerType = 2
        var revoked = base
        revoked.revocation = LedgerWorld.at(day: 1)
        revoked.revocationReason = 0
        let plain = try world.entries([world.token(base), world.token(other)])
        let larger = plain.max { $0.head.token.utf8.lexicographicallyPrecedes($1.head.token.utf8) }
        let withRevocation = try world.entries([world.token(revoked)])
        for order in [plain, plain.reversed()] {
            let store = try TestStores.make(kind)
            _ = try store.append(Array(order))
            let held = try #require(try store.state().transactions.values.first)
            #expect(held.rank == larger?.transactions.first?.rank)
            #expect(try store.state() == LedgerState.folding(order))
        }
        for order in [plain + withRevocation, withRevocation + plain] {
            let store = try TestStores.make(kind)
            for entry in order { _ = try store.append([entry]) }
            let held = try #require(try store.state().transactions.values.first)
            #expect(held.revocationDate != nil)
            #expect(try store.state() == LedgerState.folding(order))
        }
    }

    /// Input: on PostgreSQL, a writer that has stored one version of a transaction and not yet committed, while a
    /// second writer appends another version signed in the same millisecond; then the first commits. Expected: the
    /// state holds the version with the larger token bytes, whichever writer brought it (a tie decided against the
    /// first writer's log row, which the second one's waiting statement could not see, kept the first committed).
    @Test(
        "a tie between two concurrent PostgreSQL writers goes to the larger token bytes",
        .enabled(if: StoreKind.available.contains(.postgreSQL)))
    func concurrentTie() throws {
        let world = LedgerWorld.shared
        var base = LedgerWorld.Transaction(
            id: "5151", original: "5151", purchase: LedgerWorld.t0, expires: LedgerWorld.at(day: 30),
            signed: LedgerWorld.at(day: 2))
        base.offerType = 1
        var other = base
        other.offerType = 2
        let entries = try world.entries([world.token(base), world.token(other)])
        let sorted = entries.sorted { $0.head.token.utf8.lexicographicallyPrecedes($1.head.token.utf8) }
        for (first, second) in [(sorted[0], sorted[1]), (sorted[1], sorted[0])] {
            let url = try TestStores.freshPostgreSQLURL()
            let store = try PostgreSQLLedgerStore(url: url)
            let holder = try PostgreSQLConnection(url: url)
            try holder.configureSession()
            try holder.run("BEGIN", [])
            _ = try LedgerOperations(.postgreSQL).append([first], settingCursor: nil, in: holder, appendedAt: 0)
            let done = DispatchSemaphore(value: 0)
            let outcome = Mutex<Result<[AppendOutcome], LedgerError>?>(nil)
            Thread.detachNewThread {
                let result = Result { () throws(LedgerError) in try store.append([second]) }
                outcome.withLock { $0 = result }
                done.signal()
            }
            Thread.sleep(forTimeInterval: 0.5)
            try holder.run("COMMIT", [])
            #expect(done.wait(timeout: .now() + 30) == .success)
            #expect(try outcome.withLock { $0 }?.get().map(\.result) == [.appended])
            #expect(try store.state() == LedgerState.folding([first, second]))
            #expect(try store.state().transactions.values.first?.rank == sorted[1].transactions.first?.rank)
        }
    }

    /// Input: one notificationUUID delivered twice with different bytes (re-signed, carrying another version of its
    /// transaction), in both orders. Expected: the second is a duplicate, yet its nested version is kept when fresher:
    /// both orders give the fold's state.
    @Test("a notification sent again with other bytes still brings its nested items", arguments: StoreKind.available)
    func resignedNotification(kind: StoreKind) throws {
        let world = LedgerWorld.shared
        let uuid = "c0000000-0000-4000-8000-000000000001"
        var older = LedgerWorld.Transaction(
            id: "6161", original: "6161", purchase: LedgerWorld.t0, expires: LedgerWorld.at(day: 30),
            signed: LedgerWorld.at(day: 1))
        var newer = older
        newer.signed = LedgerWorld.at(day: 3)
        newer.expires = LedgerWorld.at(day: 60)
        older.offerType = 1
        let first = try world.notification("DID_RENEW", uuid: uuid, signed: LedgerWorld.at(day: 1), transaction: older)
        let again = try world.notification("DID_RENEW", uuid: uuid, signed: LedgerWorld.at(day: 3), transaction: newer)
        let entries = try world.entries([first, again])
        for order in [entries, entries.reversed()] {
            let store = try TestStores.make(kind)
            let outcomes = try order.map { try store.append([$0])[0].result }
            #expect(outcomes == [.appended, .duplicate])
            #expect(try store.state() == LedgerState.folding(entries))
        }
    }

    /// Input: an account's Sandbox purchase, and a Production purchase of another account with the same
    /// originalTransactionId. Expected: the account's entitlements name the Sandbox purchase only.
    @Test("an account's entitlements never borrow another environment's purchase", arguments: StoreKind.available)
    func accountKeepsItsEnvironment(kind: StoreKind) throws {
        let world = LedgerWorld.shared
        let ledger = Ledger(store: try TestStores.make(kind), verifier: world.verifier)
        let mine = LedgerWorld.Transaction(
            id: "7171", original: "7171", purchase: LedgerWorld.t0, expires: LedgerWorld.at(day: 30),
            signed: LedgerWorld.t0)
        var theirs = mine
        theirs.environment = "Production"
        theirs.account = "11111111-2222-4333-8444-555555555555"
        _ = try ledger.append(token: world.token(mine), source: .device)
        _ = try ledger.append(token: world.token(theirs), source: .device)
        let document = try ledger.entitlements(
            for: .appAccountToken(try #require(mine.account)),
            at: Timestamp(millisecondsSince1970: Double(LedgerWorld.at(day: 1))))
        #expect(document.entitlements.map(\.environment) == ["Sandbox"])
    }

    /// Input: a store whose schema version is negative. Expected: `storeFailed`, no crash.
    @Test("a negative schema version is refused")
    func negativeSchemaVersion() throws {
        let path = TestStores.temporarySQLitePath()
        _ = try SQLiteLedgerStore(path: path)
        try SQLiteConnection(path: path).execute("UPDATE ledger_meta SET value = '-1' WHERE name = 'schema_version'")
        #expect(throws: LedgerError(.storeNotOpened, "")) { _ = try SQLiteLedgerStore(path: path) }
    }
}
