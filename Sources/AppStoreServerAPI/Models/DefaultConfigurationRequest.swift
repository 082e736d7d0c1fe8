import Foundation
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
