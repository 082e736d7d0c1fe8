import Foundation
import JWSVerify

/// The body of Configure Realtime URL.
public struct RealtimeUrlRequest: Codable, Hashable, Sendable {
    /// Your server's realtime URL.
    public var realtimeURL: String?

    /// Creates a value from its fields; every field defaults to absent.
    public init(realtimeURL: String? = nil) {
        self.realtimeURL = realtimeURL
    }
}
