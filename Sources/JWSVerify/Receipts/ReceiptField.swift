/// How the OCTET STRING of a receipt attribute holds its value.
///
/// The numbers and types come from Apple's archived Receipt Validation Programming Guide ("Receipt Fields") and, for
/// the fields it leaves out (0, 1, 10, 18, 1707, 1713), from the public receipt parsers that read them
/// (TPInAppReceipt, AppReceiptValidator, RevenueCat's purchases-ios) and from real receipts (TestVectors/receipts).
package enum ReceiptValueKind: Hashable, Sendable {
    /// One DER UTF8String.
    case utf8String
    /// One DER IA5String.
    case ia5String
    /// One DER INTEGER within `Int64`.
    case integer
    /// One DER INTEGER, 0 (false) or 1 (true).
    case flag
    /// One DER IA5String holding an RFC 3339 date, or empty for no date.
    case date
    /// The bytes themselves, not DER.
    case bytes
    /// The bytes themselves: exactly 20 (a SHA-1 digest).
    case sha1Digest
    /// One DER SET OF ReceiptAttribute: an in-app purchase receipt.
    case purchase
}

/// A receipt field this version knows: each appears at most once, except ``inAppPurchase`` (one per purchase).
package enum AppReceiptField: Int64, CaseIterable, Sendable {
    /// 0, UTF8String: `Production`, `ProductionSandbox`, `Xcode`...
    case receiptType = 0
    /// 1, INTEGER: the app's App Store identifier (0 in the sandbox).
    case appItemId = 1
    /// 2, UTF8String.
    case bundleId = 2
    /// 3, UTF8String.
    case applicationVersion = 3
    /// 4, bytes.
    case opaqueValue = 4
    /// 5, 20 bytes.
    case sha1Hash = 5
    /// 10, IA5String, such as `4+`.
    case ageRating = 10
    /// 12, IA5String date.
    case receiptCreationDate = 12
    /// 17, SET: one in-app purchase receipt each.
    case inAppPurchase = 17
    /// 18, IA5String date.
    case originalPurchaseDate = 18
    /// 19, UTF8String.
    case originalApplicationVersion = 19
    /// 21, IA5String date.
    case expirationDate = 21

    /// The field in plain words, for messages.
    package var name: String {
        switch self {
        case .receiptType: return "receipt type"
        case .appItemId: return "app item id"
        case .bundleId: return "bundle id"
        case .applicationVersion: return "app version"
        case .opaqueValue: return "opaque value"
        case .sha1Hash: return "SHA-1 hash"
        case .ageRating: return "age rating"
        case .receiptCreationDate: return "receipt creation date"
        case .inAppPurchase: return "in-app purchase receipt"
        case .originalPurchaseDate: return "original purchase date"
        case .originalApplicationVersion: return "original application version"
        case .expirationDate: return "receipt expiration date"
        }
    }

    /// How the value is encoded.
    package var kind: ReceiptValueKind {
        switch self {
        case .receiptType, .bundleId, .applicationVersion, .originalApplicationVersion: return .utf8String
        case .appItemId: return .integer
        case .opaqueValue: return .bytes
        case .sha1Hash: return .sha1Digest
        case .ageRating: return .ia5String
        case .receiptCreationDate, .originalPurchaseDate, .expirationDate: return .date
        case .inAppPurchase: return .purchase
        }
    }

    /// `attribute 2 (bundle id)`, for messages.
    package var context: String { "attribute \(rawValue) (\(name))" }

    /// A distinct bit of each field (every raw value is below 64), to find duplicates.
    package var bit: UInt64 { 1 << UInt64(rawValue) }
}

/// An in-app purchase receipt field this version knows; each appears at most once in a purchase.
package enum InAppPurchaseField: Int64, CaseIterable, Sendable {
    /// 1701, INTEGER.
    case quantity = 1701
    /// 1702, UTF8String.
    case productId = 1702
    /// 1703, UTF8String.
    case transactionId = 1703
    /// 1704, IA5String date.
    case purchaseDate = 1704
    /// 1705, UTF8String.
    case originalTransactionId = 1705
    /// 1706, IA5String date.
    case originalPurchaseDate = 1706
    /// 1707, INTEGER (not in Apple's guide; see ``InAppPurchaseReceipt/productType``).
    case productType = 1707
    /// 1708, IA5String date.
    case expiresDate = 1708
    /// 1711, INTEGER.
    case webOrderLineItemId = 1711
    /// 1712, IA5String date.
    case cancellationDate = 1712
    /// 1713, INTEGER 0 or 1 (not in Apple's guide's ASN.1 list).
    case isTrialPeriod = 1713
    /// 1719, INTEGER 0 or 1.
    case isInIntroOfferPeriod = 1719
    /// 1721, UTF8String.
    case promotionalOfferId = 1721

    /// The field in plain words, for messages.
    package var name: String {
        switch self {
        case .quantity: return "quantity"
        case .productId: return "product id"
        case .transactionId: return "transaction id"
        case .purchaseDate: return "purchase date"
        case .originalTransactionId: return "original transaction id"
        case .originalPurchaseDate: return "original purchase date"
        case .productType: return "product type"
        case .expiresDate: return "subscription expiration date"
        case .webOrderLineItemId: return "web order line item id"
        case .cancellationDate: return "cancellation date"
        case .isTrialPeriod: return "trial period flag"
        case .isInIntroOfferPeriod: return "introductory offer period flag"
        case .promotionalOfferId: return "promotional offer id"
        }
    }

    /// How the value is encoded.
    package var kind: ReceiptValueKind {
        switch self {
        case .productId, .transactionId, .originalTransactionId, .promotionalOfferId: return .utf8String
        case .quantity, .productType, .webOrderLineItemId: return .integer
        case .isTrialPeriod, .isInIntroOfferPeriod: return .flag
        case .purchaseDate, .originalPurchaseDate, .expiresDate, .cancellationDate: return .date
        }
    }

    /// `attribute 1703 (transaction id)`, for messages.
    package var context: String { "attribute \(rawValue) (\(name))" }

    /// A distinct bit of each field (every raw value is in 1701...1763), to find duplicates.
    package var bit: UInt64 { 1 << UInt64(rawValue - 1700) }
}
