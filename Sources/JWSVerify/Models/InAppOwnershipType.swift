/// Whether the customer purchased the product or has it through Family Sharing.
///
/// [inAppOwnershipType](https://developer.apple.com/documentation/appstoreserverapi/inappownershiptype)
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct InAppOwnershipType: AppStoreEnumeration {
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

    /// `FAMILY_SHARED`: The customer has access through Family Sharing.
    public static let familyShared = InAppOwnershipType(rawValue: "FAMILY_SHARED")
    /// `PURCHASED`: The customer purchased the product.
    public static let purchased = InAppOwnershipType(rawValue: "PURCHASED")

    static let constantNames: [String: String] = [
        "FAMILY_SHARED": "familyShared",
        "PURCHASED": "purchased",
    ]
}
