/// The platform on which the customer originally purchased an app.
///
/// [originalPlatform](https://developer.apple.com/documentation/appstoreserverapi/originalplatform)
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct PurchasePlatform: AppStoreEnumeration {
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

    /// `iOS`: iOS, iPadOS or watchOS.
    public static let iOS = PurchasePlatform(rawValue: "iOS")
    /// `macOS`: macOS.
    public static let macOS = PurchasePlatform(rawValue: "macOS")
    /// `tvOS`: tvOS.
    public static let tvOS = PurchasePlatform(rawValue: "tvOS")
    /// `visionOS`: visionOS.
    public static let visionOS = PurchasePlatform(rawValue: "visionOS")

    static let constantNames: [String: String] = [
        "iOS": "iOS",
        "macOS": "macOS",
        "tvOS": "tvOS",
        "visionOS": "visionOS",
    ]
}
