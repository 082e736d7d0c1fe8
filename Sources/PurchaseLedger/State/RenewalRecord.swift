import JWSVerify

/// What the state keeps of a subscription's renewal info: the fields of its freshest signed version, keyed by
/// environment and `originalTransactionId`.
public struct RenewalRecord: Sendable, Hashable {
    /// The environment the renewal info verified in.
    public var environment: String
    /// `originalTransactionId`: the subscription.
    public var originalTransactionId: String
    /// `productId`: the product of the current period.
    public var productId: String?
    /// `autoRenewProductId`: the product the subscription renews to.
    public var autoRenewProductId: String?
    /// `autoRenewStatus`: 1 on, 0 off.
    public var autoRenewStatus: Int64?
    /// `isInBillingRetryPeriod`.
    public var isInBillingRetryPeriod: Bool?
    /// `gracePeriodExpiresDate`.
    public var gracePeriodExpiresDate: Timestamp?
    /// `expirationIntent`.
    public var expirationIntent: Int64?
    /// `appAccountToken`, if the app set one.
    public var appAccountToken: String?
    /// `signedDate`.
    public var signedDate: Timestamp?
    /// The freshness rank that decided this version (by `signedDate`, then the token's bytes); empty in the records
    /// of an entitlements query (``LedgerStore/records(for:environment:currentAt:)``).
    public var rank: [UInt8]

    /// The record of a verified renewal info, or nil when it has no `originalTransactionId`.
    init?(_ payload: JWSRenewalInfoDecodedPayload, environment: String, token: String) {
        guard let originalTransactionId = payload.originalTransactionId else { return nil }
        self.environment = environment
        self.originalTransactionId = originalTransactionId
        productId = payload.productId
        autoRenewProductId = payload.autoRenewProductId
        autoRenewStatus = payload.autoRenewStatus?.rawValue
        isInBillingRetryPeriod = payload.isInBillingRetryPeriod
        gracePeriodExpiresDate = payload.gracePeriodExpiresDateTimestamp
        expirationIntent = payload.expirationIntent?.rawValue
        appAccountToken = payload.appAccountToken
        signedDate = payload.signedDateTimestamp
        rank = Freshness.rank(signedDate: payload.signedDateTimestamp, revoked: false, token: token)
    }

    /// A record as a store holds it.
    package init(
        environment: String, originalTransactionId: String, productId: String?, autoRenewProductId: String?,
        autoRenewStatus: Int64?, isInBillingRetryPeriod: Bool?, gracePeriodExpiresDate: Timestamp?,
        expirationIntent: Int64?, appAccountToken: String?, signedDate: Timestamp?, rank: [UInt8]
    ) {
        self.environment = environment
        self.originalTransactionId = originalTransactionId
        self.productId = productId
        self.autoRenewProductId = autoRenewProductId
        self.autoRenewStatus = autoRenewStatus
        self.isInBillingRetryPeriod = isInBillingRetryPeriod
        self.gracePeriodExpiresDate = gracePeriodExpiresDate
        self.expirationIntent = expirationIntent
        self.appAccountToken = appAccountToken
        self.signedDate = signedDate
        self.rank = rank
    }

    /// The state's key: environment and `originalTransactionId`.
    public var key: RecordKey { RecordKey(environment: environment, id: originalTransactionId) }
}
