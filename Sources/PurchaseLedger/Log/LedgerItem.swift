import JWSVerify

/// One verified signed item as the log keeps it: the raw token with its kind, environment, key fields and source.
///
/// Only ``LedgerEntry/init(verifying:with:source:)`` makes items, from tokens that passed every check: no unverified
/// byte reaches the log.
public struct LedgerItem: Sendable, Hashable {
    /// What makes the item unique in the log: `notification:` and its `notificationUUID` for a notification (Apple
    /// sends a notification again with the same UUID until it is answered), else `token:` and the SHA-256 of the
    /// token's bytes in lower-case hex.
    public let key: String
    /// The kind of signed data.
    public let kind: PayloadKind
    /// The environment the item verified in (`Sandbox`, `Production`, ...).
    public let environment: String
    /// Where the item came from.
    public let source: LedgerSource
    /// The compact JWS, exactly as received.
    public let token: String
    /// For a token nested in a notification, the notification's ``key``.
    public let parentKey: String?
    /// The notification's `notificationUUID`.
    public let notificationUUID: String?
    /// The transaction's `transactionId` (a notification's, from its nested transaction).
    public let transactionId: String?
    /// The `originalTransactionId` of the transaction or renewal info (a notification's, from its nested tokens).
    public let originalTransactionId: String?
    /// The `appAccountToken` the item carries, if any.
    public let appAccountToken: String?
    /// The `productId` the item carries, if any.
    public let productId: String?
    /// The item's `signedDate` (an app transaction's `receiptCreationDate`).
    public let signedDate: Timestamp?

    init(
        key: String, kind: PayloadKind, environment: String, source: LedgerSource, token: String, parentKey: String?,
        notificationUUID: String? = nil, transactionId: String? = nil, originalTransactionId: String? = nil,
        appAccountToken: String? = nil, productId: String? = nil, signedDate: Timestamp? = nil
    ) {
        self.key = key
        self.kind = kind
        self.environment = environment
        self.source = source
        self.token = token
        self.parentKey = parentKey
        self.notificationUUID = notificationUUID
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.appAccountToken = appAccountToken
        self.productId = productId
        self.signedDate = signedDate
    }

    /// The log key of a token that is not a notification: `token:` and the SHA-256 of its bytes in hex.
    static func tokenKey(_ token: String) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = Array("token:".utf8)
        for byte in SHA256.hash(Array(token.utf8)) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The log key of a notification.
    static func notificationKey(_ uuid: String) -> String { "notification:" + uuid }
}
