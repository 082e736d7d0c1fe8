import Foundation

/// One kind of App Store signed data, described once: everything the verifier, the unverified
/// decoder and the CLI know about a kind comes from its model's conformance below.
///
/// Adding a kind is one model, one ``PayloadKind`` case with its ``PayloadKind/model`` line and
/// ``DecodedPayload`` case, and one conformance here.
protocol AppStorePayload: JSONObjectDecodable, JSONObjectEncodable, Sendable {
    /// The kind.
    static var kind: PayloadKind { get }
    /// The kind in words: `renewal info`, `app transaction`, ...
    static var displayName: String { get }
    /// The `SignedDataVerifier` method for this kind.
    static var methodName: String { get }
    /// Top-level keys that only this kind carries; one of them present means the payload is of this kind.
    static var markerKeys: [String] { get }
    /// The member holding the date to validate the chain at (`signedDate`, `receiptCreationDate`).
    static var validationDateKey: String { get }
    /// The top-level members that name a payload of this kind in a line or a report (`transactionId`, ...), in
    /// the order they are shown; a notification's may come from its nested transaction or renewal info.
    static var identifierKeys: [String] { get }
    /// Members that must be present (not absent, not `null`) for the payload to decode (check 12).
    static var requiredKeys: [String] { get }
    /// The members that hold nested tokens, verified with the payload.
    static var nestedTokenFields: [NestedTokenField<Self>] { get }
    /// The members the model does not know (to recognize a payload of another kind, check 12).
    var unmodeledKeys: Dictionary<String, JSONValue>.Keys { get }
    /// The app identity and environment the payload claims (check 13).
    var claims: PayloadClaims { get }
    /// The payload as a ``DecodedPayload``, with its nested tokens' payloads.
    func decodedPayload(nested: [NestedToken]) -> DecodedPayload
}

extension AppStorePayload {
    static var validationDateKey: String { ValidationTime.signedDateKey }
    static var requiredKeys: [String] { [] }
    static var nestedTokenFields: [NestedTokenField<Self>] { [] }
}

/// A member of a payload that holds a nested token of another kind.
struct NestedTokenField<Container>: Sendable {
    /// The member's name: `signedTransactionInfo`.
    let field: String
    /// Its path from the payload's top: `data.signedTransactionInfo`.
    let path: String
    /// The kind of the token it holds.
    let kind: PayloadKind
    /// The token, when the payload has one there.
    let token: @Sendable (Container) -> String?
}

/// The claims of one payload, and which of them its kind has (the claims table of the contract).
struct PayloadClaims: Sendable {
    /// Whether this kind carries a bundle id that is checked (transactions, app transactions, notifications).
    var checksBundleId: Bool
    /// Whether this kind carries an app Apple id that is checked in Production.
    var checksAppAppleId: Bool
    var bundleId: String?
    var appAppleId: Int64?
    var environment: AppStoreEnvironment?
    /// `environment`, or `receiptType` for an app transaction.
    var environmentField = "environment"
    /// Set for a notification that has none of data, summary, externalPurchaseToken, appData.
    var namesNoApp = false
}

// MARK: - The table

extension JWSTransactionDecodedPayload: AppStorePayload {
    static var kind: PayloadKind { .transaction }
    static var displayName: String { "transaction" }
    static var methodName: String { "verifyAndDecodeTransaction" }
    static var identifierKeys: [String] { ["transactionId", "originalTransactionId", "productId"] }
    static var markerKeys: [String] { ["transactionId", "purchaseDate", "inAppOwnershipType", "webOrderLineItemId"] }
    var unmodeledKeys: Dictionary<String, JSONValue>.Keys { additionalFields.keys }
    var claims: PayloadClaims {
        PayloadClaims(checksBundleId: true, checksAppAppleId: false, bundleId: bundleId, environment: environment)
    }
    func decodedPayload(nested: [NestedToken]) -> DecodedPayload { .transaction(self) }
}

extension JWSRenewalInfoDecodedPayload: AppStorePayload {
    static var kind: PayloadKind { .renewalInfo }
    static var displayName: String { "renewal info" }
    static var methodName: String { "verifyAndDecodeRenewalInfo" }
    static var identifierKeys: [String] { ["originalTransactionId", "productId", "autoRenewProductId"] }
    static var markerKeys: [String] {
        ["autoRenewStatus", "autoRenewProductId", "expirationIntent", "renewalDate", "isInBillingRetryPeriod"]
    }
    var unmodeledKeys: Dictionary<String, JSONValue>.Keys { additionalFields.keys }
    var claims: PayloadClaims {
        PayloadClaims(checksBundleId: false, checksAppAppleId: false, environment: environment)
    }
    func decodedPayload(nested: [NestedToken]) -> DecodedPayload { .renewalInfo(self) }
}

extension AppTransaction: AppStorePayload {
    static var kind: PayloadKind { .appTransaction }
    static var displayName: String { "app transaction" }
    static var methodName: String { "verifyAndDecodeAppTransaction" }
    static var identifierKeys: [String] { ["appTransactionId", "bundleId", "applicationVersion"] }
    static var markerKeys: [String] {
        ["receiptType", "applicationVersion", "originalApplicationVersion", "receiptCreationDate"]
    }
    static var validationDateKey: String { "receiptCreationDate" }
    var unmodeledKeys: Dictionary<String, JSONValue>.Keys { additionalFields.keys }
    var claims: PayloadClaims {
        PayloadClaims(
            checksBundleId: true, checksAppAppleId: true, bundleId: bundleId, appAppleId: appAppleId,
            environment: receiptType, environmentField: "receiptType")
    }
    func decodedPayload(nested: [NestedToken]) -> DecodedPayload { .appTransaction(self) }
}

extension ResponseBodyV2DecodedPayload: AppStorePayload {
    static var kind: PayloadKind { .notification }
    static var displayName: String { "notification" }
    static var methodName: String { "verifyAndDecodeNotification" }
    static var identifierKeys: [String] {
        ["notificationUUID", "notificationType", "subtype", "transactionId", "originalTransactionId", "productId"]
    }
    static var markerKeys: [String] { ["notificationType", "notificationUUID"] }
    static var nestedTokenFields: [NestedTokenField<Self>] {
        [
            NestedTokenField(
                field: "signedTransactionInfo", path: "data.signedTransactionInfo", kind: .transaction,
                token: { $0.data?.signedTransactionInfo }),
            NestedTokenField(
                field: "signedRenewalInfo", path: "data.signedRenewalInfo", kind: .renewalInfo,
                token: { $0.data?.signedRenewalInfo }),
            NestedTokenField(
                field: "signedAppTransactionInfo", path: "appData.signedAppTransactionInfo", kind: .appTransaction,
                token: { $0.appData?.signedAppTransactionInfo }),
        ]
    }
    var unmodeledKeys: Dictionary<String, JSONValue>.Keys { additionalFields.keys }

    /// The app identity of a notification comes from the first present of `data`, `summary`,
    /// `externalPurchaseToken` and `appData`, as in Apple's library.
    var claims: PayloadClaims {
        var claims = PayloadClaims(checksBundleId: true, checksAppAppleId: true)
        if let data {
            (claims.bundleId, claims.appAppleId, claims.environment) = (
                data.bundleId, data.appAppleId, data.environment
            )
        } else if let summary {
            (claims.bundleId, claims.appAppleId, claims.environment) =
                (summary.bundleId, summary.appAppleId, summary.environment)
        } else if let token = externalPurchaseToken {
            // An external purchase token carries no environment: Sandbox ids start with "SANDBOX".
            let sandbox = token.externalPurchaseId?.hasPrefix("SANDBOX") == true
            (claims.bundleId, claims.appAppleId, claims.environment) =
                (token.bundleId, token.appAppleId, sandbox ? .sandbox : .production)
        } else if let appData {
            (claims.bundleId, claims.appAppleId, claims.environment) =
                (appData.bundleId, appData.appAppleId, appData.environment)
        } else {
            claims.namesNoApp = true
        }
        return claims
    }

    func decodedPayload(nested: [NestedToken]) -> DecodedPayload {
        .notification(DecodedNotification(notification: self, nested: nested))
    }
}

extension DecodedRealtimeRequestBody: AppStorePayload {
    static var kind: PayloadKind { .realtimeRequest }
    static var displayName: String { "realtime request" }
    static var methodName: String { "verifyAndDecodeRealtimeRequest" }
    static var identifierKeys: [String] { ["requestIdentifier", "originalTransactionId", "productId"] }
    static var markerKeys: [String] { ["userLocale"] }
    /// Every member Apple documents: Apple's Swift and Python libraries refuse a request without one.
    static var requiredKeys: [String] {
        [
            "originalTransactionId", "appAppleId", "productId", "userLocale", "requestIdentifier", "signedDate",
            "environment",
        ]
    }
    var unmodeledKeys: Dictionary<String, JSONValue>.Keys { additionalFields.keys }
    var claims: PayloadClaims {
        PayloadClaims(checksBundleId: false, checksAppAppleId: true, appAppleId: appAppleId, environment: environment)
    }
    func decodedPayload(nested: [NestedToken]) -> DecodedPayload { .realtimeRequest(self) }
}
