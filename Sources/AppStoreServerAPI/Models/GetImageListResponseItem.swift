import Foundation
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
