import Foundation
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
