import Foundation

/// The decoded content of an app receipt (StoreKit 1, `Bundle.main.appStoreReceiptURL`).
///
/// An app receipt is a PKCS#7 SignedData whose content is a DER set of attributes (``ReceiptAttribute``). Each
/// property here is one attribute of Apple's archived Receipt Validation Programming Guide ("Receipt Fields"), or
/// one that Apple writes and public parsers read the same way (0, 1, 10, 18), `nil` when the receipt doesn't carry
/// it; a date attribute that is present but empty is `nil` too. In-app purchases (attribute 17, once per purchase)
/// are ``inApp``, in the receipt's order. Attributes this version doesn't know are kept in ``unknownAttributes``.
///
/// For the device check (SHA-1 of the device identifier, ``opaqueValue`` and ``bundleIdRawValue`` equals
/// ``sha1Hash``) the raw bytes are kept beside the typed values.
///
/// JSON (`Codable`): the shape of the old `verifyReceipt` response's `receipt` object (`responseBody.Receipt`), so
/// that code written for that response reads it unchanged: `receipt_type`, `app_item_id` (a JSON number, as
/// `verifyReceipt` wrote it), `bundle_id`, `application_version`, `original_application_version`,
/// `receipt_creation_date` (with `_ms` and `_pst`), `expiration_date…`, `original_purchase_date…` and `in_app`
/// (see ``InAppPurchaseReceipt``), values as strings the way `verifyReceipt` wrote them
/// (`"2020-05-06 18:28:49 Etc/GMT"`, `"1588789729000"`, `"2020-05-06 11:28:49 America/Los_Angeles"`). What
/// `verifyReceipt` never wrote comes under keys starting `asn1_`: `asn1_age_rating`, `asn1_opaque_value`,
/// `asn1_sha1_hash` and `asn1_bundle_id_value` (standard base64) and `asn1_unknown_attributes` (an array of
/// ``ReceiptAttribute``). Absent values write no member; `in_app` is always written. Decoding reads a date from its
/// `_ms` member alone; dates keep whole milliseconds through JSON.
public struct AppReceipt: Codable, Hashable, Sendable {
    /// Attribute 0 (UTF8String): the kind of receipt, which says where it was made: `Production`,
    /// `ProductionSandbox`, `Xcode`, or for Volume Purchase Program purchases `ProductionVPP` and
    /// `ProductionVPPSandbox`. ``environment`` is the same as an ``AppStoreEnvironment``.
    public var receiptType: String?

    /// Attribute 1 (INTEGER): the identifier the App Store uses for the app; 0 in the sandbox and in Xcode.
    public var appItemId: Int64?

    /// Attribute 2 (UTF8String): the app's bundle identifier (`CFBundleIdentifier`).
    public var bundleId: String?

    /// Attribute 3 (UTF8String): the app's version (`CFBundleVersion` on iOS, `CFBundleShortVersionString` on
    /// macOS).
    public var applicationVersion: String?

    /// Attribute 4 (bytes): an opaque value that the device hash covers.
    public var opaqueValue: [UInt8]?

    /// Attribute 5 (20 bytes): the SHA-1 digest of the device identifier, ``opaqueValue`` and
    /// ``bundleIdRawValue``, which ties the receipt to one device.
    public var sha1Hash: [UInt8]?

    /// The whole value of attribute 2 as the receipt holds it: the DER UTF8String (tag, length and text) that the
    /// device hash covers, not the text alone.
    public var bundleIdRawValue: [UInt8]?

    /// Attribute 10 (IA5String): the app's age rating, such as `4+`.
    public var ageRating: String?

    /// Attribute 12 (IA5String, RFC 3339): when the App Store created the receipt; the time at which to check its
    /// certificates.
    public var receiptCreationDate: Date?

    /// Attribute 18 (IA5String, RFC 3339): when the customer first obtained the app (2013-08-01T07:00:00Z in the
    /// sandbox).
    public var originalPurchaseDate: Date?

    /// Attribute 19 (UTF8String): the app version the customer originally purchased (`1.0` in the sandbox).
    public var originalApplicationVersion: String?

    /// Attribute 21 (IA5String, RFC 3339): when the receipt expires (Volume Purchase Program receipts, and
    /// 4001-01-01 in Xcode).
    public var expirationDate: Date?

    /// Attribute 17, once per purchase: the in-app purchases, in the receipt's order.
    public var inApp: [InAppPurchaseReceipt]

    /// Every app-level attribute this version doesn't know, in the receipt's order.
    public var unknownAttributes: [ReceiptAttribute]

    /// ``receiptType`` as an environment: `Production` and `ProductionVPP` are
    /// ``AppStoreEnvironment/production``, `ProductionSandbox` and `ProductionVPPSandbox`
    /// ``AppStoreEnvironment/sandbox``, `Xcode` ``AppStoreEnvironment/xcode``; any other value is kept as the raw
    /// value of an ``AppStoreEnvironment``; `nil` without a receipt type.
    public var environment: AppStoreEnvironment? {
        guard let receiptType else { return nil }
        switch receiptType {
        case "Production", "ProductionVPP": return .production
        case "ProductionSandbox", "ProductionVPPSandbox": return .sandbox
        case "Xcode": return .xcode
        default: return AppStoreEnvironment(rawValue: receiptType)
        }
    }

    /// Creates an app receipt; every field is optional.
    ///
    /// - Parameters: one per property, each described there.
    public init(
        receiptType: String? = nil,
        appItemId: Int64? = nil,
        bundleId: String? = nil,
        applicationVersion: String? = nil,
        opaqueValue: [UInt8]? = nil,
        sha1Hash: [UInt8]? = nil,
        bundleIdRawValue: [UInt8]? = nil,
        ageRating: String? = nil,
        receiptCreationDate: Date? = nil,
        originalPurchaseDate: Date? = nil,
        originalApplicationVersion: String? = nil,
        expirationDate: Date? = nil,
        inApp: [InAppPurchaseReceipt] = [],
        unknownAttributes: [ReceiptAttribute] = []
    ) {
        self.receiptType = receiptType
        self.appItemId = appItemId
        self.bundleId = bundleId
        self.applicationVersion = applicationVersion
        self.opaqueValue = opaqueValue
        self.sha1Hash = sha1Hash
        self.bundleIdRawValue = bundleIdRawValue
        self.ageRating = ageRating
        self.receiptCreationDate = receiptCreationDate
        self.originalPurchaseDate = originalPurchaseDate
        self.originalApplicationVersion = originalApplicationVersion
        self.expirationDate = expirationDate
        self.inApp = inApp
        self.unknownAttributes = unknownAttributes
    }

    /// Decodes the `verifyReceipt` shape described in the type's discussion.
    ///
    /// - Throws: `DecodingError` when a member has the wrong JSON type, or its string is not milliseconds or base64
    ///   where one is due.
    public init(from decoder: any Decoder) throws {
        let json = try decoder.container(keyedBy: ReceiptJSONKey.self)
        receiptType = try json.receiptString("receipt_type")
        appItemId = try json.decodeIfPresent(Int64.self, forKey: ReceiptJSONKey("app_item_id"))
        bundleId = try json.receiptString("bundle_id")
        applicationVersion = try json.receiptString("application_version")
        opaqueValue = try json.receiptBytes("asn1_opaque_value")
        sha1Hash = try json.receiptBytes("asn1_sha1_hash")
        bundleIdRawValue = try json.receiptBytes("asn1_bundle_id_value")
        ageRating = try json.receiptString("asn1_age_rating")
        receiptCreationDate = try json.receiptDate("receipt_creation_date")
        originalPurchaseDate = try json.receiptDate("original_purchase_date")
        originalApplicationVersion = try json.receiptString("original_application_version")
        expirationDate = try json.receiptDate("expiration_date")
        inApp = try json.decodeIfPresent([InAppPurchaseReceipt].self, forKey: ReceiptJSONKey("in_app")) ?? []
        unknownAttributes =
            try json.decodeIfPresent([ReceiptAttribute].self, forKey: ReceiptJSONKey("asn1_unknown_attributes")) ?? []
    }

    /// Encodes the `verifyReceipt` shape described in the type's discussion.
    ///
    /// - Throws: `EncodingError.invalidValue` for a date outside the years 0 to 9999.
    public func encode(to encoder: any Encoder) throws {
        var json = encoder.container(keyedBy: ReceiptJSONKey.self)
        try json.encodeReceipt(string: receiptType, "receipt_type")
        try json.encodeIfPresent(appItemId, forKey: ReceiptJSONKey("app_item_id"))
        try json.encodeReceipt(string: bundleId, "bundle_id")
        try json.encodeReceipt(string: applicationVersion, "application_version")
        try json.encodeReceipt(bytes: opaqueValue, "asn1_opaque_value")
        try json.encodeReceipt(bytes: sha1Hash, "asn1_sha1_hash")
        try json.encodeReceipt(bytes: bundleIdRawValue, "asn1_bundle_id_value")
        try json.encodeReceipt(string: ageRating, "asn1_age_rating")
        try json.encodeReceipt(date: receiptCreationDate, "receipt_creation_date")
        try json.encodeReceipt(date: originalPurchaseDate, "original_purchase_date")
        try json.encodeReceipt(string: originalApplicationVersion, "original_application_version")
        try json.encodeReceipt(date: expirationDate, "expiration_date")
        try json.encode(inApp, forKey: ReceiptJSONKey("in_app"))
        if !unknownAttributes.isEmpty {
            try json.encode(unknownAttributes, forKey: ReceiptJSONKey("asn1_unknown_attributes"))
        }
    }
}
