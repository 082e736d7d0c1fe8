import Foundation
import JWSVerify
import Synchronization

/// The ledger's embedded store: one SQLite database file (the system `libsqlite3`).
///
/// The database is in WAL mode with `synchronous=FULL`: a commit is on disk (the WAL file synced) before
/// ``append(_:)`` returns, so an answer that says "stored" survives a crash or a power loss of the machine (SQLite's
/// default `NORMAL` in WAL mode may lose the last commits on a power loss). Each write is one `BEGIN IMMEDIATE`
/// transaction, so processes that share the file take turns (a writer waits up to ``busyTimeout`` for another),
/// and readers never block. Keep the file on a local disk: SQLite's locks are not reliable on network file systems.
///
/// One connection, lent to one caller at a time: calls from several threads are serialized.
public final class SQLiteLedgerStore: LedgerStore {
    /// How long a write waits for another process's write to finish before failing with
    /// ``LedgerError/Code/storeUnavailable``.
    public static let busyTimeout: Duration = .seconds(10)

    /// Held only inside ``lock``: one caller at a time uses the connection, which is not thread-safe.
    private nonisolated(unsafe) let connection: SQLiteConnection
    private let lock = Mutex(())
    private let operations = LedgerOperations(.sqlite)
    /// The file, as messages name it.
    public let path: String

    /// Opens the store at `path`, creating the file and its schema when missing and migrating an older schema.
    ///
    /// - Parameters:
    ///   - path: The database file (`:memory:` for a store that lives only as long as this object).
    ///   - createIfMissing: Create the file when there is none (a reader that only asks passes false, so that a
    ///     mistyped path is an error rather than a new, empty ledger).
    /// - Throws: ``LedgerError/Code/storeNotOpened`` when the file cannot be opened, is missing (without
    ///   `createIfMissing`) or is not an SQLite database, ``LedgerError/Code/schemaTooNew`` when its schema is newer
    ///   than this version knows, or another store error.
    public init(path: String, createIfMissing: Bool = true) throws(LedgerError) {
        self.path = path
        let opened = try SQLiteConnection(path: path, create: createIfMissing)
        let location = "sqlite:" + EscapedText.escaped(path)
        do {
            try opened.execute("PRAGMA busy_timeout = \(Self.busyTimeout.components.seconds * 1000)")
            try opened.execute("PRAGMA journal_mode = WAL")
            try opened.execute("PRAGMA synchronous = FULL")
            try Self.transaction(opened) { () throws(LedgerError) in
                try LedgerOperations(.sqlite).migrate(opened, location: location)
            }
        } catch let error where error.code == .storeFailed {
            // A file that is not a database fails at its first statement: it was never opened as a store.
            throw LedgerError(.storeNotOpened, "cannot open \(location): \(error.message)")
        }
        connection = opened
    }

    /// Appends entries and saves a cursor in one transaction, durable on return (``LedgerStore/append(_:settingCursor:)``).
    public func append(
        _ entries: [LedgerEntry], settingCursor cursor: LedgerCursor?
    ) throws(LedgerError) -> [AppendOutcome] {
        guard !entries.isEmpty || cursor != nil else { return [] }
        let appendedAt = Date().timeIntervalSince1970 * 1000
        return try write { connection throws(LedgerError) in
            try operations.append(entries, settingCursor: cursor, in: connection, appendedAt: appendedAt)
        }
    }

    /// The records of the purchases a query selects (``LedgerStore/records(for:environment:currentAt:)``).
    public func records(
        for query: EntitlementQuery, environment: String?, currentAt time: Timestamp
    ) throws(LedgerError) -> (transactions: [TransactionRecord], renewals: [RenewalRecord]) {
        try read { connection throws(LedgerError) in
            try operations.records(for: query, environment: environment, currentAt: time, in: connection)
        }
    }

    /// The log after a position (``LedgerStore/logItems(after:limit:)``).
    public func logItems(after position: Int64, limit: Int) throws(LedgerError) -> [LoggedItem] {
        try read { connection throws(LedgerError) in
            try operations.logItems(after: position, limit: limit, in: connection)
        }
    }

    /// The whole stored state (``LedgerStore/state()``).
    public func state() throws(LedgerError) -> LedgerState {
        try read { connection throws(LedgerError) in try operations.state(in: connection) }
    }

    /// Replaces the whole state in one transaction (``LedgerStore/replaceState(with:ifLogCountIs:)``).
    public func replaceState(with state: LedgerState, ifLogCountIs logCount: Int64?) throws(LedgerError) {
        try write { connection throws(LedgerError) in
            try operations.replaceState(with: state, ifLogCountIs: logCount, in: connection)
        }
    }

    /// A saved cursor (``LedgerStore/cursor(named:)``).
    public func cursor(named name: String) throws(LedgerError) -> String? {
        try read { connection throws(LedgerError) in try operations.cursor(named: name, in: connection) }
    }

    /// Saves a cursor durably (``LedgerStore/setCursor(named:to:)``).
    public func setCursor(named name: String, to value: String?) throws(LedgerError) {
        try write { connection throws(LedgerError) in
            try operations.setCursor(named: name, to: value, in: connection)
        }
    }

    /// How many items the log holds (``LedgerStore/logCount()``).
    public func logCount() throws(LedgerError) -> Int64 {
        try read { connection throws(LedgerError) in try operations.logCount(in: connection) }
    }

    /// A random sample of an environment's subscriptions (``LedgerStore/sampleSubscriptions(environment:limit:)``).
    public func sampleSubscriptions(environment: String, limit: Int) throws(LedgerError) -> [String] {
        try read { connection throws(LedgerError) in
            try operations.sampleSubscriptions(environment: environment, limit: limit, in: connection)
        }
    }

    /// SQLite's plan (`EXPLAIN QUERY PLAN`) of each query an entitlements answer runs, one line per step: what the
    /// benchmark prints and a test reads to show that every one searches an index.
    package func entitlementQueryPlans() throws(LedgerError) -> [String] {
        let sql = operations.sql
        let queries: [(String, [SQLValue])] = [true, false].flatMap { transactions in
            [true, false].map { ofAccount in
                (
                    sql.selectRecords(transactions: transactions, ofAccount: ofAccount),
                    [.text("1"), .null] + (transactions ? [.double(0)] : [])
                )
            }
        }
        var lines: [String] = []
        try read { connection throws(LedgerError) in
            for (query, values) in queries {
                try connection.query("EXPLAIN QUERY PLAN " + query, values) { row in
                    if case .text(let detail) = row.value(3) { lines.append(detail) }
                }
            }
        }
        return lines
    }

    // MARK: Transactions

    /// Runs `body` in one write transaction (`BEGIN IMMEDIATE` ... `COMMIT`), rolled back when it throws.
    private func write<T: Sendable>(
        _ body: (SQLiteConnection) throws(LedgerError) -> T
    ) throws(LedgerError) -> T {
        try lock.withLock { _ throws(LedgerError) -> T in
            try Self.transaction(connection) { () throws(LedgerError) -> T in try body(connection) }
        }
    }

    /// Runs `body` in one read transaction, so that its queries see one snapshot.
    private func read<T: Sendable>(
        _ body: (SQLiteConnection) throws(LedgerError) -> T
    ) throws(LedgerError) -> T {
        try lock.withLock { _ throws(LedgerError) -> T in
            try connection.execute("BEGIN")
            do throws(LedgerError) {
                let value = try body(connection)
                try connection.execute("COMMIT")
                return value
            } catch {
                try? connection.execute("ROLLBACK")
                throw error
            }
        }
    }

    private static func transaction<T>(
        _ connection: SQLiteConnection, _ body: () throws(LedgerError) -> T
    ) throws(LedgerError) -> T {
        try connection.execute("BEGIN IMMEDIATE")
        do throws(LedgerError) {
            let value = try body()
            try connection.execute("COMMIT")
            return value
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }
}
