import Foundation

/// What the verifier needs of each App Store payload type: its kind, the date to validate the
/// chain at, the keys it did not model (to recognize a payload of another kind), and its claims.
protocol AppStorePayload: Decodable, Sendable {
    static var kind: PayloadKind { get }
    /// `signedDate`, or `receiptCreationDate` for an app transaction.
    var validationTimestamp: Timestamp? { get }
    var unmodeledKeys: Dictionary<String, JSONValue>.Keys { get }
    /// Check 13: app identifier first, then environment.
    func checkClaims(_ expected: ClaimExpectations) -> VerificationError?
}

/// The claims a verifier was configured to expect; nil members are not checked.
struct ClaimExpectations: Sendable {
    var bundleId: String?
    var appAppleId: Int64?
    var environment: Environment?

    func identity(bundleId actualBundleId: String?, appAppleId actualAppAppleId: Int64?, checkAppAppleId: Bool, payloadEnvironment: Environment?) -> VerificationError? {
        if let bundleId, actualBundleId != bundleId {
            return VerificationError(
                .invalidAppIdentifier, check: .claims,
                "bundleId is \(Self.quoted(actualBundleId)), expected \"\(bundleId)\"")
        }
        // As Apple's library: the app Apple id is compared in Production, where it is required.
        if checkAppAppleId, let appAppleId, (environment ?? payloadEnvironment) == .production,
            actualAppAppleId != appAppleId
        {
            return VerificationError(
                .invalidAppIdentifier, check: .claims,
                "appAppleId is \(actualAppAppleId.map(String.init) ?? "absent"), expected \(appAppleId)")
        }
        return nil
    }

    func environment(_ actual: Environment?, field: String = "environment") -> VerificationError? {
        guard let environment, actual != environment else { return nil }
        return VerificationError(
            .invalidEnvironment, check: .claims,
            "\(field) is \(Self.quoted(actual?.rawValue)), expected \"\(environment.rawValue)\"")
    }

    private static func quoted(_ value: String?) -> String {
        value.map { "\"\($0)\"" } ?? "absent"
    }
}

extension JWSTransactionDecodedPayload: AppStorePayload {
    static var kind: PayloadKind { .transaction }
    var validationTimestamp: Timestamp? { signedDate }
    var unmodeledKeys: Dictionary<String, JSONValue>.Keys { additionalFields.keys }
    func checkClaims(_ expected: ClaimExpectations) -> VerificationError? {
        expected.identity(bundleId: bundleId, appAppleId: nil, checkAppAppleId: false, payloadEnvironment: environment)
            ?? expected.environment(environment)
    }
}

extension JWSRenewalInfoDecodedPayload: AppStorePayload {
    static var kind: PayloadKind { .renewalInfo }
    var validationTimestamp: Timestamp? { signedDate }
    var unmodeledKeys: Dictionary<String, JSONValue>.Keys { additionalFields.keys }
    func checkClaims(_ expected: ClaimExpectations) -> VerificationError? {
        expected.environment(environment)
    }
}

extension AppTransaction: AppStorePayload {
    static var kind: PayloadKind { .appTransaction }
    var validationTimestamp: Timestamp? { receiptCreationDate }
    var unmodeledKeys: Dictionary<String, JSONValue>.Keys { additionalFields.keys }
    func checkClaims(_ expected: ClaimExpectations) -> VerificationError? {
        expected.identity(bundleId: bundleId, appAppleId: appAppleId, checkAppAppleId: true, payloadEnvironment: receiptType)
            ?? expected.environment(receiptType, field: "receiptType")
    }
}

extension DecodedRealtimeRequestBody: AppStorePayload {
    static var kind: PayloadKind { .realtimeRequest }
    var validationTimestamp: Timestamp? { signedDate }
    var unmodeledKeys: Dictionary<String, JSONValue>.Keys { additionalFields.keys }
    func checkClaims(_ expected: ClaimExpectations) -> VerificationError? {
        expected.identity(bundleId: nil, appAppleId: appAppleId, checkAppAppleId: true, payloadEnvironment: environment)
            ?? expected.environment(environment)
    }
}

extension ResponseBodyV2DecodedPayload: AppStorePayload {
    static var kind: PayloadKind { .notification }
    var validationTimestamp: Timestamp? { signedDate }
    var unmodeledKeys: Dictionary<String, JSONValue>.Keys { additionalFields.keys }

    /// The app identity of a notification comes from the first present of `data`, `summary`,
    /// `externalPurchaseToken` and `appData`, as in Apple's library.
    func checkClaims(_ expected: ClaimExpectations) -> VerificationError? {
        let bundleId: String?
        let appAppleId: Int64?
        let environment: Environment?
        if let data {
            (bundleId, appAppleId, environment) = (data.bundleId, data.appAppleId, data.environment)
        } else if let summary {
            (bundleId, appAppleId, environment) = (summary.bundleId, summary.appAppleId, summary.environment)
        } else if let token = externalPurchaseToken {
            // An external purchase token carries no environment: Sandbox ids start with "SANDBOX".
            let sandbox = token.externalPurchaseId?.hasPrefix("SANDBOX") == true
            (bundleId, appAppleId, environment) = (token.bundleId, token.appAppleId, sandbox ? .sandbox : .production)
        } else if let appData {
            (bundleId, appAppleId, environment) = (appData.bundleId, appData.appAppleId, appData.environment)
        } else {
            return VerificationError(
                .invalidAppIdentifier, check: .claims,
                "the notification has none of data, summary, externalPurchaseToken and appData, so it names no app")
        }
        return expected.identity(bundleId: bundleId, appAppleId: appAppleId, checkAppAppleId: true, payloadEnvironment: environment)
            ?? expected.environment(environment)
    }
}
