import JWSVerify

/// What one append stores in one database transaction: a verified notification with its nested tokens, or one
/// verified token; and the state records they bring.
///
/// An entry can only be made by verifying (``init(verifying:with:source:)``): the ledger never holds an unverified
/// item.
public struct LedgerEntry: Sendable {
    /// The items, the notification (or the single token) first, then its nested tokens in path order.
    public let items: [LedgerItem]
    /// The transactions the items carry (a transaction, or a notification's `signedTransactionInfo`).
    public let transactions: [TransactionRecord]
    /// The renewal infos the items carry.
    public let renewals: [RenewalRecord]

    /// The item that names the entry: the notification, or the token.
    public var head: LedgerItem { items[0] }

    /// Verifies a token and makes the entry that stores it.
    ///
    /// Notifications are verified with their nested tokens (every one must verify, in the notification's
    /// environment); transactions, renewal infos and app transactions are kept; a realtime request is refused.
    ///
    /// - Parameters:
    ///   - token: A compact JWS: a notification's `signedPayload`, a transaction, a renewal info or an app
    ///     transaction; its kind is recognized from its payload.
    ///   - verifier: The verifier, configured with the app's bundle id, app Apple id and environments.
    ///   - source: Where the token came from.
    /// - Throws: ``LedgerError`` with ``LedgerError/Code/notVerified`` and the verification's error, or
    ///   ``LedgerError/Code/unsupportedKind`` or ``LedgerError/Code/missingIdentifier``.
    public init(verifying token: String, with verifier: SignedDataVerifier, source: LedgerSource) throws(LedgerError) {
        let result = verifier.verifyAndDecode(token, as: nil)
        guard case .verified(let verified) = result else {
            let error = result.error ?? VerificationError(.malformedToken, check: .format, "not verified")
            throw LedgerError(.notVerified, error.message, verification: error)
        }
        try self.init(verified: verified, token: token, source: source)
    }

    /// The entry of a token that ``SignedDataVerifier`` verified: `verified` must be the verification of `token`
    /// (the package's reconciler passes an API response's item with its own result; nothing outside the package
    /// can pair them).
    package init(verified: Verified<DecodedPayload>, token: String, source: LedgerSource) throws(LedgerError) {
        let environment = (verified.environment ?? verified.payload.environment)?.rawValue ?? ""
        switch verified.payload {
        case .notification(let decoded):
            guard let uuid = decoded.notification.notificationUUID else {
                throw LedgerError(.missingIdentifier, "the notification has no notificationUUID")
            }
            let key = LedgerItem.notificationKey(uuid)
            var items: [LedgerItem] = []
            var transactions: [TransactionRecord] = []
            var renewals: [RenewalRecord] = []
            for nested in PayloadKind.notification.nestedTokens(in: verified.payloadObject) {
                // Each nested token is kept in the environment it names (the verifier required it to be the
                // notification's when the notification names one).
                let nestedEnvironment =
                    (nested.kind == .transaction
                    ? decoded.transaction?.environment : decoded.renewalInfo?.environment)?.rawValue ?? environment
                let item = try Self.item(
                    nested.token, kind: nested.kind, environment: nestedEnvironment, source: source, parentKey: key,
                    transaction: nested.kind == .transaction ? decoded.transaction : nil,
                    renewal: nested.kind == .renewalInfo ? decoded.renewalInfo : nil,
                    transactions: &transactions, renewals: &renewals)
                items.append(item)
            }
            let transaction = decoded.transaction
            let renewal = decoded.renewalInfo
            let head = LedgerItem(
                key: key, kind: .notification, environment: environment, source: source, token: token, parentKey: nil,
                notificationUUID: uuid, transactionId: transaction?.transactionId,
                originalTransactionId: transaction?.originalTransactionId ?? renewal?.originalTransactionId,
                appAccountToken: transaction?.appAccountToken ?? renewal?.appAccountToken,
                productId: transaction?.productId ?? renewal?.productId,
                signedDate: decoded.notification.signedDateTimestamp)
            self.items = [head] + items
            self.transactions = transactions
            self.renewals = renewals
        case .transaction(let transaction):
            var transactions: [TransactionRecord] = []
            var renewals: [RenewalRecord] = []
            let item = try Self.item(
                token, kind: .transaction, environment: environment, source: source, parentKey: nil,
                transaction: transaction, renewal: nil, transactions: &transactions, renewals: &renewals)
            self.items = [item]
            self.transactions = transactions
            self.renewals = renewals
        case .renewalInfo(let renewal):
            var transactions: [TransactionRecord] = []
            var renewals: [RenewalRecord] = []
            let item = try Self.item(
                token, kind: .renewalInfo, environment: environment, source: source, parentKey: nil,
                transaction: nil, renewal: renewal, transactions: &transactions, renewals: &renewals)
            self.items = [item]
            self.transactions = transactions
            self.renewals = renewals
        case .appTransaction(let appTransaction):
            items = [
                LedgerItem(
                    key: LedgerItem.tokenKey(token), kind: .appTransaction, environment: environment, source: source,
                    token: token, parentKey: nil, signedDate: appTransaction.receiptCreationDateTimestamp)
            ]
            transactions = []
            renewals = []
        case .realtimeRequest:
            throw LedgerError(
                .unsupportedKind, "a Retention Messaging realtime request is answered, not kept in the ledger")
        }
    }

    /// The item of a transaction, renewal info or app transaction token, with the record it brings.
    private static func item(
        _ token: String, kind: PayloadKind, environment: String, source: LedgerSource, parentKey: String?,
        transaction: JWSTransactionDecodedPayload?, renewal: JWSRenewalInfoDecodedPayload?,
        transactions: inout [TransactionRecord], renewals: inout [RenewalRecord]
    ) throws(LedgerError) -> LedgerItem {
        let key = LedgerItem.tokenKey(token)
        if let transaction {
            guard let record = TransactionRecord(transaction, environment: environment, token: token) else {
                throw LedgerError(.missingIdentifier, "the transaction has no transactionId or originalTransactionId")
            }
            transactions.append(record)
            return LedgerItem(
                key: key, kind: kind, environment: environment, source: source, token: token, parentKey: parentKey,
                transactionId: record.transactionId, originalTransactionId: record.originalTransactionId,
                appAccountToken: record.appAccountToken, productId: record.productId, signedDate: record.signedDate)
        }
        if let renewal {
            guard let record = RenewalRecord(renewal, environment: environment, token: token) else {
                throw LedgerError(.missingIdentifier, "the renewal info has no originalTransactionId")
            }
            renewals.append(record)
            return LedgerItem(
                key: key, kind: kind, environment: environment, source: source, token: token, parentKey: parentKey,
                originalTransactionId: record.originalTransactionId, appAccountToken: record.appAccountToken,
                productId: record.productId, signedDate: record.signedDate)
        }
        // A nested app transaction (`appData.signedAppTransactionInfo`): kept in the log, no state.
        return LedgerItem(
            key: key, kind: kind, environment: environment, source: source, token: token, parentKey: parentKey)
    }
}
