import Foundation

/// The decoding of an app receipt's content, the eContent of its PKCS#7 SignedData, and its limits.
///
/// The content is `ReceiptAttributes ::= SET OF ReceiptAttribute`, `ReceiptAttribute ::= SEQUENCE { type INTEGER,
/// version INTEGER, value OCTET STRING }` (Apple's archived Receipt Validation Programming Guide, "Validating
/// Receipts Locally"); the value of each attribute 17 is the same structure again, one in-app purchase. Everything
/// is read by ``DERReader``, strictly (definite, minimal lengths; nothing after the set; every element within its
/// container) and within these bounds:
/// - ``maximumContentBytes``: the content is at most 4 MiB (a receipt of 187 purchases has 75 KB);
/// - ``maximumAttributes``: the set holds at most 100,000 attributes, so at most that many purchases;
/// - ``maximumPurchaseAttributes``: one purchase holds at most 1,000 attributes (Apple writes about 20);
/// - ``limits``: readers nest at most 6 deep, which the structure needs exactly (set, attribute, value, purchase
///   set, purchase attribute, value).
///
/// Each field of ``AppReceiptField`` and ``InAppPurchaseField`` must hold its kind of value (``ReceiptValueKind``)
/// and appear at most once (but 17); a date is RFC 3339 (``ReceiptDate/seconds(rfc3339:)``) or empty (no date).
/// Other attributes are kept as ``ReceiptAttribute``s. The order of the set is not checked: Xcode does not sort it.
package enum ReceiptContent {
    /// The largest content accepted: 4 MiB.
    package static let maximumContentBytes = 4 << 20
    /// The most attributes (in-app purchases included) in the receipt's set: 100,000.
    package static let maximumAttributes = 100_000
    /// The most attributes in one in-app purchase's set: 1,000.
    package static let maximumPurchaseAttributes = 1_000
    /// The reader's bounds: depth 6, ``maximumAttributes`` elements a container.
    package static let limits = DERReader.Limits(maximumDepth: 6, maximumElements: maximumAttributes)

    /// One attribute as read, its value not yet decoded.
    fileprivate struct Attribute {
        let type: Int64
        let version: Int64
        let value: DERElement
        let start: Int
    }

    /// A decoded value of a known field.
    fileprivate enum Value {
        case text(String)
        case integer(Int64)
        case flag(Bool)
        case date(Date?)
        case bytes([UInt8])
    }

    /// Reads the SET inside `element` (an attribute 17's value) and returns a reader over it.
    fileprivate static func set(in element: DERElement, of reader: DERReader) throws(DERError) -> DERReader {
        var outer = try reader.nested(in: element)
        let set = try outer.readSet()
        try outer.finish()
        return set
    }

    /// Reads one `SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }`.
    fileprivate static func attribute(_ set: inout DERReader) throws(DERError) -> Attribute {
        let start = set.position
        var sequence = try set.readSequence()
        let type = try sequence.readInteger()
        let version = try sequence.readInteger()
        let value = try sequence.readOctetString()
        try sequence.finish()
        return Attribute(type: type, version: version, value: value, start: start)
    }

    /// Decodes the value of `attribute` as `kind` (for ``ReceiptValueKind/purchase``, its bytes).
    fileprivate static func value(
        _ attribute: Attribute, _ kind: ReceiptValueKind, _ reader: DERReader
    ) throws(DERError) -> Value {
        let element = attribute.value
        switch kind {
        case .bytes, .purchase:
            return .bytes(Array(reader.slice(element.contents)))
        case .sha1Digest:
            guard element.length == 20 else {
                throw DERError("a SHA-1 hash of \(element.length) bytes, not 20", at: element.contentStart)
            }
            return .bytes(Array(reader.slice(element.contents)))
        case .utf8String:
            return try single(element, reader) { (inner) throws(DERError) in .text(try inner.readUTF8String()) }
        case .ia5String:
            return try single(element, reader) { (inner) throws(DERError) in .text(try inner.readIA5String()) }
        case .integer:
            return try single(element, reader) { (inner) throws(DERError) in .integer(try inner.readInteger()) }
        case .flag:
            return try single(element, reader) { (inner) throws(DERError) in
                let start = inner.position
                let number = try inner.readInteger()
                guard number == 0 || number == 1 else { throw DERError("a flag of \(number), not 0 or 1", at: start) }
                return .flag(number == 1)
            }
        case .date:
            return try single(element, reader) { (inner) throws(DERError) in
                let text = try inner.readIA5StringElement()
                guard text.length > 0 else { return .date(nil) }
                guard let seconds = ReceiptDate.seconds(rfc3339: inner.slice(text.contents)) else {
                    let quoted = String(decoding: inner.slice(text.contents).prefix(40), as: UTF8.self)
                    throw DERError("not an RFC 3339 date: \"\(EscapedText.escaped(quoted))\"", at: text.contentStart)
                }
                return .date(Date(timeIntervalSince1970: Double(seconds)))
            }
        }
    }

    /// Reads the one element that the OCTET STRING `element` holds, with `read`, and checks that nothing follows.
    private static func single(
        _ element: DERElement, _ reader: DERReader, _ read: (inout DERReader) throws(DERError) -> Value
    ) throws(DERError) -> Value {
        var inner = try reader.nested(in: element)
        let value = try read(&inner)
        try inner.finish()
        return value
    }

    /// Runs `body`, turning its ``DERError`` into a ``ReceiptContentError`` that says where: `context`.
    fileprivate static func locate<T>(
        _ context: @autoclosure () -> String, _ body: () throws(DERError) -> T
    ) throws(ReceiptContentError) -> T {
        do throws(DERError) {
            return try body()
        } catch {
            throw ReceiptContentError("receipt content: \(context()): \(error.message)")
        }
    }

    fileprivate static func duplicate(_ context: String, _ attribute: Attribute) -> ReceiptContentError {
        ReceiptContentError("receipt content: \(context) appears more than once (again at byte \(attribute.start))")
    }
}

extension AppReceipt {
    /// Decodes the content of an app receipt: the DER set of attributes that its SignedData signs.
    ///
    /// See ``ReceiptContent`` for the rules and limits.
    ///
    /// - Parameter content: The eContent bytes (the contents of the OCTET STRING), not the PKCS#7 envelope.
    /// - Throws: ``ReceiptContentError``: over a limit, not DER, not the structure above, a known field with a
    ///   value of the wrong kind, twice, or a bad date; its message names the attribute (and purchase) and byte.
    package init(content: [UInt8]) throws(ReceiptContentError) {
        guard content.count <= ReceiptContent.maximumContentBytes else {
            throw ReceiptContentError(
                "receipt content: \(content.count) bytes, over the limit of \(ReceiptContent.maximumContentBytes)")
        }
        var root = DERReader(content, limits: ReceiptContent.limits)
        var set = try ReceiptContent.locate("not a DER set of attributes") { () throws(DERError) in
            let set = try root.readSet()
            try root.finish()
            return set
        }
        self.init()
        var seen: UInt64 = 0
        while !set.isAtEnd {
            let start = set.position
            let attribute = try ReceiptContent.locate("attribute at byte \(start)") { () throws(DERError) in
                try ReceiptContent.attribute(&set)
            }
            guard let field = AppReceiptField(rawValue: attribute.type) else {
                // Apple's receipts carry about a dozen attributes this version does not know: one allocation for
                // them, not one per doubling.
                if unknownAttributes.isEmpty { unknownAttributes.reserveCapacity(16) }
                unknownAttributes.append(
                    ReceiptAttribute(
                        type: attribute.type, version: attribute.version, value: set.slice(attribute.value.contents)))
                continue
            }
            if field == .inAppPurchase {
                if inApp.isEmpty { inApp.reserveCapacity(4) }
                let number = inApp.count + 1
                inApp.append(try InAppPurchaseReceipt(attribute, number: number, reader: set))
                continue
            }
            // Messages are made only on failure: building them for every attribute cost a third of the decoding.
            func context() -> String { "attribute \(field.rawValue) (\(field.name))" }
            guard seen & field.bit == 0 else { throw ReceiptContent.duplicate(context(), attribute) }
            seen |= field.bit
            let value = try ReceiptContent.locate(context()) { () throws(DERError) in
                try ReceiptContent.value(attribute, field.kind, set)
            }
            store(value, field, attribute, set)
        }
    }

    private mutating func store(
        _ value: ReceiptContent.Value, _ field: AppReceiptField, _ attribute: ReceiptContent.Attribute,
        _ reader: DERReader
    ) {
        switch (field, value) {
        case (.receiptType, .text(let text)): receiptType = text
        case (.appItemId, .integer(let number)): appItemId = number
        case (.bundleId, .text(let text)):
            bundleId = text
            bundleIdRawValue = Array(reader.slice(attribute.value.contents))
        case (.applicationVersion, .text(let text)): applicationVersion = text
        case (.opaqueValue, .bytes(let bytes)): opaqueValue = bytes
        case (.sha1Hash, .bytes(let bytes)): sha1Hash = bytes
        case (.ageRating, .text(let text)): ageRating = text
        case (.receiptCreationDate, .date(let date)): receiptCreationDate = date
        case (.originalPurchaseDate, .date(let date)): originalPurchaseDate = date
        case (.originalApplicationVersion, .text(let text)): originalApplicationVersion = text
        case (.expirationDate, .date(let date)): expirationDate = date
        default: break  // Each field's kind gives one case of `Value`; 17 is read apart.
        }
    }
}

extension InAppPurchaseReceipt {
    /// Decodes the value of one attribute 17: the purchase numbered `number` (from 1) of the receipt.
    fileprivate init(
        _ attribute: ReceiptContent.Attribute, number: Int, reader: DERReader
    ) throws(ReceiptContentError) {
        func purchase() -> String { "in-app purchase \(number) (attribute 17 at byte \(attribute.start))" }
        var set = try ReceiptContent.locate(purchase()) { () throws(DERError) in
            try ReceiptContent.set(in: attribute.value, of: reader)
        }
        self.init()
        var seen: UInt64 = 0
        while !set.isAtEnd {
            guard set.count < ReceiptContent.maximumPurchaseAttributes else {
                throw ReceiptContentError(
                    "receipt content: \(purchase()): more than \(ReceiptContent.maximumPurchaseAttributes) attributes")
            }
            let start = set.position
            let inner = try ReceiptContent.locate(purchase() + ", attribute at byte \(start)") { () throws(DERError) in
                try ReceiptContent.attribute(&set)
            }
            guard let field = InAppPurchaseField(rawValue: inner.type) else {
                // Apple's purchases carry about 7 attributes this version does not know: one allocation for them.
                if unknownAttributes.isEmpty { unknownAttributes.reserveCapacity(8) }
                unknownAttributes.append(
                    ReceiptAttribute(type: inner.type, version: inner.version, value: set.slice(inner.value.contents)))
                continue
            }
            func context() -> String { purchase() + ", attribute \(field.rawValue) (\(field.name))" }
            guard seen & field.bit == 0 else { throw ReceiptContent.duplicate(context(), inner) }
            seen |= field.bit
            let value = try ReceiptContent.locate(context()) { () throws(DERError) in
                try ReceiptContent.value(inner, field.kind, set)
            }
            store(value, field)
        }
    }

    private mutating func store(_ value: ReceiptContent.Value, _ field: InAppPurchaseField) {
        switch (field, value) {
        case (.quantity, .integer(let number)): quantity = number
        case (.productId, .text(let text)): productId = text
        case (.transactionId, .text(let text)): transactionId = text
        case (.purchaseDate, .date(let date)): purchaseDate = date
        case (.originalTransactionId, .text(let text)): originalTransactionId = text
        case (.originalPurchaseDate, .date(let date)): originalPurchaseDate = date
        case (.productType, .integer(let number)): productType = number
        case (.expiresDate, .date(let date)): expiresDate = date
        case (.webOrderLineItemId, .integer(let number)): webOrderLineItemId = number
        case (.cancellationDate, .date(let date)): cancellationDate = date
        case (.isTrialPeriod, .flag(let flag)): isTrialPeriod = flag
        case (.isInIntroOfferPeriod, .flag(let flag)): isInIntroOfferPeriod = flag
        case (.promotionalOfferId, .text(let text)): promotionalOfferId = text
        default: break  // Each field's kind gives one case of `Value`.
        }
    }
}
