import Foundation
import JWSVerify

/// One signed item of an API response, with its own verification: never dropped, whatever its verdict.
///
/// ``result`` is the token's verification by the ``SignedDataVerifier`` (checks 1 to 13).
/// ``envelopeMismatch`` is set when the token verified but states another bundle id, app Apple id or environment
/// than the response's envelope (code ``VerificationError/Code/envelopeMismatch``, check `claims`). The item is
/// verified only when both are clean.
public struct VerifiedItem: Sendable {
    /// The page the item came from (0 for the first or only page).
    public let page: Int
    /// The item's position among the signed items of its page, from 0.
    public let index: Int
    /// Where it is in the response: `signedTransactions[3]`, `data[0].lastTransactions[1].signedRenewalInfo`.
    public let path: String
    /// The kind of token the member holds.
    public let kind: PayloadKind
    /// The token as the response carried it (empty when the member was not a string).
    public let token: String
    /// The token's verification.
    public let result: VerificationResult<DecodedPayload>
    /// The disagreement between the verified payload and the response's envelope, when there is one.
    public let envelopeMismatch: VerificationError?

    /// The item's error: the token's own, else the envelope mismatch; `nil` when verified.
    public var error: VerificationError? { result.error ?? envelopeMismatch }
    /// Whether the token verified and agrees with its envelope.
    public var isVerified: Bool { error == nil }
    /// The error's code, `nil` when verified.
    public var code: VerificationError.Code? { error?.code }
    /// The error's check, `nil` when verified.
    public var check: VerificationError.Check? { error?.check }
    /// The verified payload; `nil` unless ``isVerified``.
    public var payload: DecodedPayload? { isVerified ? result.payload : nil }

    /// The verified transaction, when the item is one and verified.
    public var transaction: JWSTransactionDecodedPayload? {
        if case .transaction(let value) = payload { return value }
        return nil
    }
    /// The verified renewal information, when the item is one and verified.
    public var renewalInfo: JWSRenewalInfoDecodedPayload? {
        if case .renewalInfo(let value) = payload { return value }
        return nil
    }
    /// The verified app transaction, when the item is one and verified.
    public var appTransaction: AppTransaction? {
        if case .appTransaction(let value) = payload { return value }
        return nil
    }
    /// The verified notification, when the item is one and verified.
    public var notification: DecodedNotification? {
        if case .notification(let value) = payload { return value }
        return nil
    }

    /// Creates an item (the verifying client builds them).
    init(
        page: Int, index: Int, path: String, kind: PayloadKind, token: String,
        result: VerificationResult<DecodedPayload>, envelopeMismatch: VerificationError?
    ) {
        self.page = page
        self.index = index
        self.path = path
        self.kind = kind
        self.token = token
        self.result = result
        self.envelopeMismatch = envelopeMismatch
    }
}

/// A response whose signed items were each verified.
public struct VerifiedResponse<Response: Sendable>: Sendable {
    /// The decoded response; its envelope members (`bundleId`, `revision`, ...) are as the server sent them.
    ///
    /// - Warning: The signed members in it are the raw tokens; read the verified payloads from ``items``.
    public let response: Response
    /// Which response it is (the table entry that named its signed members).
    public let kind: APIResponseKind
    /// The page number (0 for the first or only page).
    public let page: Int
    /// Every signed item, in the order of the response, each with its verification.
    public let items: [VerifiedItem]
    /// The disagreement between the envelope and the verifier's configuration (bundle id, app Apple id,
    /// environment), when the envelope states the app and disagrees.
    public let envelopeMismatch: VerificationError?

    /// Whether the envelope agrees with the verifier and every item verified.
    public var allVerified: Bool { envelopeMismatch == nil && items.allSatisfy(\.isVerified) }
    /// The items that did not verify.
    public var failures: [VerifiedItem] { items.filter { !$0.isVerified } }
}
