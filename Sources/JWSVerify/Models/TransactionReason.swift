/// Whether a transaction is a customer's purchase or a renewal the system initiated.
///
/// [transactionReason](https://developer.apple.com/documentation/appstoreserverapi/transactionreason)
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct TransactionReason: AppStoreEnumeration {
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

    /// `PURCHASE`: The customer initiated the purchase.
    public static let purchase = TransactionReason(rawValue: "PURCHASE")
    /// `RENEWAL`: The App Store renewed an auto-renewable subscription.
    public static let renewal = TransactionReason(rawValue: "RENEWAL")

    static let constantNames: [String: String] = [
        "PURCHASE": "purchase",
        "RENEWAL": "renewal",
    ]
}
