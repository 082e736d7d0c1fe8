import Foundation
import JWSVerify

/// A database connection as the ledger's operations use it: parameterised statements and queries. The store that
/// owns it opens and ends the transaction around each operation.
package protocol SQLSession: AnyObject {
    /// Runs a statement that returns no rows; returns how many rows it changed.
    @discardableResult
    func run(_ sql: String, _ values: [SQLValue]) throws(LedgerError) -> Int
    /// Runs a query and hands each row to `row`.
    func query(_ sql: String, _ values: [SQLValue], _ row: (any SQLRow) -> Void) throws(LedgerError)
}

/// What both stores do inside a transaction, written once over ``LedgerSQL``: a store differs only in how it
/// connects, begins, commits and retries.
package struct LedgerOperations: Sendable {
    package let sql: LedgerSQL
    /// The statements run for every item, made once (a store's connection also keeps them prepared by text).
    private let insertItem: String, keepTransaction: LedgerSQL.KeepFresher, keepRenewal: LedgerSQL.KeepFresher
    /// The entitlements queries, of a purchase and of an account.
    private let transactionsOf: (purchase: String, account: String), renewalsOf: (purchase: String, account: String)

    package init(_ dialect: SQLDialect) {
        sql = LedgerSQL(dialect)
        insertItem = sql.insertItem
        keepTransaction = sql.keepFresherTransaction
        keepRenewal = sql.keepFresherRenewal
        transactionsOf = (
            sql.selectRecords(transactions: true, ofAccount: false),
            sql.selectRecords(transactions: true, ofAccount: true)
        )
        renewalsOf = (
            sql.selectRecords(transactions: false, ofAccount: false),
            sql.selectRecords(transactions: false, ofAccount: true)
        )
    }

    /// Brings the schema to ``LedgerSQL/schemaVersion``, inside the caller's transaction.
    ///
    /// - Throws: ``LedgerError/Code/schemaTooNew`` when the store's version is newer.
    package func migrate(_ session: some SQLSession, location: String) throws(LedgerError) {
        try session.run(sql.createMeta, [])
        var stored: SQLValue = .null
        try session.query(sql.selectSchemaVersion, []) { stored = $0.value(0) }
        let version: Int
        switch stored {
        case .null: version = 0
        case .text(let text):
            guard let number = Int(text) else {
                throw LedgerError(.storeFailed, "\(location) has a schema version that is not a number")
            }
            version = number
        case .integer(let number): version = Int(number)
        default: throw LedgerError(.storeFailed, "\(location) has a schema version that is not a number")
        }
        guard version >= 0 else {
            throw LedgerError(.storeFailed, "\(location) has a negative schema version")
        }
        guard version <= LedgerSQL.schemaVersion else {
            throw LedgerError(
                .schemaTooNew,
                "\(location) has ledger schema version \(version); this version of JWSVerify knows up to"
                    + " \(LedgerSQL.schemaVersion): upgrade it before opening this store")
        }
        guard version < LedgerSQL.schemaVersion else { return }
        for migration in sql.migrations[version...] {
            for statement in migration { try session.run(statement, []) }
        }
        try session.run(sql.upsertSchemaVersion, [.text(String(LedgerSQL.schemaVersion))])
    }

    /// Appends entries and saves a cursor inside the caller's transaction (``LedgerStore/append(_:settingCursor:)``).
    package func append(
        _ entries: [LedgerEntry], settingCursor cursor: LedgerCursor?, in session: some SQLSession, appendedAt: Double
    ) throws(LedgerError) -> [AppendOutcome] {
        var outcomes: [AppendOutcome] = []
        outcomes.reserveCapacity(entries.count)
        for entry in entries {
            let head = entry.head
            // A notification seen before may come again signed anew (the same notificationUUID, other bytes): its
            // nested items and records are still kept, as each is idempotent; the entry is reported a duplicate.
            let appended = try session.run(insertItem, sql.insertItemValues(head, appendedAt: appendedAt)) > 0
            for item in entry.items.dropFirst() {
                try session.run(insertItem, sql.insertItemValues(item, appendedAt: appendedAt))
            }
            for record in entry.transactions { try keep(sql.transactionValues(record), keepTransaction, in: session) }
            for record in entry.renewals { try keep(sql.renewalValues(record), keepRenewal, in: session) }
            outcomes.append(AppendOutcome(key: head.key, result: appended ? .appended : .duplicate))
        }
        if let cursor { try setCursor(named: cursor.name, to: cursor.value, in: session) }
        return outcomes
    }

    /// Keeps a record's values when fresher than the held row (``LedgerSQL/KeepFresher``).
    private func keep(
        _ values: [SQLValue], _ statements: LedgerSQL.KeepFresher, in session: some SQLSession
    ) throws(LedgerError) {
        guard try session.run(statements.insert, values) == 0, let lock = statements.lock,
            let update = statements.update
        else { return }
        try session.run(lock, Array(values.prefix(2)))
        try session.run(update, values)
    }

    /// ``LedgerStore/records(for:environment:currentAt:)``.
    package func records(
        for query: EntitlementQuery, environment: String?, currentAt time: Timestamp, in session: some SQLSession
    ) throws(LedgerError) -> (transactions: [TransactionRecord], renewals: [RenewalRecord]) {
        let key: String
        let ofAccount: Bool
        switch query {
        case .originalTransactionId(let id): (key, ofAccount) = (id, false)
        case .appAccountToken(let token): (key, ofAccount) = (token, true)
        }
        let values: [SQLValue] = [
            .text(key), environment.map(SQLValue.text) ?? .null, .double(time.millisecondsSince1970),
        ]
        var transactions: [TransactionRecord] = []
        var renewals: [RenewalRecord] = []
        var unreadable = false
        try session.query(ofAccount ? transactionsOf.account : transactionsOf.purchase, values) { row in
            if let record = sql.transactionRecord(row, ranked: false) {
                transactions.append(record)
            } else {
                unreadable = true
            }
        }
        try session.query(ofAccount ? renewalsOf.account : renewalsOf.purchase, Array(values.prefix(2))) { row in
            if let record = sql.renewalRecord(row, ranked: false) { renewals.append(record) } else { unreadable = true }
        }
        if unreadable { throw Self.unreadableRow }
        return (transactions, renewals)
    }

    /// ``LedgerStore/state()``.
    package func state(in session: some SQLSession) throws(LedgerError) -> LedgerState {
        var state = LedgerState()
        var unreadable = false
        try session.query(sql.selectAllTransactions, []) { row in
            if let record = sql.transactionRecord(row) {
                state.transactions[record.key] = record
            } else {
                unreadable = true
            }
        }
        try session.query(sql.selectAllRenewals, []) { row in
            if let record = sql.renewalRecord(row) { state.renewals[record.key] = record } else { unreadable = true }
        }
        if unreadable { throw Self.unreadableRow }
        return state
    }

    /// ``LedgerStore/replaceState(with:ifLogCountIs:)``, inside the caller's transaction (which keeps appends out
    /// until it ends).
    package func replaceState(
        with state: LedgerState, ifLogCountIs expected: Int64?, in session: some SQLSession
    ) throws(LedgerError) {
        if let expected, try logCount(in: session) != expected {
            throw LedgerError(
                .storeUnavailable, "the log changed while the state was rebuilt from it: rebuild again")
        }
        for statement in sql.deleteState { try session.run(statement, []) }
        for record in state.transactions.values {
            try session.run(sql.insertTransaction, sql.transactionValues(record))
        }
        for record in state.renewals.values { try session.run(sql.insertRenewal, sql.renewalValues(record)) }
    }

    /// ``LedgerStore/logItems(after:limit:)``.
    package func logItems(
        after position: Int64, limit: Int, in session: some SQLSession
    ) throws(LedgerError) -> [LoggedItem] {
        var items: [LoggedItem] = []
        var unreadable = false
        try session.query(sql.selectItems, [.integer(position), .integer(Int64(limit))]) { row in
            if let item = sql.loggedItem(row) { items.append(item) } else { unreadable = true }
        }
        if unreadable { throw Self.unreadableRow }
        return items
    }

    /// ``LedgerStore/logCount()``.
    package func logCount(in session: some SQLSession) throws(LedgerError) -> Int64 {
        var count: Int64 = 0
        try session.query(sql.countItems, []) { row in
            if case .integer(let value) = row.value(0) { count = value }
        }
        return count
    }

    /// ``LedgerStore/cursor(named:)``.
    package func cursor(named name: String, in session: some SQLSession) throws(LedgerError) -> String? {
        var value: String?
        try session.query(sql.selectCursor, [.text(name)]) { row in
            if case .text(let text) = row.value(0) { value = text }
        }
        return value
    }

    /// ``LedgerStore/setCursor(named:to:)``, inside the caller's transaction.
    package func setCursor(named name: String, to value: String?, in session: some SQLSession) throws(LedgerError) {
        if let value {
            try session.run(
                sql.upsertCursor, [.text(name), .text(value), .double(Date().timeIntervalSince1970 * 1000)])
        } else {
            try session.run(sql.deleteCursor, [.text(name)])
        }
    }

    /// ``LedgerStore/sampleSubscriptions(environment:limit:)``.
    package func sampleSubscriptions(
        environment: String, limit: Int, in session: some SQLSession
    ) throws(LedgerError) -> [String] {
        var ids: [String] = []
        try session.query(sql.sampleSubscriptions, [.text(environment), .integer(Int64(max(0, limit)))]) { row in
            if case .text(let id) = row.value(0) { ids.append(id) }
        }
        return ids
    }

    private static let unreadableRow = LedgerError(
        .storeFailed, "the store holds a row whose columns do not have the ledger's types")
}
