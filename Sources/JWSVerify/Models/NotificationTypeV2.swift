/// The event for which the App Store sends a version 2 notification (JSON key `notificationType`).
///
/// [notificationType](https://developer.apple.com/documentation/appstoreservernotifications/notificationtype)
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct NotificationTypeV2: AppStoreEnumeration {
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

    /// `SUBSCRIBED`: The customer subscribed to an auto-renewable subscription.
    public static let subscribed = NotificationTypeV2(rawValue: "SUBSCRIBED")
    /// `DID_CHANGE_RENEWAL_PREF`: The customer changed their subscription plan.
    public static let didChangeRenewalPref = NotificationTypeV2(rawValue: "DID_CHANGE_RENEWAL_PREF")
    /// `DID_CHANGE_RENEWAL_STATUS`: The subscription renewal status changed.
    public static let didChangeRenewalStatus = NotificationTypeV2(rawValue: "DID_CHANGE_RENEWAL_STATUS")
    /// `OFFER_REDEEMED`: The customer redeemed an offer on an active subscription.
    public static let offerRedeemed = NotificationTypeV2(rawValue: "OFFER_REDEEMED")
    /// `DID_RENEW`: The subscription renewed.
    public static let didRenew = NotificationTypeV2(rawValue: "DID_RENEW")
    /// `EXPIRED`: The subscription expired.
    public static let expired = NotificationTypeV2(rawValue: "EXPIRED")
    /// `DID_FAIL_TO_RENEW`: The subscription failed to renew because of a billing issue.
    public static let didFailToRenew = NotificationTypeV2(rawValue: "DID_FAIL_TO_RENEW")
    /// `GRACE_PERIOD_EXPIRED`: The billing grace period ended without a renewal.
    public static let gracePeriodExpired = NotificationTypeV2(rawValue: "GRACE_PERIOD_EXPIRED")
    /// `PRICE_INCREASE`: The system informed the customer of a subscription price increase.
    public static let priceIncrease = NotificationTypeV2(rawValue: "PRICE_INCREASE")
    /// `REFUND`: The App Store refunded a transaction.
    public static let refund = NotificationTypeV2(rawValue: "REFUND")
    /// `REFUND_DECLINED`: The App Store declined a refund request.
    public static let refundDeclined = NotificationTypeV2(rawValue: "REFUND_DECLINED")
    /// `CONSUMPTION_REQUEST`: The customer requested a refund; Apple asks for consumption data.
    public static let consumptionRequest = NotificationTypeV2(rawValue: "CONSUMPTION_REQUEST")
    /// `RENEWAL_EXTENDED`: The App Store extended the subscription renewal date.
    public static let renewalExtended = NotificationTypeV2(rawValue: "RENEWAL_EXTENDED")
    /// `REVOKE`: A purchase is no longer available through Family Sharing.
    public static let revoke = NotificationTypeV2(rawValue: "REVOKE")
    /// `TEST`: A test notification you requested.
    public static let test = NotificationTypeV2(rawValue: "TEST")
    /// `RENEWAL_EXTENSION`: The App Store is extending renewal dates for all eligible subscribers.
    public static let renewalExtension = NotificationTypeV2(rawValue: "RENEWAL_EXTENSION")
    /// `REFUND_REVERSED`: The App Store reversed a previously granted refund.
    public static let refundReversed = NotificationTypeV2(rawValue: "REFUND_REVERSED")
    /// `EXTERNAL_PURCHASE_TOKEN`: An event about an external purchase token.
    public static let externalPurchaseToken = NotificationTypeV2(rawValue: "EXTERNAL_PURCHASE_TOKEN")
    /// `ONE_TIME_CHARGE`: The customer purchased a consumable, non-consumable or non-renewing subscription.
    public static let oneTimeCharge = NotificationTypeV2(rawValue: "ONE_TIME_CHARGE")
    /// `RESCIND_CONSENT`: A parent or guardian withdrew consent for a child's app use.
    public static let rescindConsent = NotificationTypeV2(rawValue: "RESCIND_CONSENT")
    /// `METADATA_UPDATE`: The metadata of an Advanced Commerce subscription changed.
    public static let metadataUpdate = NotificationTypeV2(rawValue: "METADATA_UPDATE")
    /// `MIGRATION`: An Advanced Commerce subscription was migrated.
    public static let migration = NotificationTypeV2(rawValue: "MIGRATION")
    /// `PRICE_CHANGE`: The price of an Advanced Commerce subscription changed.
    public static let priceChange = NotificationTypeV2(rawValue: "PRICE_CHANGE")

    static let constantNames: [String: String] = [
        "SUBSCRIBED": "subscribed",
        "DID_CHANGE_RENEWAL_PREF": "didChangeRenewalPref",
        "DID_CHANGE_RENEWAL_STATUS": "didChangeRenewalStatus",
        "OFFER_REDEEMED": "offerRedeemed",
        "DID_RENEW": "didRenew",
        "EXPIRED": "expired",
        "DID_FAIL_TO_RENEW": "didFailToRenew",
        "GRACE_PERIOD_EXPIRED": "gracePeriodExpired",
        "PRICE_INCREASE": "priceIncrease",
        "REFUND": "refund",
        "REFUND_DECLINED": "refundDeclined",
        "CONSUMPTION_REQUEST": "consumptionRequest",
        "RENEWAL_EXTENDED": "renewalExtended",
        "REVOKE": "revoke",
        "TEST": "test",
        "RENEWAL_EXTENSION": "renewalExtension",
        "REFUND_REVERSED": "refundReversed",
        "EXTERNAL_PURCHASE_TOKEN": "externalPurchaseToken",
        "ONE_TIME_CHARGE": "oneTimeCharge",
        "RESCIND_CONSENT": "rescindConsent",
        "METADATA_UPDATE": "metadataUpdate",
        "MIGRATION": "migration",
        "PRICE_CHANGE": "priceChange",
    ]
}
