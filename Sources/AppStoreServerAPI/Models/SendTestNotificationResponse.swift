import Foundation
import JWSVerify

/// The response of Request a Test Notification.
public struct SendTestNotificationResponse: Codable, Hashable, Sendable {
    /// The token to ask for the test notification's status.
    public var testNotificationToken: String?

    /// Creates a value from its fields; every field defaults to absent.
    public init(testNotificationToken: String? = nil) {
        self.testNotificationToken = testNotificationToken
    }
}
