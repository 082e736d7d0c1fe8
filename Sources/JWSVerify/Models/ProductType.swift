/// The type of an In-App Purchase product (JSON key `type`).
///
/// [type](https://developer.apple.com/documentation/appstoreserverapi/type)
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct ProductType: AppStoreEnumeration {
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

    /// `Auto-Renewable Subscription`: An auto-renewable subscription.
    public static let autoRenewableSubscription = ProductType(rawValue: "Auto-Renewable Subscription")
    /// `Non-Consumable`: A non-consumable In-App Purchase.
    public static let nonConsumable = ProductType(rawValue: "Non-Consumable")
    /// `Consumable`: A consumable In-App Purchase.
    public static let consumable = ProductType(rawValue: "Consumable")
    /// `Non-Renewing Subscription`: A non-renewing subscription.
    public static let nonRenewingSubscription = ProductType(rawValue: "Non-Renewing Subscription")

    static let constantNames: [String: String] = [
        "Auto-Renewable Subscription": "autoRenewableSubscription",
        "Non-Consumable": "nonConsumable",
        "Consumable": "consumable",
        "Non-Renewing Subscription": "nonRenewingSubscription",
    ]
}
