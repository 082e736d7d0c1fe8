import Foundation

/// The five kinds of App Store signed data.
public enum PayloadKind: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    /// A transaction (`JWSTransactionDecodedPayload`), from StoreKit 2 or the App Store Server API.
    case transaction
    /// Subscription renewal information (`JWSRenewalInfoDecodedPayload`).
    case renewalInfo = "renewal"
    /// An app transaction (`AppTransaction`), the app's purchase record.
    case appTransaction = "app-transaction"
    /// An App Store Server Notification V2 (`ResponseBodyV2DecodedPayload`).
    case notification
    /// A Retention Messaging realtime request (`DecodedRealtimeRequestBody`).
    case realtimeRequest = "realtime"

    /// The kind in words: `renewal info`, `app transaction`, ...
    public var description: String {
        switch self {
        case .transaction: return "transaction"
        case .renewalInfo: return "renewal info"
        case .appTransaction: return "app transaction"
        case .notification: return "notification"
        case .realtimeRequest: return "realtime request"
        }
    }

    /// The `SignedDataVerifier` method for this kind.
    var methodName: String {
        switch self {
        case .transaction: return "verifyAndDecodeTransaction"
        case .renewalInfo: return "verifyAndDecodeRenewalInfo"
        case .appTransaction: return "verifyAndDecodeAppTransaction"
        case .notification: return "verifyAndDecodeNotification"
        case .realtimeRequest: return "verifyAndDecodeRealtimeRequest"
        }
    }

    /// Top-level keys that only this kind carries; one of them present means the payload is of this kind.
    var markerKeys: [String] {
        switch self {
        case .notification: return ["notificationType", "notificationUUID"]
        case .appTransaction:
            return ["receiptType", "applicationVersion", "originalApplicationVersion", "receiptCreationDate"]
        case .transaction: return ["transactionId", "purchaseDate", "inAppOwnershipType", "webOrderLineItemId"]
        case .renewalInfo:
            return [
                "autoRenewStatus", "autoRenewProductId", "expirationIntent", "renewalDate", "isInBillingRetryPeriod",
            ]
        case .realtimeRequest: return ["userLocale"]
        }
    }

    /// The kind whose marker keys appear among `keys`, if any.
    static func recognize<S: Sequence>(keys: S) -> PayloadKind? where S.Element == String {
        let keys = Set(keys)
        return allCases.first { kind in kind.markerKeys.contains(where: keys.contains) }
    }

    /// The kind of a whole payload: by its marker keys, else a transaction when it has a top-level
    /// `bundleId` (of the five kinds only transactions and app transactions carry one, and an app
    /// transaction has its own markers; Apple's minimal test transactions carry nothing else).
    static func recognize(payload keys: Dictionary<String, JSONValue>.Keys) -> PayloadKind? {
        recognize(keys: keys) ?? (keys.contains("bundleId") ? .transaction : nil)
    }

    /// Recognizes the kind of an App Store token from its payload's keys, without verifying anything.
    ///
    /// A payload with none of the keys that only one kind has, but a top-level `bundleId`, is taken
    /// for a transaction.
    ///
    /// - Returns: the kind, or nil when the token does not parse or its payload says nothing of its kind.
    public static func recognize(token: String) -> PayloadKind? {
        guard let jws = try? CompactJWS(parsing: token) else { return nil }
        return recognize(payload: jws.payloadObject.keys)
    }
}

/// A decoded payload of any kind, for callers that handle every kind in one place (the CLI).
public enum DecodedPayload: Sendable, Hashable {
    case transaction(JWSTransactionDecodedPayload)
    case renewalInfo(JWSRenewalInfoDecodedPayload)
    case appTransaction(AppTransaction)
    case notification(DecodedNotification)
    case realtimeRequest(DecodedRealtimeRequestBody)

    /// The kind of this payload.
    public var kind: PayloadKind {
        switch self {
        case .transaction: return .transaction
        case .renewalInfo: return .renewalInfo
        case .appTransaction: return .appTransaction
        case .notification: return .notification
        case .realtimeRequest: return .realtimeRequest
        }
    }
}
