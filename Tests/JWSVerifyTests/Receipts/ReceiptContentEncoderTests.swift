import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

private typealias Encoder = ReceiptContentEncoder

/// A receipt with every known field set, and a purchase with every known field set, flags true.
let fullReceipt = AppReceipt(
    receiptType: "Production", appItemId: 1_234_567_890, bundleId: "com.example.app", applicationVersion: "7.1",
    opaqueValue: [1, 2, 3, 4, 5, 6, 7, 8], sha1Hash: Array(0..<20),
    bundleIdRawValue: Encoder.utf8String("com.example.app"),
    ageRating: "12+", receiptCreationDate: Date(timeIntervalSince1970: 1_588_789_729),
    originalPurchaseDate: Date(timeIntervalSince1970: 1_375_340_400), originalApplicationVersion: "1.0",
    expirationDate: Date(timeIntervalSince1970: 64_092_211_200),
    inApp: [
        InAppPurchaseReceipt(
            quantity: 2, productId: "com.example.app.coins", transactionId: "2000000000000001",
            originalTransactionId: "2000000000000000", purchaseDate: Date(timeIntervalSince1970: 1_585_051_295),
            originalPurchaseDate: Date(timeIntervalSince1970: 1_575_982_498), productType: 3,
            expiresDate: Date(timeIntervalSince1970: 1_604_221_200), webOrderLineItemId: -5,
            cancellationDate: Date(timeIntervalSince1970: 1_583_661_599), isTrialPeriod: true,
            isInIntroOfferPeriod: true,
            promotionalOfferId: "spring-offer",
            unknownAttributes: [ReceiptAttribute(type: 1722, value: [0x02, 0x01, 0x00])]),
        InAppPurchaseReceipt(productId: "é ünïcode", isTrialPeriod: false),
    ],
    unknownAttributes: [
        ReceiptAttribute(type: 99, version: 3, value: [1, 2, 3]), ReceiptAttribute(type: 8, value: []),
    ])

@Suite("Receipt content encoder and crafted receipt content")
struct ReceiptContentEncoderTests {
    /// Input: each real DER receipt's content, decoded, encoded by ``ReceiptContentEncoder`` and decoded again.
    /// Expected: an equal receipt (typed fields, raw bytes, unknown attributes and their versions).
    @Test("real receipts survive encoding and decoding", arguments: ReceiptVectors.derFiles)
    func realRoundTrips(file: String) throws {
        let receipt = try ReceiptVectors.decoded(file)
        #expect(try AppReceipt(content: Encoder.content(receipt)) == receipt)
    }

    /// Input: a receipt with every field set, encoded in its order and sorted. Expected: in its order, it decodes
    /// back equal; sorted, to the same fields with purchases and unknown attributes in DER order, which encodes to
    /// the same bytes again; the sorted set's elements are in DER order and every TLV has a minimal length.
    @Test("a receipt with every field survives, sorted or not")
    func fullRoundTrip() throws {
        let unsorted = Encoder.content(fullReceipt, sorted: false)
        #expect(try AppReceipt(content: unsorted) == fullReceipt)
        let sorted = Encoder.content(fullReceipt)
        #expect(unsorted != sorted)
        var decoded = try AppReceipt(content: sorted)
        #expect(Encoder.content(decoded) == sorted)
        #expect(Set(decoded.inApp) == Set(fullReceipt.inApp) && decoded.inApp != fullReceipt.inApp)
        #expect(Set(decoded.unknownAttributes) == Set(fullReceipt.unknownAttributes))
        (decoded.inApp, decoded.unknownAttributes) = (fullReceipt.inApp, fullReceipt.unknownAttributes)
        #expect(decoded == fullReceipt)
        var reader = DERReader(sorted)
        var set = try reader.readSet()
        var elements: [ArraySlice<UInt8>] = []
        while !set.isAtEnd {
            let element = try set.readElement()
            try set.validateTree(element)
            elements.append(set.slice(element.encoded))
        }
        #expect(elements.count == 11 + 2 + 2)
        #expect(zip(elements, elements.dropFirst()).allSatisfy { $0.lexicographicallyPrecedes($1) })
    }

    /// Input: the empty set, and a set with only unknown attributes. Expected: receipts with no field.
    @Test("an empty set is a receipt with no field")
    func emptySet() throws {
        #expect(try AppReceipt(content: [0x31, 0x00]) == AppReceipt())
        let unknown = [
            ReceiptAttribute(type: -1, version: 0, value: []), ReceiptAttribute(type: 1 << 40, value: [0xFF]),
        ]
        #expect(
            try AppReceipt(content: Encoder.content(attributes: unknown, sorted: false)).unknownAttributes == unknown)
    }

    /// Input: RFC 3339 texts in the forms receipts use. Expected: the instants (checked with Python's datetime).
    @Test(
        "receipt dates are read with their offsets",
        arguments: [
            ("2020-05-06T18:28:49Z", 1_588_789_729), ("2020-07-22T18:33:15+0100", 1_595_439_195),
            ("2020-07-22T18:33:15+01:00", 1_595_439_195), ("4001-01-01T00:00:00+0000", 64_092_211_200),
            ("2000-02-29T12:00:00-0800", 951_854_400), ("1970-01-01T00:00:00Z", 0),
            ("0000-01-01T00:00:00Z", -62_167_219_200), ("2020-03-08T10:00:00-00:00", 1_583_661_600),
        ] as [(String, Int64)])
    func goodDates(text: String, seconds: Int64) {
        #expect(ReceiptDate.seconds(rfc3339: Array(text.utf8)[...]) == seconds)
    }

    /// Input: near misses of RFC 3339 (case, fractions, missing or bad offsets, days and times out of range, extra
    /// bytes). Expected: each refused.
    @Test(
        "anything else is not a receipt date",
        arguments: [
            "2020-07-22T18:33:15z", "2020-07-22t18:33:15Z", "2020-07-22T18:33:15.000Z", "2020-07-22T18:33:15",
            "2020-07-22 18:33:15Z", "2021-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2020-02-30T00:00:00Z",
            "2020-04-31T00:00:00Z", "2020-00-10T00:00:00Z", "2020-13-10T00:00:00Z", "2020-07-00T00:00:00Z",
            "2020-07-22T24:00:00Z", "2020-07-22T23:60:00Z", "2020-07-22T23:59:60Z", "2020-07-22T18:33:15+2400",
            "2020-07-22T18:33:15+0160", "2020-07-22T18:33:15+01-00", "2020-07-22T18:33:15*0100",
            "+020-07-22T18:33:15Z", "2020-07-22T18:33:15Z ", "2020-07-22T18:33:1 Z", "yesterday", "",
        ])
    func badDates(text: String) {
        #expect(ReceiptDate.seconds(rfc3339: Array(text.utf8)[...]) == nil)
    }

    /// Input: content crafted wrong in one way each. Expected: the message names the attribute (and purchase), what
    /// is wrong and the byte (offsets counted by hand from the encoding: set header 2, sequence header 2, type and
    /// version 3 each, value header 2).
    @Test("crafted content gets messages that say what and where")
    func craftedFailures() {
        let bundle = ReceiptAttribute(type: 2, value: Encoder.utf8String("a"))
        let purchase = { (attributes: [ReceiptAttribute]) in
            Encoder.content(attributes: [Encoder.purchase(attributes)])
        }
        let transaction = ReceiptAttribute(type: 1703, value: Encoder.utf8String("1"))
        let cases: [(String, [UInt8])] = [
            (
                "receipt content: attribute 2 (bundle id) appears more than once (again at byte 15)",
                Encoder.content(attributes: [bundle, ReceiptAttribute(type: 2, value: Encoder.utf8String("b"))])
            ),
            (
                "receipt content: attribute 2 (bundle id): expected a UTF8String, found an INTEGER at byte 12",
                Encoder.content(attributes: [ReceiptAttribute(type: 2, value: Encoder.integer(7))])
            ),
            (
                "receipt content: attribute 12 (receipt creation date): not an RFC 3339 date: \"2020-13-01T00:00:00Z\""
                    + " at byte 14",
                Encoder.content(attributes: [
                    ReceiptAttribute(type: 12, value: Encoder.ia5String("2020-13-01T00:00:00Z"))
                ])
            ),
            (
                "receipt content: attribute 21 (receipt expiration date): not an RFC 3339 date: \"2020\\n\" at byte 14",
                Encoder.content(attributes: [ReceiptAttribute(type: 21, value: Encoder.ia5String("2020\n"))])
            ),
            (
                "receipt content: attribute 18 (original purchase date): an IA5String with the non-ASCII byte 0xC3 at"
                    + " byte 14",
                Encoder.content(attributes: [ReceiptAttribute(type: 18, value: Encoder.ia5String("é"))])
            ),
            (
                "receipt content: not a DER set of attributes: a length with a leading zero octet is not minimal (DER)"
                    + " at byte 1",
                Encoder.content(attributes: [bundle], lengths: .longForm)
            ),
            (
                "receipt content: attribute 5 (SHA-1 hash): a SHA-1 hash of 19 bytes, not 20 at byte 12",
                Encoder.content(attributes: [ReceiptAttribute(type: 5, value: Array(repeating: 0, count: 19))])
            ),
            (
                "receipt content: attribute 3 (app version): 2 bytes after the last element at byte 15",
                Encoder.content(attributes: [ReceiptAttribute(type: 3, value: Encoder.utf8String("x") + [0x05, 0x00])])
            ),
            (
                "receipt content: attribute 19 (original application version): expected a UTF8String, found the end of"
                    + " its container at byte 12",
                Encoder.content(attributes: [ReceiptAttribute(type: 19, value: [])])
            ),
            (
                "receipt content: attribute at byte 2: 2 bytes after the last element at byte 12",
                [0x31, 0x0C, 0x30, 0x0A, 0x02, 0x01, 0x02, 0x02, 0x01, 0x01, 0x04, 0x00, 0x05, 0x00]
            ),
            (
                "receipt content: not a DER set of attributes: 2 bytes after the last element at byte 2",
                [0x31, 0x00, 0x05, 0x00]
            ),
            (
                "receipt content: not a DER set of attributes: expected a SET, found the end of its container at"
                    + " byte 0",
                []
            ),
            (
                "receipt content: in-app purchase 1 (attribute 17 at byte 2): expected a SET, found a UTF8String at"
                    + " byte 12",
                Encoder.content(attributes: [ReceiptAttribute(type: 17, value: Encoder.utf8String("x"))])
            ),
            (
                "receipt content: in-app purchase 1 (attribute 17 at byte 2), attribute 1703 (transaction id) appears"
                    + " more than once (again at byte 28)",
                purchase([transaction, transaction])
            ),
            (
                "receipt content: in-app purchase 1 (attribute 17 at byte 2), attribute 1704 (purchase date): not an"
                    + " RFC 3339 date: \"yesterday\" at byte 27",
                purchase([ReceiptAttribute(type: 1704, value: Encoder.ia5String("yesterday"))])
            ),
            (
                "receipt content: in-app purchase 1 (attribute 17 at byte 2), attribute 1719 (introductory offer period"
                    + " flag): a flag of 2, not 0 or 1 at byte 25",
                purchase([ReceiptAttribute(type: 1719, value: Encoder.integer(2))])
            ),
            (
                "receipt content: in-app purchase 1 (attribute 17 at byte 2), attribute 1701 (quantity): an INTEGER of"
                    + " 9 octets, beyond 64 bits at byte 25",
                purchase([
                    ReceiptAttribute(type: 1701, value: [0x02, 0x09, 0x00, 0x80] + Array(repeating: 0, count: 7))
                ])
            ),
            (
                "receipt content: in-app purchase 1 (attribute 17 at byte 2): a length with a leading zero octet is not"
                    + " minimal (DER) at byte 13",
                Encoder.content(attributes: [Encoder.purchase([transaction], lengths: .longForm)])
            ),
        ]
        for (message, content) in cases {
            #expect(receiptContentError(content) == message)
        }
    }

    /// Input: content over 4 MiB; a purchase of 1,001 attributes; 100,001 attributes. Expected: refused at the
    /// limits, with the limit in the message.
    @Test("the limits hold")
    func limits() throws {
        let big = Encoder.content(attributes: [ReceiptAttribute(type: 99, value: Array(repeating: 0, count: 4 << 20))])
        #expect(big.count > ReceiptContent.maximumContentBytes)
        #expect(receiptContentError(big) == "receipt content: \(big.count) bytes, over the limit of 4194304")
        let many = Array(repeating: ReceiptAttribute(type: 1, value: []), count: 1001)
        let manyInPurchase = try #require(receiptContentError(Encoder.content(attributes: [Encoder.purchase(many)])))
        #expect(
            manyInPurchase == "receipt content: in-app purchase 1 (attribute 17 at byte 4): more than 1000 attributes")
        let thousand = Array(repeating: ReceiptAttribute(type: 1, value: []), count: 1000)
        #expect(try AppReceipt(content: Encoder.content(attributes: [Encoder.purchase(thousand)])).inApp.count == 1)
        let tooMany = Array(repeating: ReceiptAttribute(type: 99, value: []), count: 100_001)
        let message = try #require(receiptContentError(Encoder.content(attributes: tooMany, sorted: false)))
        #expect(
            message.hasPrefix("receipt content: attribute at byte ") && message.contains("more than 100000 elements"))
    }

    /// Input: an Xcode-style creation date with an offset, and empty dates. Expected: the instant in UTC; empty dates
    /// absent, as in real receipts.
    @Test("offset and empty dates decode")
    func offsetAndEmptyDates() throws {
        let content = Encoder.content(attributes: [
            ReceiptAttribute(type: 12, value: Encoder.ia5String("2020-07-22T18:33:15+0100")),
            ReceiptAttribute(type: 21, value: Encoder.ia5String("")),
            Encoder.purchase([ReceiptAttribute(type: 1708, value: Encoder.ia5String(""))]),
        ])
        let receipt = try AppReceipt(content: content)
        #expect(ReceiptVectors.text(receipt.receiptCreationDate) == "2020-07-22T17:33:15Z")
        #expect(receipt.expirationDate == nil && receipt.inApp == [InAppPurchaseReceipt()])
    }
}
