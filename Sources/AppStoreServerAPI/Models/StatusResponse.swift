import Foundation
import JWSVerify

/// The response of Get All Subscription Statuses.
public struct StatusResponse: Codable, Hashable, Sendable {
    /// The environment of the subscriptions.
    public var environment: AppStoreEnvironment?

    /// The bundle id of the app.
    public var bundleId: String?

    /// The app's Apple id (absent in the sandbox).
    public var appAppleId: Int64?

    /// One item per subscription group.
    public var data: [SubscriptionGroupIdentifierItem]?

    /// Creates a value from its fields; every field defaults to absent.
    public init(
        environment: AppStoreEnvironment? = nil,
        bundleId: String? = nil,
        appAppleId: Int64? = nil,
        data: [SubscriptionGroupIdentifierItem]? = nil
    ) {
        self.environment = environment
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.data = data
    }
}
