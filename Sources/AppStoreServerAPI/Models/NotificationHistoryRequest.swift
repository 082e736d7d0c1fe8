import Foundation
import JWSVerify

/// The body of Get Notification History.
public struct NotificationHistoryRequest: Codable, Hashable, Sendable {
    /// Notifications sent at or after this time (at most 180 days ago).
    public var startDate: Date?

    /// Notifications sent before this time.
    public var endDate: Date?

    /// Only this notification type.
    public var notificationType: NotificationTypeV2?

    /// Only this subtype.
    public var notificationSubtype: Subtype?

    /// Only notifications about this transaction.
    public var transactionId: String?

    /// Only notifications your server did not receive.
    public var onlyFailures: Bool?

    /// Creates a value from its fields; every field defaults to absent.
    public init(
        startDate: Date? = nil,
        endDate: Date? = nil,
        notificationType: NotificationTypeV2? = nil,
        notificationSubtype: Subtype? = nil,
        transactionId: String? = nil,
        onlyFailures: Bool? = nil
    ) {
        self.startDate = startDate
        self.endDate = endDate
        self.notificationType = notificationType
        self.notificationSubtype = notificationSubtype
        self.transactionId = transactionId
        self.onlyFailures = onlyFailures
    }
}
