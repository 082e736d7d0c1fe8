import JWSVerify

/// Where a ledger keeps its log and state: SQLite (``SQLiteLedgerStore``) or PostgreSQL (the
/// `PurchaseLedgerPostgreSQL` product's store).
///
/// A store appends and reads; it does not decide. What an entry brings (its items and records, their freshness
/// ranks) is decided before it gets here; a store keeps each record whose rank is larger than the one it holds, in
/// the same database transaction as the items, and says for each entry whether its head item was new.
///
/// Exactly-once comes from the database: the log's key is unique and an item is inserted only when its key is not
/// there yet, in the same transaction as the state changes it brings. Every method either completes or leaves the
/// store as it was, and ``append(_:)`` returns only after its commit is durable.
public protocol LedgerStore: AnyObject, Sendable {
    /// Appends entries in one database transaction and returns once it is durable.
    ///
    /// An entry whose head item (the notification, or the single token) is already in the log is a duplicate and
    /// changes nothing. Otherwise its items are inserted (a nested token already in the log is left as it is) and its
    /// records replace those held when their ranks are larger.
    ///
    /// - Returns: for each entry, whether it was appended or a duplicate.
    /// - Throws: ``LedgerError`` (``LedgerError/Code/storeUnavailable`` or ``LedgerError/Code/storeFailed``), with
    ///   nothing of the call stored.
    ///
    /// - Parameters:
    ///   - entries: The entries, in order.
    ///   - cursor: A cursor to save in the same database transaction (the reconciler's page position: a page's
    ///     items and the position after it commit together), or nil.
    func append(_ entries: [LedgerEntry], settingCursor cursor: LedgerCursor?) throws(LedgerError) -> [AppendOutcome]

    /// The state's records of the purchases a query selects (each `originalTransactionId` named, or carrying the
    /// `appAccountToken`), as an entitlements answer at T needs them: every renewal info of those purchases, and of
    /// each purchase the transactions that can be its current one at T (those with its latest `purchaseDate` at or
    /// before T; consumables left out). Without their ranks (``TransactionRecord/rank`` is empty: it holds the
    /// token's bytes, and an entitlements answer compares no versions).
    ///
    /// ``EntitlementEvaluation`` decides among what it returns; the transactions left out are ones it would pass
    /// over, so its answer is the one it gives on every record of those purchases.
    ///
    /// - Parameters:
    ///   - query: The account or purchase.
    ///   - environment: Only this environment's records, or every environment's when nil.
    ///   - time: T.
    func records(
        for query: EntitlementQuery, environment: String?, currentAt time: Timestamp
    ) throws(LedgerError) -> (transactions: [TransactionRecord], renewals: [RenewalRecord])

    /// The log's items in append order after a position.
    ///
    /// - Parameters:
    ///   - position: The position after which to read (0 reads from the start).
    ///   - limit: How many items at most.
    func logItems(after position: Int64, limit: Int) throws(LedgerError) -> [LoggedItem]

    /// The whole derived state as stored.
    func state() throws(LedgerError) -> LedgerState

    /// Replaces the whole derived state, in one database transaction (a rebuild's repair), if the log still holds
    /// the items the state was folded from.
    ///
    /// - Parameters:
    ///   - state: The state to keep.
    ///   - logCount: How many items the log held when `state` was folded from it (``logCount()``), or nil to replace
    ///     whatever the log holds now.
    /// - Throws: ``LedgerError/Code/storeUnavailable`` when the log has changed since (an append during the rebuild,
    ///   whose records the state would lose): nothing replaced; fold again and retry.
    func replaceState(with state: LedgerState, ifLogCountIs logCount: Int64?) throws(LedgerError)

    /// A saved cursor (the reconciler's pagination token, time window or revision), or nil.
    func cursor(named name: String) throws(LedgerError) -> String?

    /// Saves a cursor, durably; nil removes it.
    func setCursor(named name: String, to value: String?) throws(LedgerError)

    /// How many items the log holds.
    func logCount() throws(LedgerError) -> Int64

    /// A random sample of the auto-renewable subscriptions the state holds in an environment: their
    /// `originalTransactionId`s (the reconciler's audit).
    ///
    /// - Parameters:
    ///   - environment: The environment's stored name.
    ///   - limit: How many at most.
    func sampleSubscriptions(environment: String, limit: Int) throws(LedgerError) -> [String]
}

extension LedgerStore {
    /// Appends entries in one database transaction and returns once it is durable
    /// (``append(_:settingCursor:)`` with no cursor).
    public func append(_ entries: [LedgerEntry]) throws(LedgerError) -> [AppendOutcome] {
        try append(entries, settingCursor: nil)
    }
}

/// A named position saved by the reconciler (a pagination token and its time window, a history's revision).
public struct LedgerCursor: Sendable, Hashable {
    /// The cursor's name, such as `notificationHistory/Production`.
    public var name: String
    /// The position to save; nil removes the cursor.
    public var value: String?

    /// A cursor.
    public init(name: String, value: String?) {
        self.name = name
        self.value = value
    }
}

/// What an entitlements query selects.
public enum EntitlementQuery: Sendable, Hashable {
    /// Every purchase whose transactions or renewal infos carry this `appAccountToken`.
    case appAccountToken(String)
    /// One purchase.
    case originalTransactionId(String)
}

/// What appending one entry did.
public struct AppendOutcome: Sendable, Hashable {
    /// Whether the entry was new.
    public enum Result: String, Sendable, Hashable {
        /// Stored now.
        case appended
        /// Already in the log: nothing changed.
        case duplicate
    }

    /// The head item's log key.
    public let key: String
    /// Appended or duplicate.
    public let result: Result

    /// Creates an outcome.
    public init(key: String, result: Result) {
        self.key = key
        self.result = result
    }
}

/// An item as the log holds it, with its position.
public struct LoggedItem: Sendable, Hashable {
    /// Its position in the log (increasing in append order).
    public let position: Int64
    /// Its key.
    public let key: String
    /// Its kind's stored name (`PayloadKind`'s raw value).
    public let kind: String
    /// Its environment.
    public let environment: String
    /// Where it came from.
    public let source: String
    /// The compact JWS.
    public let token: String

    /// Creates an item as read from a store.
    public init(position: Int64, key: String, kind: String, environment: String, source: String, token: String) {
        self.position = position
        self.key = key
        self.kind = kind
        self.environment = environment
        self.source = source
        self.token = token
    }
}
