import Foundation
import JWSSigning
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

extension GetMessageListResponseItem {
    enum CodingKeys: String, CodingKey {
        case messageIdentifier, messageState
    }

    /// Encodes the fields; UUIDs in lower case, as Apple's Python, Node and Java libraries write them.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeLowercased(messageIdentifier, forKey: .messageIdentifier)
        try container.encodeIfPresent(messageState, forKey: .messageState)
    }
}
