import Foundation
import JWSVerify

/// The response of Get Test Notification Status.
public struct CheckTestNotificationResponse: Codable, Hashable, Sendable {
    /// The test notification, signed by the App Store (JWS).
    public var signedPayload: String?

    /// Each attempt to send it to your server.
    public var sendAttempts: [SendAttemptItem]?

    /// Creates a value from its fields; every field defaults to absent.
    public init(signedPayload: String? = nil, sendAttempts: [SendAttemptItem]? = nil) {
        self.signedPayload = signedPayload
        self.sendAttempts = sendAttempts
    }
}
