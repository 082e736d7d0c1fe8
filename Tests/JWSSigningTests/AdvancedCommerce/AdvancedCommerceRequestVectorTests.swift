import Foundation
import JWSSigning
import JWSVerify
import Testing

/// One of Apple's Advanced Commerce test files and the type that models it.
struct AdvancedCommerceVector: Sendable, CustomTestStringConvertible {
    /// The file under `TestVectors/apple-library/api/`.
    let file: String
    /// The `operation` a request writes besides the file's members; nil for the parts of a request.
    let operation: String?
    /// Decodes the file's JSON and encodes the value again, with the library's encoding.
    let reencode: @Sendable (Data) throws -> Data

    init<Model: Codable & Sendable>(_ file: String, _ type: Model.Type, operation: String? = nil) {
        self.file = file
        self.operation = operation
        self.reencode = { data in
            let value = try JSONDecoder().decode(type, from: data)
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            let encoded = try encoder.encode(value)
            // A second round trip gives the same value: nothing is lost or added on the way.
            let again = try JSONDecoder().decode(type, from: encoded)
            #expect(try encoder.encode(again) == encoded, "\(file): not stable through a second round trip")
            return encoded
        }
    }

    var testDescription: String { file }

    static let all: [AdvancedCommerceVector] = [
        .init(
            "advancedCommerceOneTimeChargeCreateRequest.json", AdvancedCommerceOneTimeChargeCreateRequest.self,
            operation: "CREATE_ONE_TIME_CHARGE"),
        .init(
            "advancedCommerceSubscriptionCreateRequest.json", AdvancedCommerceSubscriptionCreateRequest.self,
            operation: "CREATE_SUBSCRIPTION"),
        .init(
            "advancedCommerceSubscriptionModifyInAppRequest.json", AdvancedCommerceSubscriptionModifyInAppRequest.self,
            operation: "MODIFY_SUBSCRIPTION"),
        .init(
            "advancedCommerceSubscriptionReactivateInAppRequest.json",
            AdvancedCommerceSubscriptionReactivateInAppRequest.self, operation: "REACTIVATE_SUBSCRIPTION"),
        .init("advancedCommerceRequestInfo.json", AdvancedCommerceRequestInfo.self),
        .init("advancedCommerceDescriptors.json", AdvancedCommerceDescriptors.self),
        .init("advancedCommerceOffer.json", AdvancedCommerceOffer.self),
        .init("advancedCommerceOneTimeChargeItem.json", AdvancedCommerceOneTimeChargeItem.self),
        .init("advancedCommerceSubscriptionCreateItem.json", AdvancedCommerceSubscriptionCreateItem.self),
        .init("advancedCommerceSubscriptionModifyAddItem.json", AdvancedCommerceSubscriptionModifyAddItem.self),
        .init("advancedCommerceSubscriptionModifyChangeItem.json", AdvancedCommerceSubscriptionModifyChangeItem.self),
        .init(
            "advancedCommerceSubscriptionModifyDescriptors.json", AdvancedCommerceSubscriptionModifyDescriptors.self),
        .init(
            "advancedCommerceSubscriptionModifyPeriodChange.json", AdvancedCommerceSubscriptionModifyPeriodChange.self),
        .init("advancedCommerceSubscriptionModifyRemoveItem.json", AdvancedCommerceSubscriptionModifyRemoveItem.self),
        .init("advancedCommerceSubscriptionReactivateItem.json", AdvancedCommerceSubscriptionReactivateItem.self),
    ]
}

@Suite("Advanced Commerce in-app requests against Apple's test data")
struct AdvancedCommerceRequestVectorTests {
    /// Input: each of Apple's Advanced Commerce request files, decoded and encoded again. Expected: the same JSON
    /// value as the file, plus `operation` and `version: "1"` for a request (Apple's files leave those two out;
    /// every one of Apple's libraries writes them).
    @Test("each request and part encodes to Apple's JSON", arguments: AdvancedCommerceVector.all)
    func encodesToApplesJSON(_ vector: AdvancedCommerceVector) throws {
        let file = try SigningTestVectors.appleAPI(vector.file)
        var expected = try SigningTestVectors.object(file)
        if let operation = vector.operation {
            expected["operation"] = .string(operation)
            expected["version"] = .string("1")
        }
        let encoded = try vector.reencode(file)
        #expect(try SigningTestVectors.object(encoded) == expected, "\(vector.file)")
    }

    /// Input: the one-time charge request built in Swift with the values of Apple's file. Expected: `jsonData()`
    /// writes compact JSON with sorted keys and a lower-case UUID, equal to the file plus `operation` and `version`.
    @Test("a request built in Swift writes Apple's JSON, keys sorted, UUIDs in lower case")
    func builtRequestWritesApplesJSON() throws {
        let request = AdvancedCommerceOneTimeChargeCreateRequest(
            currency: "USD",
            item: try AdvancedCommerceOneTimeChargeItem(
                description: "description", displayName: "display name", sku: "sku", price: 10000),
            requestInfo: AdvancedCommerceRequestInfo(
                requestReferenceId: try AdvancedCommerceTestValues.uuid("550E8400-E29B-41D4-A716-446655440000")),
            taxCode: "taxCode", storefront: "USA")
        let text = String(decoding: try request.jsonData(), as: UTF8.self)
        #expect(
            text == #"{"currency":"USD","item":{"SKU":"sku","description":"description","displayName":"display name","#
                + #""price":10000},"operation":"CREATE_ONE_TIME_CHARGE","requestInfo":{"requestReferenceId":"#
                + #""550e8400-e29b-41d4-a716-446655440000"},"storefront":"USA","taxCode":"taxCode","version":"1"}"#)
    }

    /// Input: a request file whose `operation` names another request kind. Expected: decoding throws
    /// `DecodingError.dataCorrupted` at `operation`; the request of the file's own kind decodes.
    @Test("a request of another kind does not decode")
    func otherOperationIsRefused() throws {
        var members = try SigningTestVectors.object(
            try SigningTestVectors.appleAPI("advancedCommerceSubscriptionReactivateInAppRequest.json"))
        members["operation"] = .string("REACTIVATE_SUBSCRIPTION")
        members["version"] = .string("1")
        let good = try JSONEncoder().encode(JSONValue.object(members))
        _ = try JSONDecoder().decode(AdvancedCommerceSubscriptionReactivateInAppRequest.self, from: good)
        for (key, value) in [("operation", "MODIFY_SUBSCRIPTION"), ("version", "2")] {
            var wrong = members
            wrong[key] = .string(value)
            let data = try JSONEncoder().encode(JSONValue.object(wrong))
            #expect {
                _ = try JSONDecoder().decode(AdvancedCommerceSubscriptionReactivateInAppRequest.self, from: data)
            } throws: { error in
                guard case DecodingError.dataCorrupted(let context) = error else { return false }
                return context.codingPath.last?.stringValue == key
            }
        }
    }

    /// Input: a modification that uses every member: items to add (with an offer), change and remove, new
    /// descriptors and period, an app account token and a consistency token. Expected: it decodes from its own
    /// JSON to an equal value, and the JSON names every member with Apple's keys (`SKU`, `currentSKU`).
    @Test("a modification with every member round-trips")
    func fullModificationRoundTrips() throws {
        let request = try AdvancedCommerceTestValues.fullModification()
        let data = try request.jsonData()
        #expect(try JSONDecoder().decode(AdvancedCommerceSubscriptionModifyInAppRequest.self, from: data) == request)
        let members = try SigningTestVectors.object(data)
        #expect(
            members.keys.sorted() == [
                "addItems", "changeItems", "currency", "descriptors", "operation", "periodChange", "removeItems",
                "requestInfo", "retainBillingCycle", "storefront", "taxCode", "transactionId", "version",
            ])
        guard case .array(let changes)? = members["changeItems"], case .object(let change)? = changes.first else {
            Issue.record("changeItems is not an array of objects")
            return
        }
        #expect(change["currentSKU"] == .string("sku.old") && change["SKU"] == .string("sku.new"))
        #expect(change["effective"] == .string("NEXT_BILL_CYCLE") && change["reason"] == .string("UPGRADE"))
    }

    /// Input: an item whose offer reason is a value this version doesn't know (`LOYALTY`). Expected: it encodes
    /// and decodes unchanged, like every App Store enumeration of the library.
    @Test("an enumeration value Apple adds later is kept")
    func unknownEnumerationValueIsKept() throws {
        let offer = AdvancedCommerceOffer(
            period: .p1M, periodCount: 2, price: 500, reason: AdvancedCommerceOfferReason(rawValue: "LOYALTY"))
        let item = try AdvancedCommerceSubscriptionCreateItem(
            sku: "sku", description: "d", displayName: "n", price: 1000, offer: offer)
        let decoded = try JSONDecoder().decode(
            AdvancedCommerceSubscriptionCreateItem.self, from: try JSONEncoder().encode(item))
        #expect(decoded == item && decoded.offer?.reason?.rawValue == "LOYALTY" && decoded.offer?.reason?.name == nil)
    }
}

/// Values shared by the Advanced Commerce tests.
enum AdvancedCommerceTestValues {
    /// A UUID from its text.
    static func uuid(_ text: String) throws -> UUID {
        try #require(UUID(uuidString: text))
    }

    /// An in-app modification that uses every member Apple defines.
    static func fullModification() throws -> AdvancedCommerceSubscriptionModifyInAppRequest {
        let offer = AdvancedCommerceOffer(period: .p1W, periodCount: 3, price: 5000, reason: .winBack)
        return try AdvancedCommerceSubscriptionModifyInAppRequest(
            requestInfo: AdvancedCommerceRequestInfo(
                requestReferenceId: try uuid("550e8400-e29b-41d4-a716-446655440007"),
                appAccountToken: try uuid("660E8400-E29B-41D4-A716-446655440011"),
                consistencyToken: "consistency_token_value"),
            transactionId: "transactionId", retainBillingCycle: false,
            addItems: [
                try AdvancedCommerceSubscriptionModifyAddItem(
                    sku: "sku.add", description: "description", displayName: "display name", price: 12000,
                    offer: offer, proratedPrice: 6000)
            ],
            changeItems: [
                try AdvancedCommerceSubscriptionModifyChangeItem(
                    currentSku: "sku.old", description: "description", displayName: "display name",
                    effective: .nextBillCycle, price: 13000, reason: .upgrade, sku: "sku.new", offer: offer,
                    proratedPrice: 7000)
            ],
            currency: "USD",
            descriptors: try AdvancedCommerceSubscriptionModifyDescriptors(
                effective: .immediately, description: "description", displayName: "display name"),
            periodChange: AdvancedCommerceSubscriptionModifyPeriodChange(effective: .nextBillCycle, period: .p3M),
            removeItems: [try AdvancedCommerceSubscriptionModifyRemoveItem(sku: "sku.remove")],
            storefront: "USA", taxCode: "taxCode")
    }
}
