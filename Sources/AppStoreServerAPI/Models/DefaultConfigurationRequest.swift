import Foundation
import JWSSigning
import JWSVerify

/// The body of Configure Default Message.
public struct DefaultConfigurationRequest: Codable, Hashable, Sendable {
    /// The message to show by default.
    public var messageIdentifier: UUID?

    /// Creates a value from its fields; every field defaults to absent.
    public init(messageIdentifier: UUID? = nil) {
        self.messageIdentifier = messageIdentifier
    }
}

extension DefaultConfigurationRequest {
    enum CodingKeys: String, CodingKey {
        case messageIdentifier
    }

    /// Encodes the fields; UUIDs in lower case, as Apple's Python, Node and Java libraries write them.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeLowercased(messageIdentifier, forKey: .messageIdentifier)
    }
}
