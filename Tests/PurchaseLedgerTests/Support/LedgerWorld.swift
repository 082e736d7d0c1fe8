import Foundation
import JWSVerify
import JWSVerifyTesting
import PurchaseLedger

/// One test app's App Store: a test PKI whose tokens a verifier trusts, and minting of the signed items of a
/// purchase's lifecycle with the fields Apple sets (transactions, renewal infos, notifications that carry them).
struct LedgerWorld: Sendable {
    static let bundleId = "com.example.ledger"
    static let appAppleId: Int64 = 1_234_567_890
    /// 2026-01-01T00:00:00Z in milliseconds.
    static let t0: Int64 = 1_767_225_600_000
    static let day: Int64 = 86_400_000

    /// One PKI for every test (generating keys is slow), fixed by its seed.
    static let shared: LedgerWorld = {
        do {
            return try LedgerWorld(hierarchy: TestHierarchy.generate(.appStoreEC, seed: 38))
        } catch {
            preconditionFailure("the test PKI cannot be generated: \(error)")
        }
    }()

    let hierarchy: TestHierarchy
    let minter: TokenMinter
    /// Accepts Production (with the app Apple id) and Sandbox, as a server that receives both does.
    let verifier: SignedDataVerifier

    init(hierarchy: TestHierarchy) throws {
        self.hierarchy = hierarchy
        minter = try TokenMinter(hierarchy: hierarchy)
        verifier = try SignedDataVerifier(
            rootCertificates: [hierarchy.root.der], bundleId: Self.bundleId, appAppleId: Self.appAppleId,
            environments: [.production, .sandbox])
    }

    /// `t0` plus days.
    static func at(day days: Double) -> Int64 { t0 + Int64(days * Double(day)) }

    /// A transaction with Apple's fields; nil values are left out.
    struct Transaction: Sendable {
        var id: String
        var original: String
        var product = "com.example.monthly"
        var type = "Auto-Renewable Subscription"
        var purchase: Int64
        var expires: Int64?
        var signed: Int64
        var environment = "Sandbox"
        var account: String? = "0b6b6b8e-9a5a-4c3e-8a1f-3c2e5f7a9d10"
        var ownership = "PURCHASED"
        var quantity: Int64 = 1
        var group: String? = "21000001"
        var revocation: Int64?
        var revocationReason: Int64?
        var revocationType: String?
        var isUpgraded: Bool?
        var offerType: Int64?
    }

    /// A renewal info with Apple's fields.
    struct Renewal: Sendable {
        var original: String
        var product = "com.example.monthly"
        var autoRenewProduct: String?
        var autoRenew: Int64 = 1
        var signed: Int64
        var environment = "Sandbox"
        var account: String? = "0b6b6b8e-9a5a-4c3e-8a1f-3c2e5f7a9d10"
        var grace: Int64?
        var retry: Bool?
        var expirationIntent: Int64?
    }

    func token(_ transaction: Transaction) throws -> String {
        var payload: [String: JSONValue] = [
            "transactionId": .string(transaction.id),
            "originalTransactionId": .string(transaction.original),
            "webOrderLineItemId": .string("9\(transaction.id)"),
            "bundleId": .string(Self.bundleId),
            "productId": .string(transaction.product),
            "purchaseDate": .integer(transaction.purchase),
            "originalPurchaseDate": .integer(transaction.purchase),
            "quantity": .integer(transaction.quantity),
            "type": .string(transaction.type),
            "inAppOwnershipType": .string(transaction.ownership),
            "signedDate": .integer(transaction.signed),
            "environment": .string(transaction.environment),
            "transactionReason": .string("PURCHASE"),
            "storefront": .string("USA"),
            "storefrontId": .string("143441"),
            "price": .integer(9990),
            "currency": .string("USD"),
        ]
        if let expires = transaction.expires { payload["expiresDate"] = .integer(expires) }
        if let account = transaction.account { payload["appAccountToken"] = .string(account) }
        if let group = transaction.group { payload["subscriptionGroupIdentifier"] = .string(group) }
        if let revocation = transaction.revocation { payload["revocationDate"] = .integer(revocation) }
        if let reason = transaction.revocationReason { payload["revocationReason"] = .integer(reason) }
        if let type = transaction.revocationType { payload["revocationType"] = .string(type) }
        if let upgraded = transaction.isUpgraded { payload["isUpgraded"] = .bool(upgraded) }
        if let offer = transaction.offerType { payload["offerType"] = .integer(offer) }
        return try minter.sign(payload)
    }

    func token(_ renewal: Renewal) throws -> String {
        var payload: [String: JSONValue] = [
            "originalTransactionId": .string(renewal.original),
            "productId": .string(renewal.product),
            "autoRenewProductId": .string(renewal.autoRenewProduct ?? renewal.product),
            "autoRenewStatus": .integer(renewal.autoRenew),
            "signedDate": .integer(renewal.signed),
            "environment": .string(renewal.environment),
            "recentSubscriptionStartDate": .integer(Self.t0),
        ]
        if let account = renewal.account { payload["appAccountToken"] = .string(account) }
        if let grace = renewal.grace { payload["gracePeriodExpiresDate"] = .integer(grace) }
        if let retry = renewal.retry { payload["isInBillingRetryPeriod"] = .bool(retry) }
        if let intent = renewal.expirationIntent { payload["expirationIntent"] = .integer(intent) }
        return try minter.sign(payload)
    }

    /// A notification carrying a transaction and a renewal info (either may be absent), in their environment.
    func notification(
        _ type: String, subtype: String? = nil, uuid: String, signed: Int64, environment: String = "Sandbox",
        transaction: Transaction? = nil, renewal: Renewal? = nil
    ) throws -> String {
        var data: [String: JSONValue] = [
            "appAppleId": .integer(Self.appAppleId),
            "bundleId": .string(Self.bundleId),
            "bundleVersion": .string("42"),
            "environment": .string(environment),
        ]
        if let transaction { data["signedTransactionInfo"] = .string(try token(transaction)) }
        if let renewal { data["signedRenewalInfo"] = .string(try token(renewal)) }
        var payload: [String: JSONValue] = [
            "notificationType": .string(type),
            "notificationUUID": .string(uuid),
            "version": .string("2.0"),
            "signedDate": .integer(signed),
            "data": .object(data),
        ]
        if let subtype { payload["subtype"] = .string(subtype) }
        return try minter.sign(payload)
    }

    /// Apple's notification body for a `signedPayload`.
    static func body(_ signedPayload: String) -> String { "{\"signedPayload\":\"\(signedPayload)\"}" }

    /// The entries of tokens, each verified once.
    func entries(_ tokens: [String]) throws -> [LedgerEntry] {
        try tokens.map { token in try LedgerEntry(verifying: token, with: verifier, source: .import) }
    }
}
