/// The type of an external purchase custom link token.
///
/// [tokenType](https://developer.apple.com/documentation/appstoreservernotifications/tokentype)
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct TokenType: AppStoreEnumeration {
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

    /// `ACQUISITION`: A token for customer acquisition.
    public static let acquisition = TokenType(rawValue: "ACQUISITION")
    /// `SERVICES`: A token for services.
    public static let services = TokenType(rawValue: "SERVICES")

    static let constantNames: [String: String] = [
        "ACQUISITION": "acquisition",
        "SERVICES": "services",
    ]
}
