import Foundation
import JWSVerify

/// The response of Get App Transaction Info.
public struct AppTransactionInfoResponse: Codable, Hashable, Sendable {
    /// The app transaction, signed by the App Store (JWS).
    public var signedAppTransactionInfo: String?

    /// Creates a value from its fields; every field defaults to absent.
    public init(signedAppTransactionInfo: String? = nil) {
        self.signedAppTransactionInfo = signedAppTransactionInfo
    }
}
