import Foundation
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
