import Foundation
import JWSVerify

/// Writes the content of an app receipt (the DER set of attributes that its PKCS#7 SignedData signs), for tests
/// and for minting test receipts, including content that is wrong on purpose.
///
/// ``content(_:)`` writes what ``AppReceipt`` decodes back to an equal value: every known field of the receipt and
/// of each purchase as one attribute (version 1) with the value kind Apple uses, dates as RFC 3339 in UTC whole
/// seconds (`2020-05-06T18:28:49Z`), the purchases as attributes 17, then the unknown attributes as they are; the
/// set sorted as DER requires (X.690 §11.6), as the App Store writes it.
///
/// To craft bad content, edit the list ``attributes(_:)`` returns and write it with
/// ``content(attributes:sorted:lengths:)``:
/// - a duplicate: append an attribute again;
/// - a value of the wrong kind: `ReceiptAttribute(type: 2, value: ReceiptContentEncoder.integer(7))`;
/// - a bad date: `ReceiptAttribute(type: 12, value: ReceiptContentEncoder.ia5String("2020-13-01T00:00:00Z"))`;
/// - an unknown attribute: `ReceiptAttribute(type: 99, version: 3, value: [1, 2, 3])`;
/// - lengths that are not minimal: `lengths: .longForm`; a purchase so written: ``purchase(_:lengths:)``.
public enum ReceiptContentEncoder {
    /// How the encoder writes the length octets of the TLVs it makes (values given as bytes are written as they
    /// are).
    public enum LengthForm: Sendable {
        /// DER: the shortest form.
        case minimal
        /// Every length as `84` and four octets: BER, not DER (a leading zero octet, or the long form below 128).
        case longForm
    }

    /// The DER content of `receipt`: its ``attributes(_:)``, sorted unless `sorted` is `false`.
    ///
    /// Sorting puts the purchases and the unknown attributes in DER order, which is the order decoding then gives
    /// them: a receipt decoded from sorted content (every App Store receipt) comes back equal either way, any receipt
    /// comes back equal with `sorted: false`.
    ///
    /// - Parameters:
    ///   - receipt: The receipt.
    ///   - sorted: Whether to sort the sets (the receipt's and each purchase's) as DER requires.
    public static func content(_ receipt: AppReceipt, sorted: Bool = true) -> [UInt8] {
        content(attributes: attributes(receipt, sorted: sorted), sorted: sorted)
    }

    /// The DER `SET OF ReceiptAttribute` of `attributes`.
    ///
    /// - Parameters:
    ///   - attributes: The attributes, in any order; values are written as given.
    ///   - sorted: Whether to sort the set's elements as DER requires (`false` keeps the given order, as Xcode does).
    ///   - lengths: How to write the lengths of the set, the attribute sequences and their integers and octet
    ///     strings.
    public static func content(
        attributes: [ReceiptAttribute], sorted: Bool = true, lengths: LengthForm = .minimal
    ) -> [UInt8] {
        var elements = attributes.map { attribute in
            tlv(
                0x30,
                tlv(0x02, integerContents(attribute.type), lengths)
                    + tlv(0x02, integerContents(attribute.version), lengths)
                    + tlv(0x04, attribute.value, lengths), lengths)
        }
        if sorted { elements.sort { $0.lexicographicallyPrecedes($1) } }
        return tlv(0x31, elements.flatMap { $0 }, lengths)
    }

    /// The attributes of `receipt`: each known field that is not `nil`, in the order of ``AppReceipt``'s properties,
    /// then one attribute 17 for each purchase, then ``AppReceipt/unknownAttributes``.
    ///
    /// The value of attribute 2 is ``AppReceipt/bundleIdRawValue`` when set, else the UTF8String of
    /// ``AppReceipt/bundleId``.
    ///
    /// - Parameters:
    ///   - receipt: The receipt.
    ///   - sorted: Whether to sort each purchase's set.
    public static func attributes(_ receipt: AppReceipt, sorted: Bool = true) -> [ReceiptAttribute] {
        var list: [ReceiptAttribute] = []
        func add(_ type: Int64, _ value: [UInt8]?) {
            if let value { list.append(ReceiptAttribute(type: type, value: value)) }
        }
        add(0, receipt.receiptType.map(utf8String))
        add(1, receipt.appItemId.map(integer))
        add(2, receipt.bundleIdRawValue ?? receipt.bundleId.map(utf8String))
        add(3, receipt.applicationVersion.map(utf8String))
        add(4, receipt.opaqueValue)
        add(5, receipt.sha1Hash)
        add(10, receipt.ageRating.map(ia5String))
        add(12, receipt.receiptCreationDate.map(date))
        add(18, receipt.originalPurchaseDate.map(date))
        add(19, receipt.originalApplicationVersion.map(utf8String))
        add(21, receipt.expirationDate.map(date))
        list += receipt.inApp.map { purchase(attributes($0), sorted: sorted) }
        return list + receipt.unknownAttributes
    }

    /// The attributes of `purchase`: each known field that is not `nil`, in the order of
    /// ``InAppPurchaseReceipt``'s properties, then ``InAppPurchaseReceipt/unknownAttributes``.
    public static func attributes(_ purchase: InAppPurchaseReceipt) -> [ReceiptAttribute] {
        var list: [ReceiptAttribute] = []
        func add(_ type: Int64, _ value: [UInt8]?) {
            if let value { list.append(ReceiptAttribute(type: type, value: value)) }
        }
        add(1701, purchase.quantity.map(integer))
        add(1702, purchase.productId.map(utf8String))
        add(1703, purchase.transactionId.map(utf8String))
        add(1705, purchase.originalTransactionId.map(utf8String))
        add(1704, purchase.purchaseDate.map(date))
        add(1706, purchase.originalPurchaseDate.map(date))
        add(1707, purchase.productType.map(integer))
        add(1708, purchase.expiresDate.map(date))
        add(1711, purchase.webOrderLineItemId.map(integer))
        add(1712, purchase.cancellationDate.map(date))
        add(1713, purchase.isTrialPeriod.map { integer($0 ? 1 : 0) })
        add(1719, purchase.isInIntroOfferPeriod.map { integer($0 ? 1 : 0) })
        add(1721, purchase.promotionalOfferId.map(utf8String))
        return list + purchase.unknownAttributes
    }

    /// Attribute 17 (version 1) whose value is the set of `attributes`.
    ///
    /// - Parameters:
    ///   - attributes: The purchase's attributes, such as the ``attributes(_:)`` of a purchase, edited.
    ///   - sorted: Whether to sort the set as DER requires.
    ///   - lengths: How to write the lengths inside the value.
    public static func purchase(
        _ attributes: [ReceiptAttribute], sorted: Bool = true, lengths: LengthForm = .minimal
    ) -> ReceiptAttribute {
        ReceiptAttribute(type: 17, value: content(attributes: attributes, sorted: sorted, lengths: lengths))
    }

    /// The SHA-1 hash (attribute 5) that binds a receipt to a device: SHA-1 of the device identifier's bytes, then
    /// the opaque value (attribute 4), then the bundle id's whole value as the receipt holds it (attribute 2: the DER
    /// UTF8String, tag and length included). Computed here without OpenSSL, independently of the verifier.
    ///
    /// - Parameters:
    ///   - deviceIdentifier: The identifier (`identifierForVendor`'s 16 bytes on iOS, a MAC address on macOS).
    ///   - opaqueValue: The value of attribute 4.
    ///   - bundleIdValue: The value of attribute 2, such as ``utf8String(_:)`` of the bundle id.
    public static func deviceHash(deviceIdentifier: [UInt8], opaqueValue: [UInt8], bundleIdValue: [UInt8]) -> [UInt8] {
        [UInt8](TestSHA1.hash(Data(deviceIdentifier + opaqueValue + bundleIdValue)))
    }

    /// A DER UTF8String of `text`: the value of a string attribute.
    public static func utf8String(_ text: String) -> [UInt8] { tlv(0x0C, Array(text.utf8)) }

    /// A DER IA5String of `text` (not checked to be ASCII): the value of a date or the age rating.
    public static func ia5String(_ text: String) -> [UInt8] { tlv(0x16, Array(text.utf8)) }

    /// A DER INTEGER: the value of a number or flag attribute.
    public static func integer(_ value: Int64) -> [UInt8] { tlv(0x02, integerContents(value)) }

    /// A DER IA5String of `date` in RFC 3339, UTC, whole seconds: the value of a date attribute (an empty
    /// IA5String, which means no date, for a date outside the years 0 to 9999).
    public static func date(_ date: Date) -> [UInt8] { ia5String(ReceiptDate.rfc3339(date) ?? "") }

    /// A TLV: `tag`, the length octets of `contents` in `form`, then `contents`.
    static func tlv(_ tag: UInt8, _ contents: [UInt8], _ form: LengthForm = .minimal) -> [UInt8] {
        let count = contents.count
        switch form {
        case .minimal:
            return [tag] + Array(TestDER.length(count)) + contents
        case .longForm:
            return [
                tag, 0x84, UInt8(truncatingIfNeeded: count >> 24), UInt8(truncatingIfNeeded: count >> 16),
                UInt8(truncatingIfNeeded: count >> 8), UInt8(truncatingIfNeeded: count),
            ] + contents
        }
    }

    /// The minimal two's complement contents octets of `value`.
    static func integerContents(_ value: Int64) -> [UInt8] {
        Array(TestDER.integer(value).dropFirst(2))
    }
}
