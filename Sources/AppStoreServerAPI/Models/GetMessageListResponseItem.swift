import Foundation
import JWSVerify

/// One uploaded Retention Messaging message.
public struct GetMessageListResponseItem: Codable, Hashable, Sendable {
    /// The message's id.
    public var messageIdentifier: UUID?

    /// Its review state.
    public var messageState: MessageState?

    /// Creates a value from its fields; every field defaults to absent.
    public init(messageIdentifier: UUID? = nil, messageState: MessageState? = nil) {
        self.messageIdentifier = messageIdentifier
        self.messageState = messageState
    }
}
