import JWSVerify

/// What the state keeps of a transaction: the fields of its freshest signed version that entitlements are
/// evaluated from, keyed by environment and `transactionId`.
public struct TransactionRecord: Sendable, Hashable {
    /// The environment the transaction verified in.
    public var environment: String
    /// `transactionId`.
    public var transactionId: String
    /// `originalTransactionId`: the purchase (subscription) the transaction belongs to.
    public var originalTransactionId: String
    /// `appAccountToken`, the app's account UUID, if the app set one.
    public var appAccountToken: String?
    /// `productId`.
    public var productId: String?
    /// `type`: `Auto-Renewable Subscription`, `Non-Consumable`, `Consumable`, `Non-Renewing Subscription`.
    public var productType: String?
    /// `purchaseDate`.
    public var purchaseDate: Timestamp?
    /// `expiresDate` (subscriptions).
    public var expiresDate: Timestamp?
    /// `revocationDate`: when the App Store refunded or revoked it.
    public var revocationDate: Timestamp?
    /// `revocationReason`.
    public var revocationReason: Int64?
    /// `revocationType` (`REFUND_FULL`, `REFUND_PRORATED`, `FAMILY_REVOKE`, `ASSIGNMENT_REVOKE`, ...).
    public var revocationType: String?
    /// `inAppOwnershipType`: `PURCHASED`, `FAMILY_SHARED`, `ASSIGNED`.
    public var ownershipType: String?
    /// `quantity`: items bought, or seats of a multiseat purchase.
    public var quantity: Int64?
    /// `subscriptionGroupIdentifier`.
    public var subscriptionGroupIdentifier: String?
    /// `signedDate`.
    public var signedDate: Timestamp?
    /// The freshness rank that decided this version (by `signedDate`, a revocation, then the token's bytes); empty
    /// in the records of an entitlements query (``LedgerStore/records(for:environment:currentAt:)``).
    public var rank: [UInt8]

    /// The record of a verified transaction, or nil when it has no `transactionId` or `originalTransactionId`.
    init?(_ payload: JWSTransactionDecodedPayload, environment: String, token: String) {
        guard let transactionId = payload.transactionId, let originalTransactionId = payload.originalTransactionId
        else { return nil }
        self.environment = environment
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        appAccountToken = payload.appAccountToken
        productId = payload.productId
        productType = payload.type?.rawValue
        purchaseDate = payload.purchaseDateTimestamp
        expiresDate = payload.expiresDateTimestamp
        revocationDate = payload.revocationDateTimestamp
        revocationReason = payload.revocationReason?.rawValue
        revocationType = payload.revocationType?.rawValue
        ownershipType = payload.inAppOwnershipType?.rawValue
        quantity = payload.quantity.map(Int64.init)
        subscriptionGroupIdentifier = payload.subscriptionGroupIdentifier
        signedDate = payload.signedDateTimestamp
        rank = Freshness.rank(
            signedDate: payload.signedDateTimestamp, revoked: payload.revocationDateTimestamp != nil, token: token)
    }

    /// A record as a store holds it.
    package init(
        environment: String, transactionId: String, originalTransactionId: String, appAccountToken: String?,
        productId: String?, productType: String?, purchaseDate: Timestamp?, expiresDate: Timestamp?,
        revocationDate: Timestamp?, revocationReason: Int64?, revocationType: String?, ownershipType: String?,
        quantity: Int64?, subscriptionGroupIdentifier: String?, signedDate: Timestamp?, rank: [UInt8]
    ) {
        self.environment = environment
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.appAccountToken = appAccountToken
        self.productId = productId
        self.productType = productType
        self.purchaseDate = purchaseDate
        self.expiresDate = expiresDate
        self.revocationDate = revocationDate
        self.revocationReason = revocationReason
        self.revocationType = revocationType
        self.ownershipType = ownershipType
        self.quantity = quantity
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.signedDate = signedDate
        self.rank = rank
    }

    /// The state's key: environment and `transactionId`.
    public var key: RecordKey { RecordKey(environment: environment, id: transactionId) }
}

/// The key of a record of the state: the environment and the id (`transactionId` of a transaction,
/// `originalTransactionId` of a renewal info). Sandbox and Production are kept apart.
public struct RecordKey: Sendable, Hashable, Comparable {
    /// The environment.
    public var environment: String
    /// The id.
    public var id: String

    /// Creates a key.
    public init(environment: String, id: String) {
        self.environment = environment
        self.id = id
    }

    /// Environment, then id in numeric order for App Store ids (shorter first, then by bytes).
    public static func < (lhs: RecordKey, rhs: RecordKey) -> Bool {
        if lhs.environment != rhs.environment {
            return Array(lhs.environment.utf8).lexicographicallyPrecedes(rhs.environment.utf8)
        }
        return IdentifierOrder.precedes(lhs.id, rhs.id)
    }
}

/// The order of App Store ids (decimal strings): shorter first, then by bytes, which is numeric order for ids
/// without leading zeros and a total order for any string.
enum IdentifierOrder {
    static func precedes(_ a: String, _ b: String) -> Bool {
        let (a, b) = (Array(a.utf8), Array(b.utf8))
        return a.count != b.count ? a.count < b.count : a.lexicographicallyPrecedes(b)
    }
}
