import Foundation
import JWSSigning
import JWSVerify

/// One uploaded Retention Messaging image.
public struct GetImageListResponseItem: Codable, Hashable, Sendable {
    /// The image's id.
    public var imageIdentifier: UUID?

    /// Its review state.
    public var imageState: ImageState?

    /// Its size.
    public var imageSize: ImageSize?

    /// Creates a value from its fields; every field defaults to absent.
    public init(imageIdentifier: UUID? = nil, imageState: ImageState? = nil, imageSize: ImageSize? = nil) {
        self.imageIdentifier = imageIdentifier
        self.imageState = imageState
        self.imageSize = imageSize
    }
}

extension GetImageListResponseItem {
    enum CodingKeys: String, CodingKey {
        case imageIdentifier, imageState, imageSize
    }

    /// Encodes the fields; UUIDs in lower case, as Apple's Python, Node and Java libraries write them.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeLowercased(imageIdentifier, forKey: .imageIdentifier)
        try container.encodeIfPresent(imageState, forKey: .imageState)
        try container.encodeIfPresent(imageSize, forKey: .imageSize)
    }
}
