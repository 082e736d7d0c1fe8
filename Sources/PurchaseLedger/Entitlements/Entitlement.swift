import JWSVerify

/// What a customer holds through one purchase at a time, and why: one entry per `originalTransactionId`.
public struct Entitlement: Sendable, Hashable {
    /// The purchase: a subscription's `originalTransactionId`, or a one-time purchase's.
    public var originalTransactionId: String
    /// The current transaction's `productId`.
    public var productId: String?
    /// The current transaction's `type`.
    public var productType: String?
    /// The status at the time asked.
    public var status: EntitlementStatus
    /// Whether the customer gets the content (``EntitlementStatus/entitled``).
    public var entitled: Bool { status.entitled }
    /// The current transaction: among the purchase's transactions purchased by the time asked, the latest
    /// `purchaseDate`.
    public var transactionId: String
    /// The current transaction's `expiresDate`.
    public var expiresDate: Timestamp?
    /// The freshest renewal info's `gracePeriodExpiresDate`.
    public var gracePeriodExpiresDate: Timestamp?
    /// The current transaction's `revocationDate`, when it was revoked by the time asked.
    public var revocationDate: Timestamp?
    /// The current transaction's `revocationReason`, with ``revocationDate``.
    public var revocationReason: Int64?
    /// The current transaction's `revocationType`, with ``revocationDate``.
    public var revocationType: String?
    /// The freshest renewal info's `autoRenewStatus` (1 on, 0 off).
    public var autoRenewStatus: Int64?
    /// The current transaction's `inAppOwnershipType`: `PURCHASED`, `FAMILY_SHARED`, `ASSIGNED` (a multiseat seat).
    public var ownershipType: String?
    /// The current transaction's `quantity`: the seats of a multiseat purchase.
    public var quantity: Int64?
    /// The current transaction's `subscriptionGroupIdentifier`.
    public var subscriptionGroupIdentifier: String?
    /// The environment.
    public var environment: String
}
