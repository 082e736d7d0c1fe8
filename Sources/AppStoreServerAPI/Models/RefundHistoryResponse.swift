import Foundation
import JWSVerify

/// A page of Get Refund History.
public struct RefundHistoryResponse: Codable, Hashable, Sendable {
    /// The refunded transactions, each signed by the App Store (JWS).
    public var signedTransactions: [String]?

    /// The token to ask for the next page.
    public var revision: String?

    /// Whether more pages follow.
    public var hasMore: Bool?

    /// Creates a value from its fields; every field defaults to absent.
    public init(signedTransactions: [String]? = nil, revision: String? = nil, hasMore: Bool? = nil) {
        self.signedTransactions = signedTransactions
        self.revision = revision
        self.hasMore = hasMore
    }
}
