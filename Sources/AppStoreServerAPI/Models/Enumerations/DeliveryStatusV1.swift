import Foundation

/// Whether a consumable in-app purchase was delivered (v1).
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct DeliveryStatusV1: APIEnumeration {
    /// The raw JSON value.
    public let rawValue: Int32
    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `0`: Delivered and working.
    public static let deliveredAndWorkingProperly = DeliveryStatusV1(rawValue: 0)
    /// `1`: Not delivered: a quality issue.
    public static let didNotDeliverDueToQualityIssue = DeliveryStatusV1(rawValue: 1)
    /// `2`: The wrong item was delivered.
    public static let deliveredWrongItem = DeliveryStatusV1(rawValue: 2)
    /// `3`: Not delivered: a server outage.
    public static let didNotDeliverDueToServerOutage = DeliveryStatusV1(rawValue: 3)
    /// `4`: Not delivered: an in-game currency change.
    public static let didNotDeliverDueToIngameCurrencyChange = DeliveryStatusV1(rawValue: 4)
    /// `5`: Not delivered: another reason.
    public static let didNotDeliverForOtherReason = DeliveryStatusV1(rawValue: 5)

    static let constantNames: [Int32: String] = [
        0: "deliveredAndWorkingProperly",
        1: "didNotDeliverDueToQualityIssue",
        2: "deliveredWrongItem",
        3: "didNotDeliverDueToServerOutage",
        4: "didNotDeliverDueToIngameCurrencyChange",
        5: "didNotDeliverForOtherReason",
    ]
}
