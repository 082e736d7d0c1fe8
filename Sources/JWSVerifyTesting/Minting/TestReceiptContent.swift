import Foundation
import JWSVerify

/// An in-app purchase of a minted test app receipt (attribute 17), as `jwsverify mint receipt --purchase` gives it.
public struct TestReceiptPurchase: Sendable, Hashable {
    /// The product id (attribute 1702).
    public var productId: String
    /// The transaction id (1703); nil for ``TestReceiptContent/firstTransactionId`` plus the purchase's index.
    public var transactionId: String?
    /// The original transaction id (1705); nil for the transaction id.
    public var originalTransactionId: String?
    /// The expiry date (1708) of a subscription; nil for none.
    public var expiresDate: Date?

    /// A purchase; nil fields take their defaults.
    public init(
        productId: String, transactionId: String? = nil, originalTransactionId: String? = nil, expiresDate: Date? = nil
    ) {
        self.productId = productId
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.expiresDate = expiresDate
    }
}

/// What a minted test app receipt says, as `jwsverify mint receipt` takes it: a nil field takes the default that
/// Apple's receipts (and ``PayloadParameters`` for tokens) suggest. ``receipt(now:)`` builds the ``AppReceipt``
/// that ``ReceiptContentEncoder/content(_:sorted:)`` encodes and a ``ReceiptSigner`` signs.
public struct TestReceiptContent: Sendable, Hashable {
    /// The application version written unless ``appVersion`` says otherwise.
    public static let defaultAppVersion = "1"
    /// The original application version Apple writes in the sandbox, and here everywhere.
    public static let originalAppVersion = "1.0"
    /// The first default transaction id; the n-th purchase gets this plus n - 1.
    public static let firstTransactionId: Int64 = 2_000_000_000_000_001

    /// The bundle id (field 2); nil for ``PayloadParameters``'s.
    public var bundleId: String?
    /// `Sandbox` (receipt type ProductionSandbox, the default) or `Production`.
    public var environment: String?
    /// The app item id (field 1); nil for ``PayloadParameters``'s app Apple id in Production, else 0 as Apple
    /// writes.
    public var appAppleId: Int64?
    /// The application version (field 3); nil for ``defaultAppVersion``.
    public var appVersion: String?
    /// The creation date (field 12); nil for now. Purchases are an hour before it.
    public var created: Date?
    /// The in-app purchases, in order.
    public var purchases: [TestReceiptPurchase]
    /// The device identifier the SHA-1 hash (field 5) binds the receipt to; nil for a random device.
    public var deviceIdentifier: [UInt8]?
    /// Xcode StoreKit Testing's shape: receipt type Xcode and the expiry Xcode writes; ``environment`` is ignored.
    public var xcode: Bool

    /// The content of a receipt; every field is optional.
    public init(
        bundleId: String? = nil, environment: String? = nil, appAppleId: Int64? = nil, appVersion: String? = nil,
        created: Date? = nil, purchases: [TestReceiptPurchase] = [], deviceIdentifier: [UInt8]? = nil,
        xcode: Bool = false
    ) {
        self.bundleId = bundleId
        self.environment = environment
        self.appAppleId = appAppleId
        self.appVersion = appVersion
        self.created = created
        self.purchases = purchases
        self.deviceIdentifier = deviceIdentifier
        self.xcode = xcode
    }

    /// The receipt.
    ///
    /// App fields: the receipt type (`ProductionSandbox`, `Production` or `Xcode`), the app item id, the bundle
    /// id, the app version, a random 16-byte opaque value and the SHA-1 hash over it for ``deviceIdentifier`` (else
    /// for a random device), the creation date (whole seconds), the original purchase date (Apple's sandbox value
    /// 2013-08-01T07:00:00Z, the creation date in Production), the original application version 1.0, and for Xcode
    /// the expiry 4001-01-01T00:00:00Z that Xcode writes. Each purchase: quantity 1, its ids, purchased (and
    /// originally purchased) an hour before the creation date; a subscription (with an expiry) also has a web order
    /// line item id and is in no trial or introductory period.
    ///
    /// - Parameter now: The creation date when ``created`` is nil.
    public func receipt(now: Date = Date()) -> AppReceipt {
        let defaults = PayloadParameters()
        let created = Date(timeIntervalSince1970: (created ?? now).timeIntervalSince1970.rounded(.down))
        let production = !xcode && environment == AppStoreEnvironment.production.rawValue
        let bundleId = bundleId ?? defaults.bundleId
        var generator = SystemRandomNumberGenerator()
        let opaqueValue = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let device = deviceIdentifier ?? (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let bundleIdValue = ReceiptContentEncoder.utf8String(bundleId)
        let purchased = created.addingTimeInterval(-3600)
        let inApp = purchases.enumerated().map { index, purchase in
            let transactionId = purchase.transactionId ?? "\(Self.firstTransactionId + Int64(index))"
            let subscription = purchase.expiresDate != nil
            return InAppPurchaseReceipt(
                quantity: 1, productId: purchase.productId, transactionId: transactionId,
                originalTransactionId: purchase.originalTransactionId ?? transactionId, purchaseDate: purchased,
                originalPurchaseDate: purchased, expiresDate: purchase.expiresDate,
                webOrderLineItemId: subscription ? Self.firstTransactionId + Int64(index) : nil,
                isTrialPeriod: subscription ? false : nil, isInIntroOfferPeriod: subscription ? false : nil)
        }
        return AppReceipt(
            receiptType: xcode ? "Xcode" : production ? "Production" : "ProductionSandbox",
            appItemId: appAppleId ?? (production ? defaults.appAppleId : 0), bundleId: bundleId,
            applicationVersion: appVersion ?? Self.defaultAppVersion, opaqueValue: opaqueValue,
            sha1Hash: ReceiptContentEncoder.deviceHash(
                deviceIdentifier: device, opaqueValue: opaqueValue, bundleIdValue: bundleIdValue),
            bundleIdRawValue: bundleIdValue, receiptCreationDate: created,
            originalPurchaseDate: production ? created : Date(timeIntervalSince1970: 1_375_340_400),
            originalApplicationVersion: Self.originalAppVersion,
            expirationDate: xcode ? Date(timeIntervalSince1970: 64_092_211_200) : nil, inApp: inApp)
    }
}
