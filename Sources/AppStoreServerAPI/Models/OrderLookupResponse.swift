import Foundation
import JWSVerify

/// The response of Look Up Order ID.
public struct OrderLookupResponse: Codable, Hashable, Sendable {
    /// Whether the order id is valid.
    public var status: OrderLookupStatus?

    /// The order's transactions, each signed by the App Store (JWS).
    public var signedTransactions: [String]?

    /// Creates a value from its fields; every field defaults to absent.
    public init(status: OrderLookupStatus? = nil, signedTransactions: [String]? = nil) {
        self.status = status
        self.signedTransactions = signedTransactions
    }
}
