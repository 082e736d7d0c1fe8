import Foundation
import JWSVerify

/// One notification of the history, with its send attempts.
public struct NotificationHistoryResponseItem: Codable, Hashable, Sendable {
    /// The notification, signed by the App Store (JWS).
    public var signedPayload: String?

    /// Each attempt to send it to your server.
    public var sendAttempts: [SendAttemptItem]?

    /// Creates a value from its fields; every field defaults to absent.
    public init(signedPayload: String? = nil, sendAttempts: [SendAttemptItem]? = nil) {
        self.signedPayload = signedPayload
        self.sendAttempts = sendAttempts
    }
}
