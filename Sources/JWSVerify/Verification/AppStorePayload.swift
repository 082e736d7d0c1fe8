import Foundation

/// What the verifier needs of each App Store payload type: its kind, the date to validate the
/// chain at, the keys it did not model (to recognize a payload of another kind), and where its
/// claims are.
protocol AppStorePayload: JSONObjectDecodable, Sendable {
    static var kind: PayloadKind { get }
    /// `signedDate`, or `receiptCreationDate` for an app transaction.
    var validationTimestamp: Timestamp? { get }
    var unmodeledKeys: Dictionary<String, JSONValue>.Keys { get }
    /// The app identity and environment the payload claims (check 13).
    var claims: PayloadClaims { get }
    /// Members that must be present (not absent, not `null`) for the payload to decode (check 12).
    static var requiredKeys: [String] { get }
}

extension AppStorePayload {
    static var requiredKeys: [String] { [] }
}

/// The claims of one payload, and which of them its kind has (the claims table of the contract).
struct PayloadClaims: Sendable {
    /// Whether this kind carries a bundle id that is checked (transactions, app transactions, notifications).
    var checksBundleId: Bool
    /// Whether this kind carries an app Apple id that is checked in Production.
    var checksAppAppleId: Bool
    var bundleId: String?
    var appAppleId: Int64?
    var environment: Environment?
    /// `environment`, or `receiptType` for an app transaction.
    var environmentField = "environment"
    /// Set for a notification that has none of data, summary, externalPurchaseToken, appData.
    var namesNoApp = false
}

/// The claims a verifier was configured to expect; nil members are not checked.
struct ClaimExpectations: Sendable {
    var bundleId: String?
    var appAppleId: Int64?
    var environment: Environment?

    /// Whether the app Apple id is compared for these claims: as Apple's library, in Production,
    /// where the configuration requires it.
    func comparesAppAppleId(_ claims: PayloadClaims) -> Bool {
        claims.checksAppAppleId && appAppleId != nil && (environment ?? claims.environment) == .production
    }

    /// Check 13: app identifier (bundle id, then app Apple id) before environment.
    func check(_ claims: PayloadClaims) -> VerificationError? {
        if claims.namesNoApp {
            return VerificationError(
                .invalidAppIdentifier, check: .claims,
                "the notification has none of data, summary, externalPurchaseToken and appData, so it names no app",
                step: .bundleId)
        }
        // Byte for byte: `String` equality is Unicode canonical equivalence ("\u{212A}" == "K").
        if claims.checksBundleId, let bundleId, !(claims.bundleId.map { $0.utf8.elementsEqual(bundleId.utf8) } ?? false)
        {
            return VerificationError(
                .invalidAppIdentifier, check: .claims,
                "bundleId is \(Self.quoted(claims.bundleId)), expected \"\(bundleId)\"", step: .bundleId)
        }
        if comparesAppAppleId(claims), let appAppleId, claims.appAppleId != appAppleId {
            return VerificationError(
                .invalidAppIdentifier, check: .claims,
                "appAppleId is \(claims.appAppleId.map(String.init) ?? "absent"), expected \(appAppleId)",
                step: .appAppleId)
        }
        if let environment, claims.environment != environment {
            return VerificationError(
                .invalidEnvironment, check: .claims,
                "\(claims.environmentField) is \(Self.quoted(claims.environment?.rawValue)), expected \"\(environment.rawValue)\"",
                step: .environment)
        }
        return nil
    }

    static func quoted(_ value: String?) -> String {
        value.map { "\"\($0)\"" } ?? "absent"
    }
}

extension JWSTransactionDecodedPayload: AppStorePayload {
    static var kind: PayloadKind { .transaction }
    var validationTimestamp: Timestamp? { signedDate }
    var unmodeledKeys: Dictionary<String, JSONValue>.Keys { additionalFields.keys }
    var claims: PayloadClaims {
        PayloadClaims(checksBundleId: true, checksAppAppleId: false, bundleId: bundleId, environment: environment)
    }
}

extension JWSRenewalInfoDecodedPayload: AppStorePayload {
    static var kind: PayloadKind { .renewalInfo }
    var validationTimestamp: Timestamp? { signedDate }
    var unmodeledKeys: Dictionary<String, JSONValue>.Keys { additionalFields.keys }
    var claims: PayloadClaims {
        PayloadClaims(checksBundleId: false, checksAppAppleId: false, environment: environment)
    }
}

extension AppTransaction: AppStorePayload {
    static var kind: PayloadKind { .appTransaction }
    var validationTimestamp: Timestamp? { receiptCreationDate }
    var unmodeledKeys: Dictionary<String, JSONValue>.Keys { additionalFields.keys }
    var claims: PayloadClaims {
        PayloadClaims(
            checksBundleId: true, checksAppAppleId: true, bundleId: bundleId, appAppleId: appAppleId,
            environment: receiptType, environmentField: "receiptType")
    }
}

extension DecodedRealtimeRequestBody: AppStorePayload {
    static var kind: PayloadKind { .realtimeRequest }
    /// Every member Apple documents: Apple's Swift and Python libraries refuse a request without one.
    static var requiredKeys: [String] {
        [
            "originalTransactionId", "appAppleId", "productId", "userLocale", "requestIdentifier", "signedDate",
            "environment",
        ]
    }
    var validationTimestamp: Timestamp? { signedDate }
    var unmodeledKeys: Dictionary<String, JSONValue>.Keys { additionalFields.keys }
    var claims: PayloadClaims {
        PayloadClaims(checksBundleId: false, checksAppAppleId: true, appAppleId: appAppleId, environment: environment)
    }
}

extension ResponseBodyV2DecodedPayload: AppStorePayload {
    static var kind: PayloadKind { .notification }
    var validationTimestamp: Timestamp? { signedDate }
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
}
