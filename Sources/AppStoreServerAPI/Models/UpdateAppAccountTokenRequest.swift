import Foundation
import JWSVerify

/// The body of Set App Account Token.
public struct UpdateAppAccountTokenRequest: Codable, Hashable, Sendable {
    /// The customer's account token in your app.
    public var appAccountToken: UUID?

    /// Creates a value from its fields; every field defaults to absent.
    public init(appAccountToken: UUID? = nil) {
        self.appAccountToken = appAccountToken
    }
}
