import JWSVerify

/// The purchase ledger: verified App Store signed data in, exactly-once state and entitlements out.
///
/// Every item is verified before it is appended (``append(token:source:)``), by the verifier the ledger is made
/// with; the store keeps each item once, whatever order and however often it arrives, and folds it into the state
/// in the same database transaction. ``entitlements(for:at:environment:)`` answers who is entitled at a time, and
/// why.
///
/// ```swift
/// import JWSVerify
/// import PurchaseLedger
///
/// func receive(_ signedPayload: String, verifier: SignedDataVerifier) throws {
///     let ledger = Ledger(store: try SQLiteLedgerStore(path: "purchases.sqlite"), verifier: verifier)
///     let outcome = try ledger.append(token: signedPayload, source: .notification)
///     print(outcome.result)  // appended, or duplicate for a notification Apple sent again
/// }
/// ```
public struct Ledger: Sendable {
    /// Where the log and the state are kept.
    public let store: any LedgerStore
    /// What every item is verified with: the app's bundle id, app Apple id and environments.
    public let verifier: SignedDataVerifier

    /// Creates a ledger over a store.
    public init(store: any LedgerStore, verifier: SignedDataVerifier) {
        self.store = store
        self.verifier = verifier
    }

    // MARK: Appending

    /// Verifies a token and appends it, durably, in one database transaction with its nested tokens and the state
    /// changes they bring.
    ///
    /// - Parameters:
    ///   - token: A notification's `signedPayload`, a transaction, a renewal info or an app transaction.
    ///   - source: Where it came from.
    /// - Returns: appended, or duplicate when the same notification (`notificationUUID`) or token was appended
    ///   before (nothing changed).
    /// - Throws: ``LedgerError``: the item did not verify (``LedgerError/Code/notVerified``, nothing stored), or the
    ///   store failed (nothing stored).
    public func append(token: String, source: LedgerSource) throws(LedgerError) -> AppendOutcome {
        let entry = try LedgerEntry(verifying: token, with: verifier, source: source)
        let outcomes = try store.append([entry])
        return outcomes.first ?? AppendOutcome(key: entry.head.key, result: .duplicate)
    }

    /// Reads an input in any of `batch`'s token shapes (a bare token, a JSON string, `{"token": ...}`, Apple's
    /// notification body `{"signedPayload": ...}`), verifies it and appends it (``append(token:source:)``).
    ///
    /// - Throws: ``LedgerError/Code/notVerified`` with `malformedToken` when the input holds no token.
    public func append(input: [UInt8], source: LedgerSource) throws(LedgerError) -> AppendOutcome {
        try append(token: Self.token(in: input, range: input.indices, what: "the input"), source: source)
    }

    /// The token an input holds, in `batch`'s shapes.
    static func token(in bytes: [UInt8], range: Range<Int>, what: String) throws(LedgerError) -> String {
        switch InputShape.read(bytes, range: range, what: what) {
        case .failure(let failure):
            throw LedgerError(.notVerified, failure.message, verification: failure.error)
        case .success(let shaped):
            guard let token = shaped.token else {
                let error = VerificationError(
                    .malformedToken, check: .format, "\(what) holds an app receipt; the ledger keeps signed tokens")
                throw LedgerError(.notVerified, error.message, verification: error)
            }
            return token.string
        }
    }

    // MARK: Entitlements

    /// The entitlements of an account or a purchase at a time, one entry per `originalTransactionId`, each saying
    /// why (``EntitlementEvaluation``).
    ///
    /// - Parameters:
    ///   - query: The `appAccountToken` (compared in lower case, as the App Store writes it) or the
    ///     `originalTransactionId`.
    ///   - time: T. The ledger evaluates what it holds now at T.
    ///   - environment: Only this environment's purchases, or every environment's (each entry names its own).
    public func entitlements(
        for query: EntitlementQuery, at time: Timestamp, environment: AppStoreEnvironment? = nil
    ) throws(LedgerError) -> EntitlementsDocument {
        try Self.entitlements(in: store, for: query, at: time, environment: environment)
    }

    /// ``entitlements(for:at:environment:)`` of a store, for a reader that verifies nothing (no verifier needed).
    public static func entitlements(
        in store: any LedgerStore, for query: EntitlementQuery, at time: Timestamp,
        environment: AppStoreEnvironment? = nil
    ) throws(LedgerError) -> EntitlementsDocument {
        let normalized: EntitlementQuery
        switch query {
        case .appAccountToken(let token): normalized = .appAccountToken(token.lowercased())
        case .originalTransactionId: normalized = query
        }
        let records = try store.records(for: normalized, environment: environment?.rawValue, currentAt: time)
        return EntitlementsDocument(
            asOf: time,
            entitlements: EntitlementEvaluation.entitlements(
                transactions: records.transactions, renewals: records.renewals, at: time))
    }

    // MARK: Rebuilding

    /// What ``rebuild(repairing:)`` found.
    public struct RebuildReport: Sendable, Hashable {
        /// How many items of the log were read.
        public var items: Int64
        /// Where the stored state differed from the state folded from the log (before any repair).
        public var differences: [String]
        /// Whether the stored state was replaced by the rebuilt one.
        public var repaired: Bool

        /// The report as one JSON object (`jwsverify ledger rebuild --json`).
        public var jsonValue: JSONValue {
            .object([
                "schemaVersion": .integer(1), "items": .integer(items),
                "differences": .array(differences.map(JSONValue.string)), "repaired": .bool(repaired),
            ])
        }
    }

    /// Folds the whole log again and compares the result with the stored state.
    ///
    /// The items are decoded, not verified again: they were verified when they were appended, and only the ledger
    /// writes the log.
    ///
    /// - Parameter repairing: Replace the stored state with the rebuilt one when they differ (never when an item of
    ///   the log does not decode: its record would be lost; the report names it).
    public func rebuild(repairing: Bool) throws(LedgerError) -> RebuildReport {
        try Self.rebuild(store, repairing: repairing)
    }

    /// ``rebuild(repairing:)`` of a store (no verifier needed: nothing is verified again).
    public static func rebuild(_ store: any LedgerStore, repairing: Bool) throws(LedgerError) -> RebuildReport {
        var state = LedgerState()
        let logCount = try store.logCount()
        var position: Int64 = 0
        var count: Int64 = 0
        var unreadable: [String] = []
        while true {
            let items = try store.logItems(after: position, limit: 1000)
            guard let last = items.last else { break }
            position = last.position
            count += Int64(items.count)
            for item in items {
                // Only transactions and renewal infos bring records; a notification's come with its nested items.
                guard let kind = PayloadKind(rawValue: item.kind), kind == .transaction || kind == .renewalInfo
                else { continue }
                switch (try? SignedDataVerifier.decodeUnverified(item.token, as: kind))?.payload {
                case .transaction(let payload)?:
                    if let record = TransactionRecord(payload, environment: item.environment, token: item.token) {
                        state.apply(record)
                        continue
                    }
                case .renewalInfo(let payload)?:
                    if let record = RenewalRecord(payload, environment: item.environment, token: item.token) {
                        state.apply(record)
                        continue
                    }
                default: break
                }
                unreadable.append("log item \(item.position): not a \(kind) with its ids")
            }
        }
        let differences = unreadable + state.differences(from: try store.state())
        // An item that no longer decodes would lose its record in a repair: the state is then left as it is.
        let repair = repairing && !differences.isEmpty && unreadable.isEmpty
        if repair { try store.replaceState(with: state, ifLogCountIs: logCount) }
        return RebuildReport(items: count, differences: differences, repaired: repair)
    }
}
