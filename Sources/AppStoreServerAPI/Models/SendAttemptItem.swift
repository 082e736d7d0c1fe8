import Foundation
import JWSVerify

/// One attempt to send a notification to your server.
public struct SendAttemptItem: Codable, Hashable, Sendable {
    /// When the App Store tried.
    public var attemptDate: Date?

    /// The outcome.
    public var sendAttemptResult: SendAttemptResult?

    /// Creates a value from its fields; every field defaults to absent.
    public init(attemptDate: Date? = nil, sendAttemptResult: SendAttemptResult? = nil) {
        self.attemptDate = attemptDate
        self.sendAttemptResult = sendAttemptResult
    }
}
