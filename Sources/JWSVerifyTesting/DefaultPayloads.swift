import Foundation
import JWSVerify

/// The kind of payload to mint: the library's own ``PayloadKind``, so that minting, verifying and
/// the CLI's `--kind` name kinds alike.
public typealias TestPayloadKind = PayloadKind

extension PayloadKind {
    /// Signed subscription renewal information: ``renewalInfo`` (the testing library's name).
    public static var renewal: PayloadKind { .renewalInfo }
    /// A Retention Messaging realtime request: ``realtimeRequest`` (the testing library's name).
    public static var realtime: PayloadKind { .realtimeRequest }

    /// Accepts the raw value (`app-transaction`) and the Swift spelling (`appTransaction`).
    public init?(name: String) {
        if let kind = PayloadKind(rawValue: name) {
            self = kind
        } else if name == "appTransaction" {
            self = .appTransaction
        } else {
            return nil
        }
    }
}

/// The values that default payloads take from the caller.
public struct PayloadParameters: Sendable, Hashable {
    /// `bundleId` in every payload.
    public var bundleId: String
    /// `appAppleId` where Apple carries it (app transactions, notifications, realtime requests).
    public var appAppleId: Int64
    /// `environment` (`receiptType` in app transactions): `Sandbox`, `Production`, `Xcode`, ...
    public var environment: String
    /// `signedDate` (`receiptCreationDate` and `requestDate` in app transactions); other dates are
    /// placed around it.
    public var signedDate: Date
    /// The auto-renewable subscription product.
    public var productId: String
    /// Notification type, for example `SUBSCRIBED`, `DID_RENEW`, `RENEWAL_EXTENSION` (with subtype
    /// `SUMMARY` the notification carries `summary`), `EXTERNAL_PURCHASE_TOKEN` (carries
    /// `externalPurchaseToken`), `RESCIND_CONSENT` (carries `appData`), `TEST` (plain `data`).
    public var notificationType: String
    /// Notification subtype, or nil for none.
    public var notificationSubtype: String?
    /// Makes identifiers (transaction ids, UUIDs, device verification) deterministic; nil picks a
    /// random seed per call.
    public var seed: UInt64?

    /// Parameters; `signedDate` defaults to now (whole milliseconds).
    public init(
        bundleId: String = "com.example.jwsverify", appAppleId: Int64 = 1234,
        environment: String = "Sandbox", signedDate: Date? = nil,
        productId: String = "com.example.jwsverify.premium.monthly",
        notificationType: String = "SUBSCRIBED", notificationSubtype: String? = "INITIAL_BUY",
        seed: UInt64? = nil
    ) {
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.environment = environment
        let now = signedDate ?? Date()
        self.signedDate = Date(timeIntervalSince1970: (now.timeIntervalSince1970 * 1000).rounded(.down) / 1000)
        self.productId = productId
        self.notificationType = notificationType
        self.notificationSubtype = notificationSubtype
        self.seed = seed
    }
}

/// Identifiers of one payload, derived from a seed and the payload's index so that `count: N`
/// gives distinct tokens and the same seed gives the same tokens.
struct PayloadIdentifiers {
    let transactionId: String
    let webOrderLineItemId: String
    let appTransactionId: String
    let appAccountToken: String
    let notificationUUID: String
    let requestIdentifier: String
    let deviceVerification: String
    let deviceVerificationNonce: String
    let externalPurchaseUUID: String

    init(seed: UInt64, index: Int) {
        var shared = SeededGenerator(seed: seed, label: "payload-identifiers")
        let transactionBase = Int64(shared.next() % 1_000_000_000) * 100_000
        let orderBase = Int64(shared.next() % 1_000_000_000) * 100_000
        let appTransactionBase = Int64(shared.next() % 1_000_000_000_000)
        let offset = Int64(index % 100_000)
        transactionId = String(2_000_000_000_000_000 + transactionBase + offset)
        webOrderLineItemId = String(2_000_000_000_000_000 + orderBase + offset)
        appTransactionId = String(704_000_000_000_000_000 + appTransactionBase)
        appAccountToken = shared.uuid()
        var perIndex = SeededGenerator(seed: seed, label: "payload-identifiers-\(index)")
        notificationUUID = perIndex.uuid()
        requestIdentifier = perIndex.uuid()
        deviceVerification = perIndex.bytes(48).base64EncodedString()
        deviceVerificationNonce = perIndex.uuid()
        externalPurchaseUUID = perIndex.uuid()
    }
}

/// Default payloads, realistic and complete: every field Apple documents for the situation each
/// one describes, with sensible values, dates in milliseconds since 1970.
///
/// The situation: a customer buys the monthly auto-renewable subscription `productId` with an
/// introductory pay-as-you-go offer (first month 0.99 USD, then 4.99 USD) in the US storefront.
/// Fields that Apple sends only in other situations (revocation fields, `offerIdentifier` of
/// promotional offers, `expirationIntent`, `gracePeriodExpiresDate`, `priceIncreaseStatus`,
/// `preorderDate`, `advancedCommerceInfo`, ...) are left out, as Apple leaves them out; add them
/// with ``PayloadOverrides`` when a test needs them.
public enum DefaultPayloads {
    static let minute: Int64 = 60_000
    static let day: Int64 = 86_400_000

    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }

    /// A signed transaction: the purchase of the subscription with an introductory offer.
    public static func transaction(_ parameters: PayloadParameters, index: Int = 0) -> [String: JSONValue] {
        let ids = PayloadIdentifiers(seed: parameters.seed ?? 0, index: index)
        let signed = milliseconds(parameters.signedDate)
        let purchase = signed - 5 * minute
        return [
            "transactionId": .string(ids.transactionId),
            "originalTransactionId": .string(ids.transactionId),
            "webOrderLineItemId": .string(ids.webOrderLineItemId),
            "bundleId": .string(parameters.bundleId),
            "productId": .string(parameters.productId),
            "subscriptionGroupIdentifier": .string("21482456"),
            "purchaseDate": .integer(purchase),
            "originalPurchaseDate": .integer(purchase),
            "expiresDate": .integer(purchase + 30 * day),
            "quantity": .integer(1),
            "type": .string("Auto-Renewable Subscription"),
            "appAccountToken": .string(ids.appAccountToken),
            "inAppOwnershipType": .string("PURCHASED"),
            "signedDate": .integer(signed),
            "environment": .string(parameters.environment),
            "transactionReason": .string("PURCHASE"),
            "storefront": .string("USA"),
            "storefrontId": .string("143441"),
            "price": .integer(990),
            "currency": .string("USD"),
            "offerType": .integer(1),
            "offerDiscountType": .string("PAY_AS_YOU_GO"),
            "offerPeriod": .string("P1M"),
            "isUpgraded": .bool(false),
            "appTransactionId": .string(ids.appTransactionId),
        ]
    }

    /// Signed renewal information for the subscription bought in ``transaction(_:index:)``: it
    /// renews at the regular price when the introductory month ends.
    public static func renewal(_ parameters: PayloadParameters, index: Int = 0) -> [String: JSONValue] {
        let ids = PayloadIdentifiers(seed: parameters.seed ?? 0, index: index)
        let signed = milliseconds(parameters.signedDate)
        let purchase = signed - 5 * minute
        return [
            "originalTransactionId": .string(ids.transactionId),
            "autoRenewProductId": .string(parameters.productId),
            "productId": .string(parameters.productId),
            "autoRenewStatus": .integer(1),
            "isInBillingRetryPeriod": .bool(false),
            "signedDate": .integer(signed),
            "environment": .string(parameters.environment),
            "recentSubscriptionStartDate": .integer(purchase),
            "renewalDate": .integer(purchase + 30 * day),
            "renewalPrice": .integer(4990),
            "currency": .string("USD"),
            "appAccountToken": .string(ids.appAccountToken),
            "appTransactionId": .string(ids.appTransactionId),
        ]
    }

    /// A signed app transaction: the app was first downloaded 90 days before `signedDate`, which is
    /// also `receiptCreationDate` and `requestDate`. `receiptType` carries the environment.
    public static func appTransaction(_ parameters: PayloadParameters, index: Int = 0) -> [String: JSONValue] {
        let ids = PayloadIdentifiers(seed: parameters.seed ?? 0, index: index)
        let signed = milliseconds(parameters.signedDate)
        return [
            "receiptType": .string(parameters.environment),
            "appAppleId": .integer(parameters.appAppleId),
            "bundleId": .string(parameters.bundleId),
            "applicationVersion": .string("42"),
            "versionExternalIdentifier": .integer(parameters.environment == "Production" ? 873_301_516 : 0),
            "receiptCreationDate": .integer(signed),
            "requestDate": .integer(signed),
            "originalPurchaseDate": .integer(signed - 90 * day),
            "originalApplicationVersion": .string("1"),
            "deviceVerification": .string(ids.deviceVerification),
            "deviceVerificationNonce": .string(ids.deviceVerificationNonce),
            "appTransactionId": .string(ids.appTransactionId),
            "originalPlatform": .string("iOS"),
        ]
    }

    /// A Retention Messaging API realtime request about the subscription.
    public static func realtime(_ parameters: PayloadParameters, index: Int = 0) -> [String: JSONValue] {
        let ids = PayloadIdentifiers(seed: parameters.seed ?? 0, index: index)
        return [
            "originalTransactionId": .string(ids.transactionId),
            "appAppleId": .integer(parameters.appAppleId),
            "productId": .string(parameters.productId),
            "userLocale": .string("en-US"),
            "requestIdentifier": .string(ids.requestIdentifier),
            "environment": .string(parameters.environment),
            "signedDate": .integer(milliseconds(parameters.signedDate)),
        ]
    }

    /// A notification V2 payload around already signed nested tokens.
    ///
    /// The body member follows `notificationType`: `summary` for subtype `SUMMARY`,
    /// `externalPurchaseToken` for `EXTERNAL_PURCHASE_TOKEN`, `appData` (with
    /// `signedAppTransactionInfo`) for `RESCIND_CONSENT`, otherwise `data` with
    /// `signedTransactionInfo` and `signedRenewalInfo` (left out when nil, as for `TEST`).
    public static func notification(
        _ parameters: PayloadParameters, index: Int = 0,
        signedTransactionInfo: String?, signedRenewalInfo: String?,
        signedAppTransactionInfo: String?
    ) -> [String: JSONValue] {
        let ids = PayloadIdentifiers(seed: parameters.seed ?? 0, index: index)
        let signed = milliseconds(parameters.signedDate)
        var payload: [String: JSONValue] = [
            "notificationType": .string(parameters.notificationType),
            "notificationUUID": .string(ids.notificationUUID),
            "version": .string("2.0"),
            "signedDate": .integer(signed),
        ]
        if let subtype = parameters.notificationSubtype {
            payload["subtype"] = .string(subtype)
        }
        if parameters.notificationSubtype == "SUMMARY" {
            payload["summary"] = .object([
                "requestIdentifier": .string(ids.requestIdentifier),
                "environment": .string(parameters.environment),
                "appAppleId": .integer(parameters.appAppleId),
                "bundleId": .string(parameters.bundleId),
                "productId": .string(parameters.productId),
                "storefrontCountryCodes": .array([.string("USA"), .string("CAN"), .string("MEX")]),
                "succeededCount": .integer(5_421),
                "failedCount": .integer(3),
            ])
        } else if parameters.notificationType == "EXTERNAL_PURCHASE_TOKEN" {
            // Apple marks sandbox tokens by the SANDBOX prefix of externalPurchaseId.
            let prefix = parameters.environment == "Production" ? "" : "SANDBOX_"
            payload["externalPurchaseToken"] = .object([
                "externalPurchaseId": .string(prefix + ids.externalPurchaseUUID),
                "tokenCreationDate": .integer(signed - 2 * minute),
                "appAppleId": .integer(parameters.appAppleId),
                "bundleId": .string(parameters.bundleId),
            ])
        } else if parameters.notificationType == "RESCIND_CONSENT" {
            var appData: [String: JSONValue] = [
                "appAppleId": .integer(parameters.appAppleId),
                "bundleId": .string(parameters.bundleId),
                "environment": .string(parameters.environment),
            ]
            if let signedAppTransactionInfo {
                appData["signedAppTransactionInfo"] = .string(signedAppTransactionInfo)
            }
            payload["appData"] = .object(appData)
        } else {
            var data: [String: JSONValue] = [
                "appAppleId": .integer(parameters.appAppleId),
                "bundleId": .string(parameters.bundleId),
                "bundleVersion": .string("42"),
                "environment": .string(parameters.environment),
            ]
            if let signedTransactionInfo {
                data["signedTransactionInfo"] = .string(signedTransactionInfo)
                data["status"] = .integer(1)
            }
            if let signedRenewalInfo {
                data["signedRenewalInfo"] = .string(signedRenewalInfo)
            }
            if parameters.notificationType == "CONSUMPTION_REQUEST" {
                data["consumptionRequestReason"] = .string("UNINTENDED_PURCHASE")
            }
            payload["data"] = .object(data)
        }
        return payload
    }
}

/// Changes applied to a default payload: first ``merge`` (deep: objects merge member by member,
/// anything else replaces), then ``set`` (top-level members), then ``remove``.
public struct PayloadOverrides: Sendable, Hashable {
    /// Members merged deeply into the payload (typically from a payload JSON file).
    public var merge: [String: JSONValue]
    /// Top-level members set, replacing what is there.
    public var set: [String: JSONValue]
    /// Top-level members removed.
    public var remove: [String]

    /// Overrides from their parts; all empty by default.
    public init(merge: [String: JSONValue] = [:], set: [String: JSONValue] = [:], remove: [String] = []) {
        self.merge = merge
        self.set = set
        self.remove = remove
    }

    /// Overrides from `key=value` assignments (see ``parseAssignment(_:)``) and an optional JSON
    /// object file to merge.
    public init(assignments: [String], mergeFile: URL? = nil) throws {
        self.init()
        if let mergeFile {
            merge = try JSONText.parseObject(FileOutput.read(mergeFile))
        }
        for assignment in assignments {
            let (key, value) = try Self.parseAssignment(assignment)
            set[key] = value
        }
    }

    /// Parses `key=value`: the value is JSON when it parses as JSON with the library's strict parser (`42`, `true`,
    /// `null`, `"text"`, `{"a":1}`), otherwise the string as written. The key must not be empty, and a value that
    /// starts with `{` or `[` must be JSON (`{"a":1,"a":2}`, a repeated member, is refused, not taken as a string).
    public static func parseAssignment(_ text: String) throws -> (key: String, value: JSONValue) {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw JWSTestingError.invalidArgument("expected key=value, got \(text)")
        }
        let key = String(text[..<equals])
        let raw = String(text[text.index(after: equals)...])
        // The library's strict parser: a repeated member is refused, never resolved either way.
        do throws(JSONParser.Failure) {
            return (key, try JSONParser.parseValue(Array(raw.utf8)))
        } catch {
            if let first = raw.utf8.first, first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
                throw JWSTestingError.invalidArgument(
                    "the value of \(key) starts like JSON but is not: \(error.reason) at byte \(error.offset)")
            }
        }
        return (key, .string(raw))
    }

    /// Whether applying these overrides changes nothing.
    public var isEmpty: Bool { merge.isEmpty && set.isEmpty && remove.isEmpty }

    /// `payload` with the overrides applied.
    public func apply(to payload: [String: JSONValue]) -> [String: JSONValue] {
        var result = Self.deepMerge(payload, merge)
        for (key, value) in set {
            result[key] = value
        }
        for key in remove {
            result[key] = nil
        }
        return result
    }

    static func deepMerge(_ base: [String: JSONValue], _ changes: [String: JSONValue]) -> [String: JSONValue] {
        var result = base
        for (key, change) in changes {
            if case .object(let baseObject)? = result[key], case .object(let changeObject) = change {
                result[key] = .object(deepMerge(baseObject, changeObject))
            } else {
                result[key] = change
            }
        }
        return result
    }
}
