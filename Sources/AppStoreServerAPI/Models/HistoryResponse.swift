import Foundation
import JWSVerify

/// A page of Get Transaction History.
public struct HistoryResponse: Codable, Hashable, Sendable {
    /// The token to ask for the next page.
    public var revision: String?

    /// Whether more pages follow.
    public var hasMore: Bool?

    /// The bundle id of the app.
    public var bundleId: String?

    /// The app's Apple id (absent in the sandbox).
    public var appAppleId: Int64?

    /// The environment of the transactions.
    public var environment: AppStoreEnvironment?

    /// The transactions, each signed by the App Store (JWS).
    public var signedTransactions: [String]?

    /// Creates a value from its fields; every field defaults to absent.
    public init(
        revision: String? = nil,
        hasMore: Bool? = nil,
        bundleId: String? = nil,
        appAppleId: Int64? = nil,
        environment: AppStoreEnvironment? = nil,
        signedTransactions: [String]? = nil
    ) {
        self.revision = revision
        self.hasMore = hasMore
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.environment = environment
        self.signedTransactions = signedTransactions
    }
}
