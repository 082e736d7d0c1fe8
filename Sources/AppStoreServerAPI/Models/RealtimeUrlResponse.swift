import Foundation
import JWSVerify

/// The response of Get Realtime URL.
public struct RealtimeUrlResponse: Codable, Hashable, Sendable {
    /// Your server's realtime URL.
    public var realtimeURL: String?

    /// Creates a value from its fields; every field defaults to absent.
    public init(realtimeURL: String? = nil) {
        self.realtimeURL = realtimeURL
    }
}
