import Foundation

/// Writes an app receipt's JSON, the `verifyReceipt` shape of ``AppReceipt``'s `Codable` form, straight as bytes:
/// compact, members sorted by the UTF-8 bytes of their names, values written by the library's one JSON writer
/// (``JSONWriter``: strings with its one escape set, integers) and its base64 encoder (``Base64/appendStandard(_:to:)``);
/// this type only decides which receipt field goes where.
///
/// Names, numbers, dates, flags and short base64 are staged in one ``JSONWriter/Chunk`` (``Output``), which is
/// appended to the output array when the next piece would not fit: a receipt of the App Store (3.5 KB for two
/// purchases, about 200 pieces) touches the array about twenty times, not once per piece. Strings, which may need
/// escapes, and long base64 go to the array directly, after the chunk.
///
/// These are the bytes that the CLI's writer produced for the `Codable` form (`JSONEncoder`, parsed back and written
/// with sorted keys), which `batch` spent most of a receipt line's time on; tests hold the two equal for every
/// receipt vector and for crafted and random receipts. Member names are written in their sorted order here, so a new
/// member goes where its name sorts.
package enum ReceiptJSONWriter {
    /// A member's name as written before its value, `,"name":`, the comma left out for an object's first member: a
    /// literal, appended without a reference count or a lazy initialization.
    struct Key {
        let text: StaticString

        init(_ text: StaticString) {
            self.text = text
        }
    }

    /// The pieces of a date named `D`, written around its texts' dates and times (``ReceiptDate``'s `gmtDateTime`,
    /// milliseconds, `pacificDateTime`): `,"D":"`, then ` Etc/GMT","D_ms":"`, then `","D_pst":"`, then
    /// ` America/Los_Angeles"` (``pacificEnd``); each piece appended whole.
    struct DateKey {
        let gmt: Key
        let milliseconds: StaticString
        let pacific: StaticString

        /// The end of every date's Pacific text: its zone name and closing quote.
        static let pacificEnd: StaticString = " America/Los_Angeles\""
    }

    /// Every member name of the receipt's JSON, each written once.
    enum Keys {
        static let appItemId = Key(",\"app_item_id\":")
        static let applicationVersion = Key(",\"application_version\":")
        static let ageRating = Key(",\"asn1_age_rating\":")
        static let bundleIdValue = Key(",\"asn1_bundle_id_value\":")
        static let opaqueValue = Key(",\"asn1_opaque_value\":")
        static let productType = Key(",\"asn1_product_type\":")
        static let sha1Hash = Key(",\"asn1_sha1_hash\":")
        static let unknownAttributes = Key(",\"asn1_unknown_attributes\":")
        static let bundleId = Key(",\"bundle_id\":")
        static let cancellationDate = DateKey(
            gmt: Key(",\"cancellation_date\":\""), milliseconds: " Etc/GMT\",\"cancellation_date_ms\":\"",
            pacific: "\",\"cancellation_date_pst\":\"")
        static let expirationDate = DateKey(
            gmt: Key(",\"expiration_date\":\""), milliseconds: " Etc/GMT\",\"expiration_date_ms\":\"",
            pacific: "\",\"expiration_date_pst\":\"")
        static let expiresDate = DateKey(
            gmt: Key(",\"expires_date\":\""), milliseconds: " Etc/GMT\",\"expires_date_ms\":\"",
            pacific: "\",\"expires_date_pst\":\"")
        static let inApp = Key(",\"in_app\":")
        static let isInIntroOfferPeriod = Key(",\"is_in_intro_offer_period\":")
        static let isTrialPeriod = Key(",\"is_trial_period\":")
        static let originalApplicationVersion = Key(",\"original_application_version\":")
        static let originalPurchaseDate = DateKey(
            gmt: Key(",\"original_purchase_date\":\""), milliseconds: " Etc/GMT\",\"original_purchase_date_ms\":\"",
            pacific: "\",\"original_purchase_date_pst\":\"")
        static let originalTransactionId = Key(",\"original_transaction_id\":")
        static let productId = Key(",\"product_id\":")
        static let promotionalOfferId = Key(",\"promotional_offer_id\":")
        static let purchaseDate = DateKey(
            gmt: Key(",\"purchase_date\":\""), milliseconds: " Etc/GMT\",\"purchase_date_ms\":\"",
            pacific: "\",\"purchase_date_pst\":\"")
        static let quantity = Key(",\"quantity\":")
        static let receiptCreationDate = DateKey(
            gmt: Key(",\"receipt_creation_date\":\""), milliseconds: " Etc/GMT\",\"receipt_creation_date_ms\":\"",
            pacific: "\",\"receipt_creation_date_pst\":\"")
        static let receiptType = Key(",\"receipt_type\":")
        static let transactionId = Key(",\"transaction_id\":")
        static let webOrderLineItemId = Key(",\"web_order_line_item_id\":")
    }

    /// The output array and the chunk that stages its next bytes: every piece of a receipt's JSON goes through it,
    /// in order.
    struct Output {
        /// The bytes written so far, before those in ``stage``.
        var bytes: [UInt8]
        /// Bytes not yet appended to ``bytes``.
        var stage = JSONWriter.Chunk()

        /// Makes room for `length` bytes in ``stage`` (appending it to ``bytes`` when they would not fit).
        @inline(__always)
        mutating func room(_ length: Int) {
            stage.ensureRoom(length, flushingInto: &bytes)
        }

        /// Appends ``stage`` to ``bytes``, for a piece written to the array directly.
        mutating func flush() {
            stage.append(to: &bytes)
            stage.removeAll()
        }

        /// Appends a literal piece of text (at most ``JSONWriter/Chunk/capacity`` bytes).
        @inline(__always)
        mutating func literal(_ text: StaticString) {
            room(text.utf8CodeUnitCount)
            stage.append(text)
        }

        /// Appends one byte.
        @inline(__always)
        mutating func byte(_ value: UInt8) {
            room(1)
            stage.append(value)
        }
    }

    /// The members of one JSON object, appended in the order they are given (which must be their sorted order),
    /// their values written by the library's ``JSONWriter`` and ``Base64``.
    struct Object {
        private var opened = false

        /// The most bytes of a member's name as ``Key`` writes it.
        private static let keyLength = 48
        /// The most bytes of an integer's text.
        private static let integerLength = 20

        /// Appends the opening brace or comma and `"name":`.
        mutating func name(_ key: Key, _ out: inout Output) {
            let wasOpened = opened
            opened = true
            out.room(Self.keyLength)
            let start = out.stage.count
            out.stage.append(key.text)
            // The first member's name opens the object: its leading comma becomes the brace.
            if !wasOpened { out.stage.set(UInt8(ascii: "{"), at: start) }
        }

        /// Closes the object (`{}` when it has no members).
        func close(_ out: inout Output) {
            out.literal(opened ? "}" : "{}")
        }

        /// A string: staged when it needs no escape and fits (every identifier of the App Store's receipts), else
        /// written by ``JSONWriter/writeString(_:into:)`` after the chunk.
        mutating func string(_ value: String?, _ key: Key, _ out: inout Output) {
            guard let value else { return }
            name(key, &out)
            if out.stage.appendPlainString(value) { return }
            out.flush()
            if out.stage.appendPlainString(value) { return }
            JSONWriter.writeString(value, into: &out.bytes)
        }

        /// An integer as a JSON number.
        mutating func integer(_ value: Int64?, _ key: Key, _ out: inout Output) {
            guard let value else { return }
            name(key, &out)
            out.room(Self.integerLength + 8)
            out.stage.appendInteger(value)
        }

        /// An integer as `verifyReceipt` wrote most of them: a decimal string.
        mutating func integerString(_ value: Int64?, _ key: Key, _ out: inout Output) {
            guard let value else { return }
            name(key, &out)
            out.room(Self.integerLength + 2 + 8)
            out.stage.append(UInt8(ascii: "\""))
            out.stage.appendInteger(value)
            out.stage.append(UInt8(ascii: "\""))
        }

        mutating func flag(_ value: Bool?, _ key: Key, _ out: inout Output) {
            guard let value else { return }
            name(key, &out)
            out.literal(value ? "\"true\"" : "\"false\"")
        }

        /// Bytes as a standard base64 string (which needs no escape): staged when it fits, else appended directly.
        mutating func bytes(_ value: [UInt8]?, _ key: Key, _ out: inout Output) {
            guard let value else { return }
            name(key, &out)
            out.byte(UInt8(ascii: "\""))
            Object.base64(value, &out)
            out.byte(UInt8(ascii: "\""))
        }

        /// `value` as standard base64, staged when it fits in a chunk, else written to the array after the chunk.
        static func base64(_ value: [UInt8], _ out: inout Output) {
            if Base64.appendStandard(value, to: &out.stage) { return }
            out.flush()
            if Base64.appendStandard(value, to: &out.stage) { return }
            Base64.appendStandard(value, to: &out.bytes)
        }

        /// `name`, `name_ms` and `name_pst` (``ReceiptDate/VerifyReceiptTexts``); false for a date outside the
        /// years 0 to 9999, which the `Codable` form refuses.
        mutating func date(_ value: Date?, _ key: DateKey, _ out: inout Output) -> Bool {
            guard let value else { return true }
            guard let texts = ReceiptDate.VerifyReceiptTexts(value) else { return false }
            name(key.gmt, &out)
            // The rest in one staged piece: two dates and times, the milliseconds and four literals, with room for
            // the word each store writes.
            let dateTime = ReceiptDate.VerifyReceiptTexts.dateTimeLength
            out.room(
                2 * dateTime + Self.integerLength + key.milliseconds.utf8CodeUnitCount
                    + key.pacific.utf8CodeUnitCount + DateKey.pacificEnd.utf8CodeUnitCount + 8)
            texts.appendGMTDateTime(to: &out.stage)
            out.stage.append(key.milliseconds)
            texts.appendMilliseconds(to: &out.stage)
            out.stage.append(key.pacific)
            texts.appendPacificDateTime(to: &out.stage)
            out.stage.append(DateKey.pacificEnd)
            return true
        }

        /// `asn1_unknown_attributes`, when there are any.
        mutating func attributes(_ value: [ReceiptAttribute], _ out: inout Output) {
            guard !value.isEmpty else { return }
            name(Keys.unknownAttributes, &out)
            out.byte(UInt8(ascii: "["))
            // Read through a span: each attribute is borrowed in place, not copied (and its value retained).
            let attributes = value.span
            for index in attributes.indices {
                if index > 0 { out.byte(UInt8(ascii: ",")) }
                attributes[index].appendJSON(to: &out)
            }
            out.byte(UInt8(ascii: "]"))
        }
    }

    /// Makes room in `out` for about `count` more bytes at once, growing it geometrically (never to the exact size:
    /// a caller that appends many receipts to one buffer keeps amortized growth).
    static func reserve(_ count: Int, in out: inout [UInt8]) {
        guard out.capacity - out.count < count else { return }
        out.reserveCapacity(max(out.capacity * 2, out.count + count))
    }
}

extension AppReceipt {
    /// Appends the receipt's compact JSON (the `Codable` form, members sorted by name, see ``ReceiptJSONWriter``)
    /// to `out`.
    ///
    /// - Returns: false, with `out` as it was, when a date lies outside the years 0 to 9999 (where `encode(to:)`
    ///   throws).
    package func appendJSON(to out: inout [UInt8]) -> Bool {
        let start = out.count
        // About what the receipts of the App Store need (3.5 KB for two purchases): one allocation, not several.
        ReceiptJSONWriter.reserve(1_024 + 1_280 * inApp.count, in: &out)
        // The array moves into the writer and back (swapped, not copied: it stays uniquely referenced).
        var output = ReceiptJSONWriter.Output(bytes: [])
        swap(&output.bytes, &out)
        let valid = appendJSON(to: &output)
        output.flush()
        swap(&output.bytes, &out)
        if !valid { out.removeSubrange(start...) }
        return valid
    }

    private func appendJSON(to out: inout ReceiptJSONWriter.Output) -> Bool {
        var json = ReceiptJSONWriter.Object()
        typealias Keys = ReceiptJSONWriter.Keys
        json.integer(appItemId, Keys.appItemId, &out)
        json.string(applicationVersion, Keys.applicationVersion, &out)
        json.string(ageRating, Keys.ageRating, &out)
        json.bytes(bundleIdRawValue, Keys.bundleIdValue, &out)
        json.bytes(opaqueValue, Keys.opaqueValue, &out)
        json.bytes(sha1Hash, Keys.sha1Hash, &out)
        json.attributes(unknownAttributes, &out)
        json.string(bundleId, Keys.bundleId, &out)
        var valid = json.date(expirationDate, Keys.expirationDate, &out)
        json.name(Keys.inApp, &out)
        out.byte(UInt8(ascii: "["))
        // Each purchase borrowed in place through a span, not copied with its twenty fields.
        let purchases = inApp.span
        for index in purchases.indices where valid {
            if index > 0 { out.byte(UInt8(ascii: ",")) }
            valid = purchases[index].appendJSON(to: &out)
        }
        out.byte(UInt8(ascii: "]"))
        json.string(originalApplicationVersion, Keys.originalApplicationVersion, &out)
        valid = valid && json.date(originalPurchaseDate, Keys.originalPurchaseDate, &out)
        valid = valid && json.date(receiptCreationDate, Keys.receiptCreationDate, &out)
        json.string(receiptType, Keys.receiptType, &out)
        json.close(&out)
        return valid
    }
}

extension InAppPurchaseReceipt {
    /// Appends the purchase's compact JSON (the `Codable` form, members sorted by name) to `out`.
    ///
    /// - Returns: false when a date lies outside the years 0 to 9999 (`out` then holds part of the object).
    func appendJSON(to out: inout ReceiptJSONWriter.Output) -> Bool {
        typealias Keys = ReceiptJSONWriter.Keys
        var json = ReceiptJSONWriter.Object()
        json.integerString(productType, Keys.productType, &out)
        json.attributes(unknownAttributes, &out)
        var valid = json.date(cancellationDate, Keys.cancellationDate, &out)
        valid = valid && json.date(expiresDate, Keys.expiresDate, &out)
        json.flag(isInIntroOfferPeriod, Keys.isInIntroOfferPeriod, &out)
        json.flag(isTrialPeriod, Keys.isTrialPeriod, &out)
        valid = valid && json.date(originalPurchaseDate, Keys.originalPurchaseDate, &out)
        json.string(originalTransactionId, Keys.originalTransactionId, &out)
        json.string(productId, Keys.productId, &out)
        json.string(promotionalOfferId, Keys.promotionalOfferId, &out)
        valid = valid && json.date(purchaseDate, Keys.purchaseDate, &out)
        json.integerString(quantity, Keys.quantity, &out)
        json.string(transactionId, Keys.transactionId, &out)
        json.integerString(webOrderLineItemId, Keys.webOrderLineItemId, &out)
        json.close(&out)
        return valid
    }
}

extension ReceiptAttribute {
    /// Appends `{"type":…,"value":"…","version":…}` to `out`: what ``ReceiptJSONWriter/Object`` writes for these
    /// three members, staged as one piece when the value's base64 fits (a receipt of the App Store has a few dozen
    /// such attributes, most a few bytes long).
    func appendJSON(to out: inout ReceiptJSONWriter.Output) {
        // `{"type":` and `,"value":"` around at most 20 digits, and the same after the value: at most 38 and 33 bytes,
        // with room for a word's store.
        out.room(38 + 8)
        out.stage.append("{\"type\":")
        out.stage.appendInteger(type)
        out.stage.append(",\"value\":\"")
        switch storage {
        case .packed(let word, let count):
            // At most 12 characters, with room for the word each group's store writes.
            out.room(12 + 4)
            Base64.appendStandard(packed: word, count: count, to: &out.stage)
        case .array(let bytes):
            ReceiptJSONWriter.Object.base64(bytes, &out)
        }
        out.room(33 + 8)
        out.stage.append("\",\"version\":")
        out.stage.appendInteger(version)
        out.stage.append(UInt8(ascii: "}"))
    }
}
