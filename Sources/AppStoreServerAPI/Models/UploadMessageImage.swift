import Foundation
import JWSSigning
import JWSVerify

/// The image of a Retention Messaging message.
public struct UploadMessageImage: Codable, Hashable, Sendable {
    /// An uploaded image's id.
    public var imageIdentifier: UUID?

    /// Its alternative text.
    public var altText: String?

    /// Creates a value from its fields; every field defaults to absent.
    public init(imageIdentifier: UUID? = nil, altText: String? = nil) {
        self.imageIdentifier = imageIdentifier
        self.altText = altText
    }
}

extension UploadMessageImage {
    enum CodingKeys: String, CodingKey {
        case imageIdentifier, altText
    }

    /// Encodes the fields; UUIDs in lower case, as Apple's Python, Node and Java libraries write them.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeLowercased(imageIdentifier, forKey: .imageIdentifier)
        try container.encodeIfPresent(altText, forKey: .altText)
    }
}
