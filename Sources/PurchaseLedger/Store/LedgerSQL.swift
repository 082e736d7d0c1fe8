import JWSVerify

/// A value bound to a statement's parameter or read from a row.
package enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case double(Double)
    case text(String)
    case blob([UInt8])
}

/// A result row, read by column index.
package protocol SQLRow {
    /// The column's value: text, integer, double or blob as stored, `.null` when NULL.
    func value(_ column: Int) -> SQLValue
}

/// The two SQL dialects the stores speak.
package enum SQLDialect: Sendable {
    case sqlite
    case postgreSQL
}

/// The ledger's SQL, written once for both stores: the schema's migrations, each statement, the values bound to it
/// and how a row becomes a record. Every statement is parameterised; nothing from an item is spliced into SQL text.
package struct LedgerSQL: Sendable {
    package let dialect: SQLDialect

    package init(_ dialect: SQLDialect) { self.dialect = dialect }

    /// The parameter placeholder `n` (1-based).
    private func p(_ n: Int) -> String { dialect == .sqlite ? "?\(n)" : "$\(n)" }
    /// An optional text parameter: PostgreSQL cannot infer the type of a NULL that is only compared with NULL.
    private func optionalText(_ n: Int) -> String { dialect == .sqlite ? "?\(n)" : "$\(n)::text" }
    private func placeholders(_ count: Int) -> String { (1...count).map(p).joined(separator: ", ") }
    private var blob: String { dialect == .sqlite ? "BLOB" : "BYTEA" }
    private var real: String { dialect == .sqlite ? "REAL" : "DOUBLE PRECISION" }
    private var integer: String { dialect == .sqlite ? "INTEGER" : "BIGINT" }

    // MARK: Schema

    /// The schema version this code writes and reads.
    package static let schemaVersion = 2

    /// Creates the table that holds the schema version (run before reading it).
    package var createMeta: String {
        "CREATE TABLE IF NOT EXISTS ledger_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)"
    }

    /// Reads the schema version (no row: a new store).
    package var selectSchemaVersion: String { "SELECT value FROM ledger_meta WHERE name = 'schema_version'" }

    /// Writes the schema version.
    package var upsertSchemaVersion: String {
        "INSERT INTO ledger_meta (name, value) VALUES ('schema_version', \(p(1)))"
            + " ON CONFLICT (name) DO UPDATE SET value = excluded.value"
    }

    /// The statements of each migration: `migrations[n - 1]` takes the schema from version n - 1 to n. A store runs
    /// those above its version in one transaction with the version's update.
    package var migrations: [[String]] {
        let serial = dialect == .sqlite ? "INTEGER PRIMARY KEY AUTOINCREMENT" : "BIGSERIAL PRIMARY KEY"
        return [
            [
                """
                CREATE TABLE ledger_log (
                    position \(serial),
                    item_key TEXT NOT NULL UNIQUE,
                    kind TEXT NOT NULL,
                    environment TEXT NOT NULL,
                    source TEXT NOT NULL,
                    parent_key TEXT,
                    notification_uuid TEXT,
                    transaction_id TEXT,
                    original_transaction_id TEXT,
                    app_account_token TEXT,
                    product_id TEXT,
                    signed_date \(real),
                    token TEXT NOT NULL,
                    appended_at \(real) NOT NULL)
                """,
                "CREATE INDEX ledger_log_original ON ledger_log (original_transaction_id)",
                """
                CREATE TABLE ledger_transactions (
                    environment TEXT NOT NULL,
                    transaction_id TEXT NOT NULL,
                    original_transaction_id TEXT NOT NULL,
                    app_account_token TEXT,
                    product_id TEXT,
                    product_type TEXT,
                    purchase_date \(real),
                    expires_date \(real),
                    revocation_date \(real),
                    revocation_reason \(integer),
                    revocation_type TEXT,
                    ownership_type TEXT,
                    quantity \(integer),
                    subscription_group TEXT,
                    signed_date \(real),
                    rank \(blob) NOT NULL,
                    item_key TEXT NOT NULL,
                    PRIMARY KEY (environment, transaction_id))
                """,
                "CREATE INDEX ledger_transactions_original ON ledger_transactions (original_transaction_id)",
                "CREATE INDEX ledger_transactions_account ON ledger_transactions (app_account_token)",
                """
                CREATE TABLE ledger_renewals (
                    environment TEXT NOT NULL,
                    original_transaction_id TEXT NOT NULL,
                    product_id TEXT,
                    auto_renew_product_id TEXT,
                    auto_renew_status \(integer),
                    is_in_billing_retry \(integer),
                    grace_period_expires_date \(real),
                    expiration_intent \(integer),
                    app_account_token TEXT,
                    signed_date \(real),
                    rank \(blob) NOT NULL,
                    item_key TEXT NOT NULL,
                    PRIMARY KEY (environment, original_transaction_id))
                """,
                "CREATE INDEX ledger_renewals_original ON ledger_renewals (original_transaction_id)",
                "CREATE INDEX ledger_renewals_account ON ledger_renewals (app_account_token)",
                "CREATE TABLE ledger_cursors (name TEXT PRIMARY KEY, value TEXT NOT NULL, updated_at \(real) NOT NULL)",
            ],
            // 2: indexes that answer an entitlements query from the index alone until its last rows: an account's
            // purchases (token, environment, originalTransactionId) and each purchase's latest purchase date at T.
            [
                "CREATE INDEX ledger_transactions_account_purchase ON ledger_transactions"
                    + " (app_account_token, environment, original_transaction_id)",
                "DROP INDEX ledger_transactions_account",
                "CREATE INDEX ledger_renewals_account_purchase ON ledger_renewals"
                    + " (app_account_token, environment, original_transaction_id)",
                "DROP INDEX ledger_renewals_account",
                "CREATE INDEX ledger_transactions_purchase_date ON ledger_transactions"
                    + " (original_transaction_id, environment, purchase_date, product_type)",
                "DROP INDEX ledger_transactions_original",
            ],
        ]
    }

    // MARK: Log

    /// Inserts an item unless its key is in the log; one row changed when it was new.
    package var insertItem: String {
        """
        INSERT INTO ledger_log (item_key, kind, environment, source, parent_key, notification_uuid, transaction_id,
            original_transaction_id, app_account_token, product_id, signed_date, token, appended_at)
        VALUES (\(placeholders(13))) ON CONFLICT (item_key) DO NOTHING
        """
    }

    /// The values of ``insertItem``.
    package func insertItemValues(_ item: LedgerItem, appendedAt: Double) -> [SQLValue] {
        [
            .text(item.key), .text(item.kind.rawValue), .text(item.environment), .text(item.source.rawValue),
            text(item.parentKey), text(item.notificationUUID), text(item.transactionId),
            text(item.originalTransactionId), text(item.appAccountToken), text(item.productId), time(item.signedDate),
            .text(item.token), .double(appendedAt),
        ]
    }

    /// Reads the log after a position, in order.
    package var selectItems: String {
        "SELECT position, item_key, kind, environment, source, token FROM ledger_log WHERE position > \(p(1))"
            + " ORDER BY position LIMIT \(p(2))"
    }

    /// A row of ``selectItems`` as an item, nil when a column has the wrong type.
    package func loggedItem(_ row: some SQLRow) -> LoggedItem? {
        guard case .integer(let position) = row.value(0), case .text(let key) = row.value(1),
            case .text(let kind) = row.value(2), case .text(let environment) = row.value(3),
            case .text(let source) = row.value(4), case .text(let token) = row.value(5)
        else { return nil }
        return LoggedItem(
            position: position, key: key, kind: kind, environment: environment, source: source, token: token)
    }

    /// Counts the log's items.
    package var countItems: String { "SELECT COUNT(*) FROM ledger_log" }

    // MARK: State

    private static let transactionColumns = [
        "environment", "transaction_id", "original_transaction_id", "app_account_token", "product_id", "product_type",
        "purchase_date", "expires_date", "revocation_date", "revocation_reason", "revocation_type", "ownership_type",
        "quantity", "subscription_group", "signed_date", "rank", "item_key",
    ]

    private static let renewalColumns = [
        "environment", "original_transaction_id", "product_id", "auto_renew_product_id", "auto_renew_status",
        "is_in_billing_retry", "grace_period_expires_date", "expiration_intent", "app_account_token", "signed_date",
        "rank", "item_key",
    ]

    /// How a store keeps a state record only when it is fresher than the one held for its key: the fold's rule
    /// (``LedgerState/apply(_:)-(TransactionRecord)``) in SQL, with every record's values in column order.
    package struct KeepFresher: Sendable {
        /// SQLite (one writer at a time): one upsert, `INSERT ... ON CONFLICT DO UPDATE ... WHERE fresher`.
        /// PostgreSQL: `INSERT ... ON CONFLICT DO NOTHING`; when a row was there, ``lock`` (`SELECT ... FOR UPDATE`
        /// of its key, the record's first two values), then ``update`` (`UPDATE ... WHERE fresher`): a statement of
        /// its own after the lock, so that its snapshot holds the log row of a writer that committed the held
        /// version while this one waited (one upsert's subqueries would not see it, and a tie would keep the first
        /// committed instead of the larger token).
        package let insert: String
        /// PostgreSQL: locks the held row.
        package let lock: String?
        /// PostgreSQL: replaces the held row when the record is fresher.
        package let update: String?
    }

    /// The freshness rule: the new rank (its date and revocation) is larger than the held row's, or equal with a token
    /// that compares larger as bytes (PostgreSQL: in the "C" collation), read from the log, where every item is
    /// inserted before the records it brings.
    private func fresher(rank: String, itemKey: String, than table: String) -> String {
        let bytes = dialect == .sqlite ? "" : " COLLATE \"C\""
        func token(_ key: String) -> String { "(SELECT token FROM ledger_log WHERE item_key = \(key))\(bytes)" }
        return
            "(\(rank) > \(table).rank OR (\(rank) = \(table).rank AND \(token(itemKey)) > \(token("\(table).item_key"))))"
    }

    /// Inserts a row of a state table (its key is its first two columns; `rank` holds the rank's date and
    /// revocation, `item_key` names the log item whose token is the rest of the rank).
    private func insert(into table: String, _ columns: [String]) -> String {
        "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(placeholders(columns.count)))"
    }

    /// The statements that keep a record of `table` only when it is fresher (``KeepFresher``).
    private func keepFresher(_ table: String, _ columns: [String]) -> KeepFresher {
        let key = "\(columns[0]) = \(p(1)) AND \(columns[1]) = \(p(2))"
        guard dialect == .postgreSQL else {
            let updates = columns.dropFirst(2).map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
            return KeepFresher(
                insert: insert(into: table, columns) + " ON CONFLICT (\(columns[0]), \(columns[1])) DO UPDATE SET"
                    + " \(updates) WHERE " + fresher(rank: "excluded.rank", itemKey: "excluded.item_key", than: table),
                lock: nil, update: nil)
        }
        let rank = p(columns.count - 1), itemKey = p(columns.count)
        let updates = columns.indices.dropFirst(2).map { "\(columns[$0]) = \(p($0 + 1))" }.joined(separator: ", ")
        return KeepFresher(
            insert: insert(into: table, columns) + " ON CONFLICT (\(columns[0]), \(columns[1])) DO NOTHING",
            lock: "SELECT 1 FROM \(table) WHERE \(key) FOR UPDATE",
            update: "UPDATE \(table) SET \(updates) WHERE \(key) AND "
                + fresher(rank: "\(rank)::bytea", itemKey: "\(itemKey)::text", than: table))
    }

    /// Keeps a transaction record when none is held for its key or it is fresher than the held one.
    package var keepFresherTransaction: KeepFresher { keepFresher("ledger_transactions", Self.transactionColumns) }

    /// Keeps a renewal record when none is held for its key or it is fresher than the held one.
    package var keepFresherRenewal: KeepFresher { keepFresher("ledger_renewals", Self.renewalColumns) }

    /// Writes a transaction record whatever is held (a rebuild's repair, into emptied tables).
    package var insertTransaction: String { insert(into: "ledger_transactions", Self.transactionColumns) }

    /// The values of a transaction record, in column order.
    package func transactionValues(_ record: TransactionRecord) -> [SQLValue] {
        [
            .text(record.environment), .text(record.transactionId), .text(record.originalTransactionId),
            text(record.appAccountToken), text(record.productId), text(record.productType), time(record.purchaseDate),
            time(record.expiresDate), time(record.revocationDate), number(record.revocationReason),
            text(record.revocationType), text(record.ownershipType), number(record.quantity),
            text(record.subscriptionGroupIdentifier), time(record.signedDate),
        ] + rankValues(record.rank)
    }

    /// Writes a renewal record whatever is held.
    package var insertRenewal: String { insert(into: "ledger_renewals", Self.renewalColumns) }

    /// The values of a renewal record, in column order.
    package func renewalValues(_ record: RenewalRecord) -> [SQLValue] {
        [
            .text(record.environment), .text(record.originalTransactionId), text(record.productId),
            text(record.autoRenewProductId), number(record.autoRenewStatus),
            record.isInBillingRetryPeriod.map(boolean) ?? .null, time(record.gracePeriodExpiresDate),
            number(record.expirationIntent), text(record.appAccountToken), time(record.signedDate),
        ] + rankValues(record.rank)
    }

    /// Every transaction record.
    package var selectAllTransactions: String { selectRanked("ledger_transactions", Self.transactionColumns) }
    /// Every renewal record.
    package var selectAllRenewals: String { selectRanked("ledger_renewals", Self.renewalColumns) }

    /// Every row of a state table with its rank's token from the log, in place of the item key.
    private func selectRanked(_ table: String, _ columns: [String]) -> String {
        let selected = columns.dropLast().map { "s.\($0)" } + ["l.token"]
        return "SELECT \(selected.joined(separator: ", ")) FROM \(table) s JOIN ledger_log l ON l.item_key = s.item_key"
    }
    /// Empties the state (a rebuild's repair).
    package var deleteState: [String] { ["DELETE FROM ledger_transactions", "DELETE FROM ledger_renewals"] }

    /// The state's records of the purchases a query selects, without their ranks (which hold the tokens' bytes, and
    /// an entitlements answer compares no versions): of one `originalTransactionId` (parameter 1), or of every
    /// purchase whose transactions or renewal infos carry an `appAccountToken` (parameter 1); in any environment or
    /// in one (parameter 2, NULL for any).
    ///
    /// Renewal infos: every one of those purchases. Transactions: of each purchase only those that can be its
    /// current transaction at T (parameter 3): the ones with its latest `purchaseDate` at or before T, consumables
    /// left out. `EntitlementEvaluation` still decides among them (a tie on the date); the rows left out are ones
    /// it would pass over.
    package func selectRecords(transactions: Bool, ofAccount: Bool) -> String {
        let columns = (transactions ? Self.transactionColumns : Self.renewalColumns).dropLast(2)
        func environment(_ qualifier: String = "") -> String {
            "(\(optionalText(2)) IS NULL OR \(qualifier)environment = \(optionalText(2)))"
        }
        let selected = columns.map { "s.\($0)" }.joined(separator: ", ")
        // An account's purchases are its (environment, originalTransactionId) pairs (SQLite searches no index for a
        // row value IN a compound subquery, so they are joined).
        let account =
            "(SELECT environment, original_transaction_id FROM ledger_transactions WHERE app_account_token = \(p(1))"
            + " AND \(environment()) UNION SELECT environment, original_transaction_id FROM ledger_renewals WHERE"
            + " app_account_token = \(p(1)) AND \(environment())) p"
        func ofPurchases(_ table: String, _ alias: String) -> String {
            ofAccount
                ? "\(account) JOIN \(table) \(alias) ON \(alias).environment = p.environment AND"
                    + " \(alias).original_transaction_id = p.original_transaction_id"
                : "\(table) \(alias) WHERE \(alias).original_transaction_id = \(p(1)) AND \(environment(alias + "."))"
        }
        guard transactions else { return "SELECT \(selected) FROM \(ofPurchases("ledger_renewals", "s"))" }
        func kept(_ alias: String) -> String {
            "(\(alias).product_type IS NULL OR \(alias).product_type <> '\(ProductType.consumable.rawValue)')"
        }
        let latest =
            "(SELECT t.environment, t.original_transaction_id, MAX(t.purchase_date) AS latest FROM"
            + " \(ofPurchases("ledger_transactions", "t")) \(ofAccount ? "WHERE" : "AND") t.purchase_date <= \(p(3))"
            + " AND \(kept("t")) GROUP BY t.environment, t.original_transaction_id) c"
        return "SELECT \(selected) FROM \(latest) JOIN ledger_transactions s ON s.original_transaction_id ="
            + " c.original_transaction_id AND s.environment = c.environment AND s.purchase_date = c.latest WHERE"
            + " \(kept("s"))"
    }

    /// A row of a transaction select as a record, nil when a column has the wrong type; without a rank column
    /// (``selectRecords(transactions:ofAccount:)``) the record's rank is empty.
    package func transactionRecord(_ row: some SQLRow, ranked: Bool = true) -> TransactionRecord? {
        guard case .text(let environment) = row.value(0), case .text(let id) = row.value(1),
            case .text(let original) = row.value(2), let rank = rank(row, at: 15, ranked: ranked)
        else { return nil }
        return TransactionRecord(
            environment: environment, transactionId: id, originalTransactionId: original,
            appAccountToken: text(row.value(3)), productId: text(row.value(4)), productType: text(row.value(5)),
            purchaseDate: time(row.value(6)), expiresDate: time(row.value(7)), revocationDate: time(row.value(8)),
            revocationReason: number(row.value(9)), revocationType: text(row.value(10)),
            ownershipType: text(row.value(11)), quantity: number(row.value(12)),
            subscriptionGroupIdentifier: text(row.value(13)), signedDate: time(row.value(14)), rank: rank)
    }

    /// A row of a renewal select as a record, nil when a column has the wrong type; without a rank column the
    /// record's rank is empty.
    package func renewalRecord(_ row: some SQLRow, ranked: Bool = true) -> RenewalRecord? {
        guard case .text(let environment) = row.value(0), case .text(let original) = row.value(1),
            let rank = rank(row, at: 10, ranked: ranked)
        else { return nil }
        let retry: Bool?
        switch row.value(5) {
        case .integer(let value): retry = value != 0
        default: retry = nil
        }
        return RenewalRecord(
            environment: environment, originalTransactionId: original, productId: text(row.value(2)),
            autoRenewProductId: text(row.value(3)), autoRenewStatus: number(row.value(4)),
            isInBillingRetryPeriod: retry, gracePeriodExpiresDate: time(row.value(6)),
            expirationIntent: number(row.value(7)), appAccountToken: text(row.value(8)),
            signedDate: time(row.value(9)), rank: rank)
    }

    /// The rank of a row: its `rank` column and the token after it (``selectAllTransactions``), empty for a select
    /// without them, nil when they do not have their types.
    private func rank(_ row: some SQLRow, at column: Int, ranked: Bool) -> [UInt8]? {
        guard ranked else { return [] }
        guard case .blob(let prefix) = row.value(column), case .text(let token) = row.value(column + 1) else {
            return nil
        }
        return prefix + Array(token.utf8)
    }

    /// The values of a record's rank: its date and revocation (``Freshness/prefixLength`` bytes), and the key of the
    /// log item whose token is the rest.
    private func rankValues(_ rank: [UInt8]) -> [SQLValue] {
        let token = String(decoding: rank.dropFirst(Freshness.prefixLength), as: UTF8.self)
        return [.blob(Array(rank.prefix(Freshness.prefixLength))), .text(LedgerItem.tokenKey(token))]
    }

    // MARK: Cursors

    /// A random sample of an environment's auto-renewable subscriptions
    /// (``LedgerStore/sampleSubscriptions(environment:limit:)``); it reads every subscription of the environment.
    package var sampleSubscriptions: String {
        "SELECT id FROM (SELECT DISTINCT original_transaction_id AS id FROM ledger_transactions WHERE environment ="
            + " \(p(1)) AND product_type = '\(ProductType.autoRenewableSubscription.rawValue)') AS subscriptions"
            + " ORDER BY random() LIMIT \(p(2))"
    }

    /// Reads a cursor.
    package var selectCursor: String { "SELECT value FROM ledger_cursors WHERE name = \(p(1))" }
    /// Writes a cursor.
    package var upsertCursor: String {
        "INSERT INTO ledger_cursors (name, value, updated_at) VALUES (\(placeholders(3)))"
            + " ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at"
    }
    /// Removes a cursor.
    package var deleteCursor: String { "DELETE FROM ledger_cursors WHERE name = \(p(1))" }

    // MARK: Values

    private func text(_ value: String?) -> SQLValue { value.map(SQLValue.text) ?? .null }
    private func number(_ value: Int64?) -> SQLValue { value.map(SQLValue.integer) ?? .null }
    private func time(_ value: Timestamp?) -> SQLValue { value.map { .double($0.millisecondsSince1970) } ?? .null }
    /// A boolean, stored as 1 or 0 in both dialects.
    private func boolean(_ value: Bool) -> SQLValue { .integer(value ? 1 : 0) }

    private func text(_ value: SQLValue) -> String? {
        if case .text(let text) = value { return text }
        return nil
    }

    private func number(_ value: SQLValue) -> Int64? {
        if case .integer(let number) = value { return number }
        return nil
    }

    private func time(_ value: SQLValue) -> Timestamp? {
        switch value {
        case .double(let milliseconds): return Timestamp(millisecondsSince1970: milliseconds)
        case .integer(let milliseconds): return Timestamp(millisecondsSince1970: Double(milliseconds))
        default: return nil
        }
    }
}
