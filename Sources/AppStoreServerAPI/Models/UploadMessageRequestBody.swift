import Foundation
import JWSVerify

/// The body of Upload Message.
public struct UploadMessageRequestBody: Codable, Hashable, Sendable {
    /// The header text.
    public var header: String?

    /// The body text.
    public var body: String?

    /// The image.
    public var image: UploadMessageImage?

    /// Where the header goes.
    public var headerPosition: HeaderPosition?

    /// The bullet points.
    public var bulletPoints: [BulletPoint]?

    /// Creates a value from its fields; every field defaults to absent.
    public init(
        header: String? = nil,
        body: String? = nil,
        image: UploadMessageImage? = nil,
        headerPosition: HeaderPosition? = nil,
        bulletPoints: [BulletPoint]? = nil
    ) {
        self.header = header
        self.body = body
        self.image = image
        self.headerPosition = headerPosition
        self.bulletPoints = bulletPoints
    }
}
