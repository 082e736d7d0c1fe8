import Foundation
import JWSSigning
import JWSVerify

/// A bullet point of a Retention Messaging message.
public struct BulletPoint: Codable, Hashable, Sendable {
    /// The text.
    public var text: String?

    /// The icon's image id.
    public var imageIdentifier: UUID?

    /// The icon's alternative text.
    public var altText: String?

    /// Creates a value from its fields; every field defaults to absent.
    public init(text: String? = nil, imageIdentifier: UUID? = nil, altText: String? = nil) {
        self.text = text
        self.imageIdentifier = imageIdentifier
        self.altText = altText
    }
}

extension BulletPoint {
    enum CodingKeys: String, CodingKey {
        case text, imageIdentifier, altText
    }

    /// Encodes the fields; UUIDs in lower case, as Apple's Python, Node and Java libraries write them.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(text, forKey: .text)
        try container.encodeLowercased(imageIdentifier, forKey: .imageIdentifier)
        try container.encodeIfPresent(altText, forKey: .altText)
    }
}
