import Foundation
import JWSVerify

/// The body of an error response.
public struct ErrorPayload: Codable, Hashable, Sendable {
    /// Apple's error code (``APIErrorCode``).
    public var errorCode: Int64?

    /// Apple's message.
    public var errorMessage: String?

    /// Creates a value from its fields; every field defaults to absent.
    public init(errorCode: Int64? = nil, errorMessage: String? = nil) {
        self.errorCode = errorCode
        self.errorMessage = errorMessage
    }
}
