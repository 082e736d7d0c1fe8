import Foundation

/// The five kinds of App Store signed data.
///
/// What the library knows of each kind (display name, method, marker keys, validation date, claims,
/// nested tokens) is described once, by its model (`PayloadKindTable.swift`).
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

    /// The model of this kind, whose conformance describes it.
    var model: any AppStorePayload.Type {
        switch self {
        case .transaction: return JWSTransactionDecodedPayload.self
        case .renewalInfo: return JWSRenewalInfoDecodedPayload.self
        case .appTransaction: return AppTransaction.self
        case .notification: return ResponseBodyV2DecodedPayload.self
        case .realtimeRequest: return DecodedRealtimeRequestBody.self
        }
    }

    /// The kind in words: `renewal info`, `app transaction`, ...
    public var description: String { model.displayName }

    /// The `SignedDataVerifier` method for this kind.
    public var methodName: String { model.methodName }

    /// Top-level keys that only this kind carries.
    var markerKeys: [String] { model.markerKeys }

    /// The member whose date the chain is validated at (``ValidationTime/signedDate``).
    public var validationDateKey: String { model.validationDateKey }

    /// The members of this kind that hold nested tokens, with the kind each holds (a notification's
    /// `signedTransactionInfo`, `signedRenewalInfo`, `signedAppTransactionInfo`).
    public var nestedTokenFields: [(field: String, path: String, kind: PayloadKind)] {
        func fields<P: AppStorePayload>(_ type: P.Type) -> [(field: String, path: String, kind: PayloadKind)] {
            P.nestedTokenFields.map { ($0.field, $0.path, $0.kind) }
        }
        return fields(model)
    }

    /// The top-level members that name a payload of this kind in a `batch` line or a report, in order
    /// (`transactionId`, `originalTransactionId`, `productId` for a transaction); a notification's
    /// `transactionId`, `originalTransactionId` and `productId` come from its nested transaction, else its
    /// renewal info.
    package var identifierKeys: [String] { model.identifierKeys }

    /// The members of this kind's payload that are timestamps, enumerations or nested models (generated from
    /// the model's spec), to annotate its JSON (``PayloadAnnotations``).
    package var jsonFieldKinds: [String: JSONFieldKind] { model.jsonFieldKinds }

    /// The nested tokens a payload object of this kind holds, at the members ``nestedTokenFields`` names, in
    /// the order of their paths; a member that is absent or not a string is left out.
    ///
    /// - Parameter object: The payload's JSON object, as in the token.
    /// - Returns: each nested token with its member's name and path and the kind it holds.
    package func nestedTokens(
        in object: [String: JSONValue]
    ) -> [(field: String, path: String, kind: PayloadKind, token: String)] {
        nestedTokenFields.sorted { $0.path < $1.path }.compactMap { field in
            var value = JSONValue.object(object)
            for key in field.path.split(separator: ".") {
                guard case .object(let members) = value, let member = members[String(key)] else { return nil }
                value = member
            }
            guard case .string(let token) = value else { return nil }
            return (field.field, field.path, field.kind, token)
        }
    }

    /// Each marker key with its kind and the kind's place in ``allCases`` (made once: recognition
    /// runs on every verified token, over the keys its model did not know).
    private static let markers: [String: (kind: PayloadKind, rank: Int)] = {
        var markers: [String: (kind: PayloadKind, rank: Int)] = [:]
        for (rank, kind) in allCases.enumerated() {
            for key in kind.markerKeys where markers[key] == nil { markers[key] = (kind, rank) }
        }
        return markers
    }()

    /// The kind whose marker keys appear among `keys`, if any (the first such kind of ``allCases``).
    static func recognize<S: Sequence>(keys: S) -> PayloadKind? where S.Element == String {
        var found: (kind: PayloadKind, rank: Int)?
        for key in keys {
            if let marker = markers[key], marker.rank < (found?.rank ?? Int.max) { found = marker }
        }
        return found?.kind
    }

    /// The kind of a whole payload: by its marker keys, else a transaction when it has a top-level
    /// `bundleId` (of the five kinds only transactions and app transactions carry one, and an app
    /// transaction has its own markers; Apple's minimal test transactions carry nothing else).
    static func recognize(payload keys: Dictionary<String, JSONValue>.Keys) -> PayloadKind? {
        // The kind ``recognize(keys:)`` finds, looking each kind's markers up in the payload in rank
        // order: a transaction is known after one lookup, instead of one per payload key.
        let marked = rankedMarkerKeys.first { $0.markerKeys.contains(where: keys.contains) }?.kind
        return marked ?? (keys.contains("bundleId") ? .transaction : nil)
    }

    /// Every kind with its marker keys, in ``allCases`` order (the rank of ``markers``).
    private static let rankedMarkerKeys = allCases.map { (kind: $0, markerKeys: $0.markerKeys) }

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

    /// The payload object decoded as this kind, without verifying anything; nil when it does not decode.
    func decodeUnverified(_ object: [String: JSONValue]) -> DecodedPayload? {
        func decode<P: AppStorePayload>(_ type: P.Type) -> DecodedPayload? {
            (try? P(json: JSONObjectReader(object: object)))?.decodedPayload(nested: [])
        }
        return decode(model)
    }
}

/// A decoded payload of any kind, for callers that handle every kind in one place (the CLI).
///
/// `indirect`: each case holds its model in a box of its own, so that a payload (and a result holding one) is a
/// reference wherever it is passed or copied, not the largest model's bytes (2 KB for a notification).
public indirect enum DecodedPayload: Sendable, Hashable {
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

    /// The environment the payload names, from the member its claims are checked against (an app
    /// transaction's `receiptType`; a notification's from the first present of `data`, `summary`,
    /// `externalPurchaseToken` and `appData`).
    public var environment: AppStoreEnvironment? {
        // Each case's own claims, not `payload.claims`: the existential would copy the model into a box first
        // (`batch` reads this once per line).
        switch self {
        case .transaction(let value): return value.claims.environment
        case .renewalInfo(let value): return value.claims.environment
        case .appTransaction(let value): return value.claims.environment
        case .notification(let value): return value.notification.claims.environment
        case .realtimeRequest(let value): return value.claims.environment
        }
    }

    /// The annotations of the payload's JSON as its model writes it (``model``): enumeration names and
    /// timestamp paths.
    package var annotations: PayloadAnnotations {
        PayloadAnnotations(json: model.jsonValue, fields: kind.jsonFieldKinds)
    }

    /// The payload's own model as its kind's description (for a notification, the notification itself).
    var payload: any AppStorePayload {
        switch self {
        case .transaction(let value): return value
        case .renewalInfo(let value): return value
        case .appTransaction(let value): return value
        case .notification(let value): return value.notification
        case .realtimeRequest(let value): return value
        }
    }

    /// The payload's own model (for a notification, the notification itself), for code that renders
    /// any kind alike (the CLI).
    package var model: any JSONObjectEncodable & Sendable { payload }
}

/// A notification with its nested tokens decoded (and verified, when the result is verified).
public struct DecodedNotification: Sendable, Hashable {
    /// The notification itself.
    public var notification: ResponseBodyV2DecodedPayload
    /// `data.signedTransactionInfo`, decoded.
    public var transaction: JWSTransactionDecodedPayload?
    /// `data.signedRenewalInfo`, decoded.
    public var renewalInfo: JWSRenewalInfoDecodedPayload?
    /// `appData.signedAppTransactionInfo`, decoded.
    public var appTransaction: AppTransaction?

    /// Creates a value.
    public init(
        notification: ResponseBodyV2DecodedPayload, transaction: JWSTransactionDecodedPayload? = nil,
        renewalInfo: JWSRenewalInfoDecodedPayload? = nil, appTransaction: AppTransaction? = nil
    ) {
        self.notification = notification
        self.transaction = transaction
        self.renewalInfo = renewalInfo
        self.appTransaction = appTransaction
    }

    /// The environment the notification applies to: from the first present of `data`, `summary`,
    /// `externalPurchaseToken` and `appData`, the member the claims check reads.
    public var environment: AppStoreEnvironment? { notification.claims.environment }
    /// The bundle id the notification names, from the same member as ``environment``.
    public var bundleId: String? { notification.claims.bundleId }
    /// The app Apple id the notification names, from the same member as ``environment``
    /// (absent from Sandbox notifications).
    public var appAppleId: Int64? { notification.claims.appAppleId }

    /// The notification with the payloads of its nested tokens, verified or not.
    init(notification: ResponseBodyV2DecodedPayload, nested: [NestedToken]) {
        self.init(notification: notification)
        for token in nested {
            switch token.result.unverifiedPayload {
            case .transaction(let value)?: transaction = value
            case .renewalInfo(let value)?: renewalInfo = value
            case .appTransaction(let value)?: appTransaction = value
            default: break
            }
        }
    }
}
