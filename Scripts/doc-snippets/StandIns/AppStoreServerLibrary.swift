// A stand-in for the few declarations of Apple's App Store Server Library (AppStoreServerLibrary 6.0.0)
// that Docs/Migrating-from-Apple.md's "Apple's App Store Server Library" handler uses, with Apple's names
// and signatures (Sources/AppStoreServerLibrary/SignedDataVerifier.swift, ChainVerifier.swift and
// Models/ at 6.0.0), so that Scripts/doc-snippets.sh compiles that handler without fetching the library.
// Nothing here runs. Keep it to what the documentation uses.
import Foundation

public struct SignedDataVerifier: Sendable {
    public func verifyAndDecodeTransaction(signedTransaction: String) async
        -> VerificationResult<JWSTransactionDecodedPayload>
    { .invalid(.VERIFICATION_FAILURE) }
    public func verifyAndDecodeNotification(signedPayload: String) async
        -> VerificationResult<ResponseBodyV2DecodedPayload>
    { .invalid(.VERIFICATION_FAILURE) }
}

public enum VerificationResult<T: Hashable & Sendable>: Hashable, Sendable {
    case valid(T)
    case invalid(VerificationError)
}

public enum VerificationError: Hashable, Sendable {
    case INVALID_JWT_FORMAT
    case INVALID_CERTIFICATE
    case VERIFICATION_FAILURE
    case RETRYABLE_VERIFICATION_FAILURE
    case INVALID_APP_IDENTIFIER
    case INVALID_ENVIRONMENT
}

public struct ResponseBodyV2: Decodable, Encodable, Hashable, Sendable {
    public var signedPayload: String?
}

public struct ResponseBodyV2DecodedPayload: Decodable, Encodable, Hashable, Sendable {
    public var rawNotificationType: String?
    public var notificationUUID: String?
    public var data: NotificationData?
}

public struct NotificationData: Decodable, Encodable, Hashable, Sendable {
    public var rawEnvironment: String?
    public var signedTransactionInfo: String?
    public var signedRenewalInfo: String?
}

public struct JWSTransactionDecodedPayload: Decodable, Encodable, Hashable, Sendable {
    public var transactionId: String?
}
