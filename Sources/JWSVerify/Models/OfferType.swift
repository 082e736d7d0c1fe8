/// The type of offer applied to a purchase or renewal.
///
/// [offerType](https://developer.apple.com/documentation/appstoreserverapi/offertype)
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct OfferType: AppStoreEnumeration {
    /// The raw JSON value.
    public let rawValue: Int64

    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: Int64) {
        self.rawValue = rawValue
    }

    /// The name of the Swift constant for a documented value, `nil` for a value this version doesn't know.
    public var name: String? { constantName }

    /// The raw JSON value as a tree.
    package var jsonValue: JSONValue { rawValue.jsonValue }

    /// `1`: An introductory offer.
    public static let introductoryOffer = OfferType(rawValue: 1)
    /// `2`: A promotional offer.
    public static let promotionalOffer = OfferType(rawValue: 2)
    /// `3`: An offer with an offer code (Apple's library calls it `subscriptionOfferCode`).
    public static let offerCode = OfferType(rawValue: 3)
    /// `4`: A win-back offer.
    public static let winBackOffer = OfferType(rawValue: 4)

    static let constantNames: [Int64: String] = [
        1: "introductoryOffer",
        2: "promotionalOffer",
        3: "offerCode",
        4: "winBackOffer",
    ]
}
