import Foundation
import JWSVerify

/// A page of Get Notification History.
public struct NotificationHistoryResponse: Codable, Hashable, Sendable {
    /// The token to ask for the next page.
    public var paginationToken: String?

    /// Whether more pages follow.
    public var hasMore: Bool?

    /// The notifications of this page.
    public var notificationHistory: [NotificationHistoryResponseItem]?

    /// Creates a value from its fields; every field defaults to absent.
    public init(
        paginationToken: String? = nil,
        hasMore: Bool? = nil,
        notificationHistory: [NotificationHistoryResponseItem]? = nil
    ) {
        self.paginationToken = paginationToken
        self.hasMore = hasMore
        self.notificationHistory = notificationHistory
    }
}
