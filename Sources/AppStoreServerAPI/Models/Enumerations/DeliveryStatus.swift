import Foundation

/// Whether a consumable in-app purchase was delivered (Send Consumption Information, v2).
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct DeliveryStatus: APIEnumeration {
    /// The raw JSON value.
    public let rawValue: String
    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `DELIVERED`: Delivered and working.
    public static let delivered = DeliveryStatus(rawValue: "DELIVERED")
    /// `UNDELIVERED_QUALITY_ISSUE`: Not delivered: a quality issue.
    public static let undeliveredQualityIssue = DeliveryStatus(rawValue: "UNDELIVERED_QUALITY_ISSUE")
    /// `UNDELIVERED_WRONG_ITEM`: The wrong item was delivered.
    public static let undeliveredWrongItem = DeliveryStatus(rawValue: "UNDELIVERED_WRONG_ITEM")
    /// `UNDELIVERED_SERVER_OUTAGE`: Not delivered: a server outage.
    public static let undeliveredServerOutage = DeliveryStatus(rawValue: "UNDELIVERED_SERVER_OUTAGE")
    /// `UNDELIVERED_OTHER`: Not delivered: another reason.
    public static let undeliveredOther = DeliveryStatus(rawValue: "UNDELIVERED_OTHER")

    static let constantNames: [String: String] = [
        "DELIVERED": "delivered",
        "UNDELIVERED_QUALITY_ISSUE": "undeliveredQualityIssue",
        "UNDELIVERED_WRONG_ITEM": "undeliveredWrongItem",
        "UNDELIVERED_SERVER_OUTAGE": "undeliveredServerOutage",
        "UNDELIVERED_OTHER": "undeliveredOther",
    ]
}
