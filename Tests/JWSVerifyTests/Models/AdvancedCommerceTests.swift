import Foundation
import Testing

@testable import JWSVerify

/// The Advanced Commerce models (Apple's Advanced Commerce API: `advancedCommerceInfo` of transactions and
/// renewal infos), each decoded on its own with `JSONDecoder`, built with its memberwise initializer,
/// encoded, and rendered as a tree.
@Suite("Advanced Commerce models")
struct AdvancedCommerceTests {
    /// Apple's documented `Offer` object (period, periodCount, price in milliunits, reason), with an
    /// unknown member.
    static let offerJSON = #"{"period":"P1M","periodCount":3,"price":4990,"reason":"WIN_BACK","futureOffer":true}"#

    static let offer = AdvancedCommerceOffer(
        period: .p1M, periodCount: 3, price: 4990, reason: .winBack, additionalFields: ["futureOffer": .bool(true)])

    /// Input: Apple's `Offer` JSON. Expected: `JSONDecoder` on the type gives exactly the value the
    /// memberwise initializer builds (every field, the unknown member kept), and encoding and the tree
    /// give the JSON back.
    @Test("an offer decodes to the value its initializer builds and encodes back")
    func offerRoundTrip() throws {
        try ModelCheck.expect(Self.offer, isJSON: Self.offerJSON)
        let decoded = try ModelJSON.decode(AdvancedCommerceOffer.self, from: Self.offerJSON)
        #expect(decoded.period?.name == "p1M")
        #expect(decoded.reason?.name == "winBack")
        #expect(decoded.periodCount == 3 && decoded.price == 4990)
    }

    /// Input: an offer whose period and reason are values Apple may add later (`P5D`, `LOYALTY`).
    /// Expected: decoded with no constant name, their raw values kept, and written back unchanged.
    @Test("an offer with unknown period and reason values keeps them")
    func offerUnknownValues() throws {
        let json = #"{"period":"P5D","periodCount":1,"price":0,"reason":"LOYALTY"}"#
        let offer = AdvancedCommerceOffer(
            period: AdvancedCommerceOfferPeriod(rawValue: "P5D"), periodCount: 1, price: 0,
            reason: AdvancedCommerceOfferReason(rawValue: "LOYALTY"))
        try ModelCheck.expect(offer, isJSON: json)
        #expect(offer.period?.name == nil && offer.period?.description == "P5D")
        #expect(offer.reason?.name == nil && offer.reason?.description == "LOYALTY")
    }

    /// Input: an offer whose `periodCount` is a string and one whose `price` is fractional.
    /// Expected: both fail to decode with a `DecodingError` (no silent zero or truncation).
    @Test("an offer with a mistyped member does not decode")
    func offerWrongTypes() {
        for json in [#"{"periodCount":"3"}"#, #"{"price":49.5}"#, #"{"period":1}"#] {
            #expect(throws: DecodingError.self, "\(json)") {
                try ModelJSON.decode(AdvancedCommerceOffer.self, from: json)
            }
        }
    }

    /// Input: a transaction whose Advanced Commerce item carries an offer, parsed by the verifier's own
    /// JSON reader (the path a verified payload takes). Expected: the item's offer has every field.
    @Test("a transaction item's offer is read on the verifier's path")
    func offerInTransactionItem() throws {
        let json =
            #"{"transactionId":"1","advancedCommerceInfo":{"items":[{"SKU":"sku.1","offer":\#(Self.offerJSON)}]}}"#
        let transaction = try JWSTransactionDecodedPayload(
            json: JSONObjectReader(object: JSONParser.parseObject(Array(json.utf8))))
        #expect(transaction.advancedCommerceInfo?.items?.first?.offer == Self.offer)
        #expect(try ModelJSON.sameJSON(Data(json.utf8), ModelJSON.encode(transaction)))
    }

    /// Input: every Advanced Commerce object of a transaction (descriptors, refund, item with offer
    /// and refund, transaction info), each as JSON of the shape Apple documents. Expected: each decodes
    /// on its own to the value built with its initializer, and encodes back to the same JSON.
    @Test("the transaction-side objects decode to their initializers' values")
    func transactionObjects() throws {
        let descriptors = AdvancedCommerceDescriptors(description: "Premium Plan", displayName: "Premium")
        try ModelCheck.expect(descriptors, isJSON: #"{"description":"Premium Plan","displayName":"Premium"}"#)

        let refundJSON =
            #"{"refundAmount":5000,"refundDate":1698149100000,"refundReason":"FULFILLMENT_ISSUE","refundType":"PRORATED"}"#
        let refund = AdvancedCommerceRefund(
            refundAmount: 5000, refundDateTimestamp: Timestamp(millisecondsSince1970: 1_698_149_100_000),
            refundReason: .fulfillmentIssue, refundType: .prorated)
        try ModelCheck.expect(refund, isJSON: refundJSON)

        let itemJSON = """
            {"SKU":"com.example.sku.premium","description":"Premium feature","displayName":"Premium Feature",
             "offer":\(Self.offerJSON),"price":9990,"refunds":[\(refundJSON)],"revocationDate":1698149200000,"x":1}
            """
        let item = AdvancedCommerceTransactionItem(
            sku: "com.example.sku.premium", description: "Premium feature", displayName: "Premium Feature",
            offer: Self.offer, price: 9990, refunds: [refund],
            revocationDateTimestamp: Timestamp(millisecondsSince1970: 1_698_149_200_000),
            additionalFields: ["x": .integer(1)])
        try ModelCheck.expect(item, isJSON: itemJSON)

        let infoJSON = """
            {"descriptors":{"description":"Premium Plan","displayName":"Premium"},"estimatedTax":1500,
             "items":[\(itemJSON)],"period":"P1M","requestReferenceId":"ref-12345","taxCode":"TAX_CODE_1",
             "taxExclusivePrice":8490,"taxRate":"0.15"}
            """
        let info = AdvancedCommerceTransactionInfo(
            descriptors: descriptors, estimatedTax: 1500, items: [item], period: .p1M, requestReferenceId: "ref-12345",
            taxCode: "TAX_CODE_1", taxExclusivePrice: 8490, taxRate: "0.15")
        try ModelCheck.expect(info, isJSON: infoJSON)
    }

    /// Input: every Advanced Commerce object of a renewal info (price increase info, renewal item with
    /// offer, renewal info), as JSON of the shape Apple documents. Expected: each decodes on its own to
    /// the value built with its initializer, and encodes back to the same JSON.
    @Test("the renewal-side objects decode to their initializers' values")
    func renewalObjects() throws {
        let increaseJSON =
            #"{"dependentSKUs":["com.example.sku.1","com.example.sku.2"],"price":12990,"status":"PENDING"}"#
        let increase = AdvancedCommercePriceIncreaseInfo(
            dependentSKUs: ["com.example.sku.1", "com.example.sku.2"], price: 12990, status: .pending)
        try ModelCheck.expect(increase, isJSON: increaseJSON)

        let itemJSON = """
            {"SKU":"com.example.sku.premium","description":"Premium feature","displayName":"Premium Feature",
             "offer":\(Self.offerJSON),"price":9990,"priceIncreaseInfo":\(increaseJSON)}
            """
        let item = AdvancedCommerceRenewalItem(
            sku: "com.example.sku.premium", description: "Premium feature", displayName: "Premium Feature",
            offer: Self.offer, price: 9990, priceIncreaseInfo: increase)
        try ModelCheck.expect(item, isJSON: itemJSON)

        let infoJSON = """
            {"consistencyToken":"token-abc-123","descriptors":{"description":"Premium Plan","displayName":"Premium"},
             "items":[\(itemJSON)],"period":"P1Y","requestReferenceId":"ref-12345","taxCode":"TAX_CODE_1"}
            """
        let info = AdvancedCommerceRenewalInfo(
            consistencyToken: "token-abc-123",
            descriptors: AdvancedCommerceDescriptors(description: "Premium Plan", displayName: "Premium"),
            items: [item], period: .p1Y, requestReferenceId: "ref-12345", taxCode: "TAX_CODE_1")
        try ModelCheck.expect(info, isJSON: infoJSON)
    }

    /// Input: each documented Advanced Commerce enumeration value. Expected: its constant has that raw
    /// value and the documented name, and its tree is the raw string.
    @Test("the Advanced Commerce enumerations name their documented values")
    func enumerations() {
        let periods: [(AdvancedCommerceOfferPeriod, String, String)] = [
            (.p3D, "P3D", "p3D"), (.p1W, "P1W", "p1W"), (.p2W, "P2W", "p2W"), (.p1M, "P1M", "p1M"),
            (.p2M, "P2M", "p2M"), (.p3M, "P3M", "p3M"), (.p6M, "P6M", "p6M"), (.p9M, "P9M", "p9M"),
            (.p1Y, "P1Y", "p1Y"),
        ]
        for (value, raw, name) in periods {
            #expect(value.rawValue == raw && value.name == name && value.jsonValue == .string(raw))
        }
        let reasons: [(AdvancedCommerceOfferReason, String, String)] = [
            (.acquisition, "ACQUISITION", "acquisition"), (.winBack, "WIN_BACK", "winBack"),
            (.retention, "RETENTION", "retention"),
        ]
        for (value, raw, name) in reasons {
            #expect(value.rawValue == raw && value.name == name && value.jsonValue == .string(raw))
        }
        let types: [(TokenType, String, String)] = [
            (.acquisition, "ACQUISITION", "acquisition"), (.services, "SERVICES", "services"),
        ]
        for (value, raw, name) in types {
            #expect(value.rawValue == raw && value.name == name && value.jsonValue == .string(raw))
        }
    }
}

/// The checks every model test of this folder makes on a value built in code and its JSON.
enum ModelCheck {
    /// `JSONDecoder` on `Model` itself (its `init(from:)`) gives `built`; `JSONEncoder` writes `json`
    /// back (member order ignored); the tree (`jsonValue`) is the JSON's own tree.
    static func expect<Model: Codable & Hashable & JSONObjectEncodable>(
        _ built: Model, isJSON json: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let data = Data(json.utf8)
        let decoded = try JSONDecoder().decode(Model.self, from: data)
        #expect(decoded == built, "\(Model.self): decoded differs from built", sourceLocation: sourceLocation)
        #expect(
            try ModelJSON.sameJSON(data, ModelJSON.encode(built)), "\(Model.self): encoded differs",
            sourceLocation: sourceLocation)
        #expect(
            built.jsonValue == (try JSONDecoder().decode(JSONValue.self, from: data)), "\(Model.self): tree differs",
            sourceLocation: sourceLocation)
    }
}
