import Foundation

/// A product type filter of Get Transaction History (Apple: `TransactionHistoryRequest.ProductType`).
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct HistoryProductType: APIEnumeration {
    /// The raw JSON value.
    public let rawValue: String
    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `AUTO_RENEWABLE`: Auto-renewable subscriptions.
    public static let autoRenewable = HistoryProductType(rawValue: "AUTO_RENEWABLE")
    /// `NON_RENEWABLE`: Non-renewing subscriptions.
    public static let nonRenewable = HistoryProductType(rawValue: "NON_RENEWABLE")
    /// `CONSUMABLE`: Consumables.
    public static let consumable = HistoryProductType(rawValue: "CONSUMABLE")
    /// `NON_CONSUMABLE`: Non-consumables.
    public static let nonConsumable = HistoryProductType(rawValue: "NON_CONSUMABLE")

    static let constantNames: [String: String] = [
        "AUTO_RENEWABLE": "autoRenewable",
        "NON_RENEWABLE": "nonRenewable",
        "CONSUMABLE": "consumable",
        "NON_CONSUMABLE": "nonConsumable",
    ]
}
