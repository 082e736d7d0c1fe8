import Foundation
import JWSSigning
import JWSVerify

/// The response of Get Default Message.
public struct DefaultConfigurationResponse: Codable, Hashable, Sendable {
    /// The default message.
    public var messageIdentifier: UUID?

    /// Creates a value from its fields; every field defaults to absent.
    public init(messageIdentifier: UUID? = nil) {
        self.messageIdentifier = messageIdentifier
    }
}

extension DefaultConfigurationResponse {
    enum CodingKeys: String, CodingKey {
        case messageIdentifier
    }

    /// Encodes the fields; UUIDs in lower case, as Apple's Python, Node and Java libraries write them.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeLowercased(messageIdentifier, forKey: .messageIdentifier)
    }
}
