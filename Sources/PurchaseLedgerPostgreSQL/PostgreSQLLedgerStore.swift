import Foundation
import JWSVerify
import PurchaseLedger
import Synchronization

/// The ledger's store on PostgreSQL, for servers that share one database: several processes append the same
/// notifications concurrently and each is stored once (the log's unique key, `INSERT ... ON CONFLICT DO NOTHING`,
/// and the state's rank-guarded upserts, in one transaction per call).
///
/// Each connection sets `synchronous_commit = on`, so ``append(_:)`` returns only after the server has flushed its
/// commit to its write-ahead log (durable as long as the server runs with `fsync = on`, its default). A connection
/// lost mid-call rolls back on the server and fails with `LedgerError.storeUnavailable`; the next call
/// reconnects.
public final class PostgreSQLLedgerStore: LedgerStore {
    /// Held only inside ``lock``: one caller at a time uses the connection, which is not thread-safe.
    private nonisolated(unsafe) let connection: PostgreSQLConnection
    private let lock = Mutex(())
    private let operations = LedgerOperations(.postgreSQL)

    /// Connects and brings the schema up to date (under an advisory lock, so that concurrent first opens do not
    /// race).
    ///
    /// - Parameter url: A `postgresql://` URL (libpq's syntax: user, password, host, port, database, parameters).
    /// - Throws: `LedgerError.storeNotOpened` when the server cannot be reached or refuses,
    ///   `LedgerError.schemaTooNew` when the schema is newer than this version knows.
    public init(url: String) throws(LedgerError) {
        let opened = try PostgreSQLConnection(url: url)
        try opened.configureSession()
        try Self.transaction(opened) { () throws(LedgerError) in
            // One key for every JWSVerify ledger migration: "JWSLedgr" as a 64-bit integer.
            try opened.run("SELECT pg_advisory_xact_lock(5356392785364855922)", [])
            try LedgerOperations(.postgreSQL).migrate(opened, location: "the PostgreSQL database")
        }
        connection = opened
    }

    /// Appends entries and saves a cursor in one transaction, durable on return (`LedgerStore.append(_:settingCursor:)`).
    public func append(
        _ entries: [LedgerEntry], settingCursor cursor: LedgerCursor?
    ) throws(LedgerError) -> [AppendOutcome] {
        guard !entries.isEmpty || cursor != nil else { return [] }
        let appendedAt = Date().timeIntervalSince1970 * 1000
        return try transaction { connection throws(LedgerError) in
            try operations.append(entries, settingCursor: cursor, in: connection, appendedAt: appendedAt)
        }
    }

    /// The records of the purchases a query selects (`LedgerStore.records(for:environment:currentAt:)`).
    public func records(
        for query: EntitlementQuery, environment: String?, currentAt time: Timestamp
    ) throws(LedgerError) -> (transactions: [TransactionRecord], renewals: [RenewalRecord]) {
        try transaction(reading: true) { connection throws(LedgerError) in
            try operations.records(for: query, environment: environment, currentAt: time, in: connection)
        }
    }

    /// The log after a position (`LedgerStore.logItems(after:limit:)`).
    public func logItems(after position: Int64, limit: Int) throws(LedgerError) -> [LoggedItem] {
        try transaction(reading: true) { connection throws(LedgerError) in
            try operations.logItems(after: position, limit: limit, in: connection)
        }
    }

    /// The whole stored state (`LedgerStore.state()`).
    public func state() throws(LedgerError) -> LedgerState {
        try transaction(reading: true) { connection throws(LedgerError) in try operations.state(in: connection) }
    }

    /// Replaces the whole state in one transaction (`LedgerStore.replaceState(with:ifLogCountIs:)`).
    public func replaceState(with state: LedgerState, ifLogCountIs logCount: Int64?) throws(LedgerError) {
        try transaction { connection throws(LedgerError) in
            // Appends wait until the state is replaced: none can slip between the count, the delete and the inserts.
            try connection.run(
                "LOCK TABLE ledger_log, ledger_transactions, ledger_renewals IN SHARE ROW EXCLUSIVE MODE", [])
            try operations.replaceState(with: state, ifLogCountIs: logCount, in: connection)
        }
    }

    /// A saved cursor (`LedgerStore.cursor(named:)`).
    public func cursor(named name: String) throws(LedgerError) -> String? {
        try transaction(reading: true) { connection throws(LedgerError) in
            try operations.cursor(named: name, in: connection)
        }
    }

    /// Saves a cursor durably (`LedgerStore.setCursor(named:to:)`).
    public func setCursor(named name: String, to value: String?) throws(LedgerError) {
        try transaction { connection throws(LedgerError) in
            try operations.setCursor(named: name, to: value, in: connection)
        }
    }

    /// How many items the log holds (`LedgerStore.logCount()`).
    public func logCount() throws(LedgerError) -> Int64 {
        try transaction(reading: true) { connection throws(LedgerError) in try operations.logCount(in: connection) }
    }

    /// A random sample of an environment's subscriptions (`LedgerStore.sampleSubscriptions(environment:limit:)`).
    public func sampleSubscriptions(environment: String, limit: Int) throws(LedgerError) -> [String] {
        try transaction(reading: true) { connection throws(LedgerError) in
            try operations.sampleSubscriptions(environment: environment, limit: limit, in: connection)
        }
    }

    /// Runs `body` in one transaction on the connection, reconnecting first if it was lost: READ COMMITTED for a
    /// write (each statement sees what committed before it), one REPEATABLE READ snapshot for a read (its queries
    /// see one state, never a transaction's records beside another's renewal infos).
    private func transaction<T: Sendable>(
        reading: Bool = false, _ body: (PostgreSQLConnection) throws(LedgerError) -> T
    ) throws(LedgerError) -> T {
        try lock.withLock { _ throws(LedgerError) -> T in
            try connection.reconnectIfNeeded()
            return try Self.transaction(
                connection, begin: reading ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN"
            ) { () throws(LedgerError) -> T in try body(connection) }
        }
    }

    private static func transaction<T>(
        _ connection: PostgreSQLConnection, begin: String = "BEGIN", _ body: () throws(LedgerError) -> T
    ) throws(LedgerError) -> T {
        try connection.run(begin, [])
        do throws(LedgerError) {
            let value = try body()
            try connection.run("COMMIT", [])
            return value
        } catch {
            _ = try? connection.run("ROLLBACK", [])
            throw error
        }
    }
}
