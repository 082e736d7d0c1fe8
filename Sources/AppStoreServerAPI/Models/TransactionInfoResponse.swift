import Foundation
import JWSVerify

/// The response of Get Transaction Info.
public struct TransactionInfoResponse: Codable, Hashable, Sendable {
    /// A transaction, signed by the App Store (JWS).
    public var signedTransactionInfo: String?

    /// Creates a value from its fields; every field defaults to absent.
    public init(signedTransactionInfo: String? = nil) {
        self.signedTransactionInfo = signedTransactionInfo
    }
}
