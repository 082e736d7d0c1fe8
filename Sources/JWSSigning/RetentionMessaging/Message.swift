import Foundation

/// A text retention message, with an optional image, that the App Store shows to the customer.
///
/// [message](https://developer.apple.com/documentation/retentionmessaging/message)
public struct Message: Codable, Hashable, Sendable {
    /// The identifier of the message to show, one you uploaded (written in lower case).
    ///
    /// [messageIdentifier](https://developer.apple.com/documentation/retentionmessaging/messageidentifier)
    public var messageIdentifier: UUID?

    /// Names the message to show.
    public init(messageIdentifier: UUID? = nil) {
        self.messageIdentifier = messageIdentifier
    }

    enum CodingKeys: String, CodingKey {
        case messageIdentifier
    }

    /// Decodes the message; the UUID may be in either case.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        messageIdentifier = try container.decodeUUIDIfPresent(forKey: .messageIdentifier)
    }

    /// Encodes the identifier in lower case, when there is one.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeLowercased(messageIdentifier, forKey: .messageIdentifier)
    }
}
