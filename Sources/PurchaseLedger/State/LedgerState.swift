import JWSVerify

/// The derived state of a ledger: per transaction its freshest signed version, per subscription its freshest renewal
/// info. A pure function of the log (``folding(_:)``): the same items, in any order and with any duplicates, give
/// the same state.
///
/// Freshest means the largest rank (``TransactionRecord/rank``): the latest `signedDate`; on a tie the version with a revocation;
/// then the larger token bytes.
public struct LedgerState: Sendable, Equatable {
    /// The freshest version of each transaction, by environment and `transactionId`.
    public var transactions: [RecordKey: TransactionRecord] = [:]
    /// The freshest renewal info of each subscription, by environment and `originalTransactionId`.
    public var renewals: [RecordKey: RenewalRecord] = [:]

    /// An empty state.
    public init() {}

    /// The state of a log: every entry's records folded in.
    ///
    /// - Parameter entries: The log's entries, in any order, with any duplicates.
    public static func folding<S: Sequence>(_ entries: S) -> LedgerState where S.Element == LedgerEntry {
        var state = LedgerState()
        for entry in entries { state.apply(entry) }
        return state
    }

    /// Folds one entry's records in: each replaces the version held when it is fresher.
    public mutating func apply(_ entry: LedgerEntry) {
        for record in entry.transactions { apply(record) }
        for record in entry.renewals { apply(record) }
    }

    /// Keeps `record` when no version of its transaction is held or it is fresher than the one held.
    public mutating func apply(_ record: TransactionRecord) {
        if let held = transactions[record.key], !Freshness.isFresher(record.rank, than: held.rank) { return }
        transactions[record.key] = record
    }

    /// Keeps `record` when no renewal info of its subscription is held or it is fresher than the one held.
    public mutating func apply(_ record: RenewalRecord) {
        if let held = renewals[record.key], !Freshness.isFresher(record.rank, than: held.rank) { return }
        renewals[record.key] = record
    }

    /// The state as text, one line per record in key order: two states are equal exactly when their texts are
    /// (what ``Ledger/rebuild(repairing:)`` and the order tests compare).
    public var canonicalLines: [String] {
        let transactionLines = transactions.keys.sorted().map { key in
            Self.line("transaction", transactions[key].map(Self.fields) ?? [])
        }
        let renewalLines = renewals.keys.sorted().map { key in
            Self.line("renewal", renewals[key].map(Self.fields) ?? [])
        }
        return transactionLines + renewalLines
    }

    /// Where two states differ, one line per record that is missing, extra or different, naming its key.
    ///
    /// - Parameter stored: The state a store holds.
    /// - Returns: the differences, empty when the states are equal.
    public func differences(from stored: LedgerState) -> [String] {
        var lines: [String] = []
        for key in Set(transactions.keys).union(stored.transactions.keys).sorted() {
            switch (transactions[key], stored.transactions[key]) {
            case (let rebuilt?, nil):
                lines.append("transaction \(Self.name(key, rebuilt.transactionId)): missing from the store")
            case (nil, let held?):
                lines.append("transaction \(Self.name(key, held.transactionId)): in the store, not in the log")
            case (let rebuilt?, let held?) where rebuilt != held:
                lines.append("transaction \(Self.name(key, held.transactionId)): the store holds another version")
            default: break
            }
        }
        for key in Set(renewals.keys).union(stored.renewals.keys).sorted() {
            switch (renewals[key], stored.renewals[key]) {
            case (let rebuilt?, nil):
                lines.append("renewal \(Self.name(key, rebuilt.originalTransactionId)): missing from the store")
            case (nil, let held?):
                lines.append("renewal \(Self.name(key, held.originalTransactionId)): in the store, not in the log")
            case (let rebuilt?, let held?) where rebuilt != held:
                lines.append("renewal \(Self.name(key, held.originalTransactionId)): the store holds another version")
            default: break
            }
        }
        return lines
    }

    private static func name(_ key: RecordKey, _ id: String) -> String {
        EscapedText.escaped(key.environment) + " " + EscapedText.escaped(id)
    }

    private static func fields(_ record: TransactionRecord) -> [JSONValue] {
        [
            .string(record.environment), .string(record.transactionId), .string(record.originalTransactionId),
            text(record.appAccountToken), text(record.productId), text(record.productType),
            time(record.purchaseDate), time(record.expiresDate), time(record.revocationDate),
            number(record.revocationReason), text(record.revocationType), text(record.ownershipType),
            number(record.quantity), text(record.subscriptionGroupIdentifier), time(record.signedDate),
            .string(hex(record.rank)),
        ]
    }

    private static func fields(_ record: RenewalRecord) -> [JSONValue] {
        [
            .string(record.environment), .string(record.originalTransactionId), text(record.productId),
            text(record.autoRenewProductId), number(record.autoRenewStatus),
            record.isInBillingRetryPeriod.map(JSONValue.bool) ?? .null, time(record.gracePeriodExpiresDate),
            number(record.expirationIntent), text(record.appAccountToken), time(record.signedDate),
            .string(hex(record.rank)),
        ]
    }

    private static func line(_ kind: String, _ fields: [JSONValue]) -> String {
        JSONWriter.write(.array([.string(kind)] + fields), pretty: false)
    }

    private static func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
    private static func number(_ value: Int64?) -> JSONValue { value.map(JSONValue.integer) ?? .null }
    private static func time(_ value: Timestamp?) -> JSONValue { value.map(EntitlementsDocument.time) ?? .null }

    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
