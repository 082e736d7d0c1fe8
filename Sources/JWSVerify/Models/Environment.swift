/// The server environment that signed a payload: sandbox, production, Xcode or local StoreKit testing.
///
/// [environment](https://developer.apple.com/documentation/appstoreserverapi/environment)
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct Environment: AppStoreEnumeration {
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

    /// `Sandbox`: The sandbox environment.
    public static let sandbox = Environment(rawValue: "Sandbox")
    /// `Production`: The production environment.
    public static let production = Environment(rawValue: "Production")
    /// `Xcode`: StoreKit Testing in Xcode.
    public static let xcode = Environment(rawValue: "Xcode")
    /// `LocalTesting`: Local StoreKit testing.
    public static let localTesting = Environment(rawValue: "LocalTesting")

    static let constantNames: [String: String] = [
        "Sandbox": "sandbox",
        "Production": "production",
        "Xcode": "xcode",
        "LocalTesting": "localTesting",
    ]
}
