import Foundation
import JWSVerify

/// The latest transaction and renewal information of one subscription.
public struct LastTransactionsItem: Codable, Hashable, Sendable {
    /// The subscription's status.
    public var status: Status?

    /// The original transaction id of the subscription.
    public var originalTransactionId: String?

    /// The latest transaction, signed by the App Store (JWS).
    public var signedTransactionInfo: String?

    /// The renewal information, signed by the App Store (JWS).
    public var signedRenewalInfo: String?

    /// Creates a value from its fields; every field defaults to absent.
    public init(
        status: Status? = nil,
        originalTransactionId: String? = nil,
        signedTransactionInfo: String? = nil,
        signedRenewalInfo: String? = nil
    ) {
        self.status = status
        self.originalTransactionId = originalTransactionId
        self.signedTransactionInfo = signedTransactionInfo
        self.signedRenewalInfo = signedRenewalInfo
    }
}
