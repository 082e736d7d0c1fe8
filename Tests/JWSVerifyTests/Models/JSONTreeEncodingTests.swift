import Foundation
import Testing

@testable import JWSVerify

/// `jsonValue` (the tree the CLI renders) holds what `encode(to:)` writes, for every model.
@Suite("Models as JSON trees")
struct JSONTreeEncodingTests {
    /// The values `JSONEncoder` writes for `model`, read back as a tree.
    private func codableTree<Model: Encodable>(_ model: Model) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(model))
    }

    private func check<Model: Codable & JSONObjectEncodable>(_ type: Model.Type, _ json: Data) throws {
        let model = try JSONDecoder().decode(type, from: json)
        #expect(model.jsonValue == (try codableTree(model)), "\(type)")
        // And the tree of a decoded payload is the payload's own tree (nothing dropped or renamed).
        #expect(model.jsonValue == (try JSONDecoder().decode(JSONValue.self, from: json)), "\(type)")
    }

    @Test(
        "Apple's payload vectors give the tree that JSONEncoder writes and the payload holds",
        arguments: [
            "signedTransaction.json", "signedTransactionWithRevocation.json", "signedRenewalInfo.json",
            "appTransaction.json", "decodedRealtimeRequest.json", "signedNotification.json",
            "signedConsumptionRequestNotification.json", "signedExternalPurchaseTokenNotification.json",
            "signedExternalPurchaseTokenSandboxNotification.json", "signedRescindConsentNotification.json",
            "signedSummaryNotification.json", "appData.json",
        ])
    func appleVectors(file: String) throws {
        let json = try ModelJSON.vector(file)
        switch file {
        case "signedTransaction.json", "signedTransactionWithRevocation.json":
            try check(JWSTransactionDecodedPayload.self, json)
        case "signedRenewalInfo.json": try check(JWSRenewalInfoDecodedPayload.self, json)
        case "appTransaction.json": try check(AppTransaction.self, json)
        case "decodedRealtimeRequest.json": try check(DecodedRealtimeRequestBody.self, json)
        case "appData.json": try check(AppData.self, json)
        default: try check(ResponseBodyV2DecodedPayload.self, json)
        }
    }

    @Test("Unknown members, nulls, unknown enumeration values, fractional and huge numbers are kept")
    func edges() throws {
        let json = Data(
            #"""
            {"environment":"Staging","offerType":9,"price":10990,"signedDate":1767225600000.5,
             "expiresDate":null,"quantity":1,"futureMember":{"a":[1,2.5,"x",null,true]},"big":1e300,
             "advancedCommerceInfo":{"items":[{"SKU":"s","extra":-0.0}],"period":"P1M"}}
            """#.utf8)
        try check(JWSTransactionDecodedPayload.self, json)
        let model = try JSONDecoder().decode(JWSTransactionDecodedPayload.self, from: json)
        guard case .object(let tree) = model.jsonValue else {
            Issue.record("not an object")
            return
        }
        #expect(tree["signedDate"] == .double(1_767_225_600_000.5))
        #expect(tree["price"] == .integer(10990))
        #expect(tree["expiresDate"] == .null)
        #expect(tree["environment"] == .string("Staging"))
        #expect(tree["offerType"] == .integer(9))
    }

    @Test("A field set in code wins over an additional member of the same key")
    func fieldWins() {
        let model = JWSTransactionDecodedPayload(bundleId: "a", additionalFields: ["bundleId": .string("b")])
        #expect(model.jsonObject["bundleId"] == .string("a"))
    }
}
