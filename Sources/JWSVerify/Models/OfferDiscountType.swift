/// The payment mode of a discount offer.
///
/// [offerDiscountType](https://developer.apple.com/documentation/appstoreserverapi/offerdiscounttype)
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct OfferDiscountType: AppStoreEnumeration {
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

    /// `FREE_TRIAL`: A free trial.
    public static let freeTrial = OfferDiscountType(rawValue: "FREE_TRIAL")
    /// `PAY_AS_YOU_GO`: A discounted price paid each period.
    public static let payAsYouGo = OfferDiscountType(rawValue: "PAY_AS_YOU_GO")
    /// `PAY_UP_FRONT`: A discounted price paid once, up front.
    public static let payUpFront = OfferDiscountType(rawValue: "PAY_UP_FRONT")
    /// `ONE_TIME`: A one-time discount on an In-App Purchase offer code.
    public static let oneTime = OfferDiscountType(rawValue: "ONE_TIME")

    static let constantNames: [String: String] = [
        "FREE_TRIAL": "freeTrial",
        "PAY_AS_YOU_GO": "payAsYouGo",
        "PAY_UP_FRONT": "payUpFront",
        "ONE_TIME": "oneTime",
    ]
}
