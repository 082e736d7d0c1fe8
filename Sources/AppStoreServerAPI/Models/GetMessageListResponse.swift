import Foundation
import JWSVerify

/// The response of Get Message List.
public struct GetMessageListResponse: Codable, Hashable, Sendable {
    /// Each uploaded message.
    public var messageIdentifiers: [GetMessageListResponseItem]?

    /// Creates a value from its fields; every field defaults to absent.
    public init(messageIdentifiers: [GetMessageListResponseItem]? = nil) {
        self.messageIdentifiers = messageIdentifiers
    }
}
