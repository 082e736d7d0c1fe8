import Foundation
import JWSSigning
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

extension UpdateAppAccountTokenRequest {
    enum CodingKeys: String, CodingKey {
        case appAccountToken
    }

    /// Encodes the fields; UUIDs in lower case, as Apple's Python, Node and Java libraries write them.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeLowercased(appAccountToken, forKey: .appAccountToken)
    }
}
