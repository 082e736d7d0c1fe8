/// Details about some version 2 notification types (JSON key `subtype`).
///
/// [subtype](https://developer.apple.com/documentation/appstoreservernotifications/subtype)
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct Subtype: AppStoreEnumeration {
    /// The raw JSON value.
    public let rawValue: String

    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The name of the Swift constant for a documented value, `nil` for a value this version doesn't know.
    public var name: String? { constantName }

    /// The raw JSON value as a tree.
    package var jsonValue: JSONValue { rawValue.jsonValue }

    /// `INITIAL_BUY`: The customer subscribed for the first time.
    public static let initialBuy = Subtype(rawValue: "INITIAL_BUY")
    /// `RESUBSCRIBE`: The customer resubscribed to a subscription of the same group.
    public static let resubscribe = Subtype(rawValue: "RESUBSCRIBE")
    /// `DOWNGRADE`: The customer downgraded or cross-graded; it takes effect at the next renewal.
    public static let downgrade = Subtype(rawValue: "DOWNGRADE")
    /// `UPGRADE`: The customer upgraded or cross-graded; it takes effect immediately.
    public static let upgrade = Subtype(rawValue: "UPGRADE")
    /// `AUTO_RENEW_ENABLED`: The customer enabled auto-renewal.
    public static let autoRenewEnabled = Subtype(rawValue: "AUTO_RENEW_ENABLED")
    /// `AUTO_RENEW_DISABLED`: Auto-renewal was turned off.
    public static let autoRenewDisabled = Subtype(rawValue: "AUTO_RENEW_DISABLED")
    /// `VOLUNTARY`: The subscription expired after the customer turned off auto-renewal.
    public static let voluntary = Subtype(rawValue: "VOLUNTARY")
    /// `BILLING_RETRY`: The subscription expired after the billing retry period ended.
    public static let billingRetry = Subtype(rawValue: "BILLING_RETRY")
    /// `PRICE_INCREASE`: The subscription expired because the customer refused a price increase.
    public static let priceIncrease = Subtype(rawValue: "PRICE_INCREASE")
    /// `GRACE_PERIOD`: Renewal failed; keep providing service during the grace period.
    public static let gracePeriod = Subtype(rawValue: "GRACE_PERIOD")
    /// `PENDING`: The customer hasn't yet accepted a price increase.
    public static let pending = Subtype(rawValue: "PENDING")
    /// `ACCEPTED`: The customer accepted a price increase, or was notified of one.
    public static let accepted = Subtype(rawValue: "ACCEPTED")
    /// `BILLING_RECOVERY`: A subscription that failed to renew has now renewed.
    public static let billingRecovery = Subtype(rawValue: "BILLING_RECOVERY")
    /// `PRODUCT_NOT_FOR_SALE`: The subscription expired because the product wasn't for sale.
    public static let productNotForSale = Subtype(rawValue: "PRODUCT_NOT_FOR_SALE")
    /// `SUMMARY`: A renewal-date extension for all eligible subscribers completed.
    public static let summary = Subtype(rawValue: "SUMMARY")
    /// `FAILURE`: A renewal-date extension failed for one subscription.
    public static let failure = Subtype(rawValue: "FAILURE")
    /// `UNREPORTED`: Apple created an external purchase token but received no report.
    public static let unreported = Subtype(rawValue: "UNREPORTED")
    /// `ACTIVE_TOKEN_REMINDER`: A custom link external purchase token is still active.
    public static let activeTokenReminder = Subtype(rawValue: "ACTIVE_TOKEN_REMINDER")
    /// `CREATED`: Apple created a custom link external purchase token.
    public static let created = Subtype(rawValue: "CREATED")

    static let constantNames: [String: String] = [
        "INITIAL_BUY": "initialBuy",
        "RESUBSCRIBE": "resubscribe",
        "DOWNGRADE": "downgrade",
        "UPGRADE": "upgrade",
        "AUTO_RENEW_ENABLED": "autoRenewEnabled",
        "AUTO_RENEW_DISABLED": "autoRenewDisabled",
        "VOLUNTARY": "voluntary",
        "BILLING_RETRY": "billingRetry",
        "PRICE_INCREASE": "priceIncrease",
        "GRACE_PERIOD": "gracePeriod",
        "PENDING": "pending",
        "ACCEPTED": "accepted",
        "BILLING_RECOVERY": "billingRecovery",
        "PRODUCT_NOT_FOR_SALE": "productNotForSale",
        "SUMMARY": "summary",
        "FAILURE": "failure",
        "UNREPORTED": "unreported",
        "ACTIVE_TOKEN_REMINDER": "activeTokenReminder",
        "CREATED": "created",
    ]
}
