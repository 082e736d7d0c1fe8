import Foundation
import JWSVerify
import Testing

@Suite("Unknown members, unknown values and malformed payloads")
struct ForwardCompatibilityTests {
    @Test("Unknown top-level and nested members are kept and encoded back")
    func unknownMembers() throws {
        var object = try #require(try ModelJSON.object(ModelJSON.vector("signedTransaction.json")) as? [String: Any])
        object["futureTopLevel"] = ["list": [1, 2.5, "x", NSNull(), true], "flag": false] as [String: Any]
        var info = try #require(object["advancedCommerceInfo"] as? [String: Any])
        info["futureInfoMember"] = 42
        var items = try #require(info["items"] as? [[String: Any]])
        items[0]["futureItemMember"] = "kept"
        info["items"] = items
        object["advancedCommerceInfo"] = info
        let json = try ModelJSON.data(object)

        let transaction = try ModelJSON.decode(JWSTransactionDecodedPayload.self, from: json)
        #expect(transaction.additionalFields.keys.sorted() == ["futureTopLevel"])
        let future = try #require(transaction.additionalFields["futureTopLevel"]?.objectValue)
        #expect(future["list"] == .array([.integer(1), .double(2.5), .string("x"), .null, .bool(true)]))
        #expect(future["flag"] == .bool(false))
        #expect(transaction.advancedCommerceInfo?.additionalFields == ["futureInfoMember": .integer(42)])
        #expect(transaction.advancedCommerceInfo?.items?[0].additionalFields == ["futureItemMember": .string("kept")])
        #expect(transaction.transactionId == "23456")

        let encoded = try ModelJSON.encode(transaction)
        #expect(try ModelJSON.sameJSON(json, encoded))
        let text = String(decoding: encoded, as: UTF8.self)
        #expect(text.contains("\"futureTopLevel\""))
        #expect(text.contains("\"futureItemMember\":\"kept\""))
    }

    @Test("The JSON comparison of these tests notices a changed, missing or extra member")
    func comparisonIsStrict() throws {
        let original = Data(#"{"a":1,"b":[true,"x",null],"c":{"d":1.5}}"#.utf8)
        #expect(try ModelJSON.sameJSON(original, Data(#"{"c":{"d":1.5},"b":[true,"x",null],"a":1}"#.utf8)))
        for different in [
            #"{"a":2,"b":[true,"x",null],"c":{"d":1.5}}"#, #"{"b":[true,"x",null],"c":{"d":1.5}}"#,
            #"{"a":1,"b":[true,"x",null],"c":{"d":1.5},"e":0}"#, #"{"a":1,"b":["x",true,null],"c":{"d":1.5}}"#,
            #"{"a":"1","b":[true,"x",null],"c":{"d":1.5}}"#, #"{"a":1,"b":[true,"x"],"c":{"d":1.5}}"#,
            #"{"a":1,"b":[true,"x",null],"c":{"d":1.25}}"#,
        ] {
            #expect(try !ModelJSON.sameJSON(original, Data(different.utf8)), "\(different)")
        }
    }

    @Test("Unknown members of every notification object are kept")
    func unknownNotificationMembers() throws {
        let json = """
            {"notificationType":"SUBSCRIBED","future":1,"data":{"status":1,"futureData":"a"},
            "summary":{"failedCount":0,"futureSummary":[]},"externalPurchaseToken":{"futureToken":{}},
            "appData":{"futureAppData":null}}
            """
        let notification = try ModelJSON.decode(ResponseBodyV2DecodedPayload.self, from: json)
        #expect(notification.additionalFields == ["future": .integer(1)])
        #expect(notification.data?.additionalFields == ["futureData": .string("a")])
        #expect(notification.summary?.additionalFields == ["futureSummary": .array([])])
        #expect(notification.externalPurchaseToken?.additionalFields == ["futureToken": .object([:])])
        #expect(notification.appData?.additionalFields == ["futureAppData": .null])
        #expect(try ModelJSON.sameJSON(Data(json.utf8), ModelJSON.encode(notification)))
    }

    @Test("A known member set to null is kept as null")
    func nullMember() throws {
        let json = #"{"transactionId":"1","expiresDate":null}"#
        let transaction = try ModelJSON.decode(JWSTransactionDecodedPayload.self, from: json)
        #expect(transaction.expiresDate == nil)
        #expect(transaction.additionalFields == ["expiresDate": .null])
        #expect(try ModelJSON.sameJSON(Data(json.utf8), ModelJSON.encode(transaction)))
    }

    @Test("A field set in code wins over an additional member of the same key")
    func fieldWinsOverAdditionalMember() throws {
        let transaction = JWSTransactionDecodedPayload(
            transactionId: "1", additionalFields: ["transactionId": .string("2"), "other": .integer(3)])
        #expect(try ModelJSON.encodedString(transaction) == #"{"other":3,"transactionId":"1"}"#)
    }

    @Test("Unknown enumeration values decode and encode back unchanged")
    func unknownValues() throws {
        let notificationJSON = """
            {"notificationType":"FUTURE_TYPE","subtype":"FUTURE_SUBTYPE",
            "data":{"environment":"Staging","status":42,"consumptionRequestReason":"FUTURE_REASON"}}
            """
        let notification = try ModelJSON.decode(ResponseBodyV2DecodedPayload.self, from: notificationJSON)
        #expect(notification.notificationType?.rawValue == "FUTURE_TYPE")
        #expect(notification.notificationType?.name == nil)
        #expect(notification.subtype?.rawValue == "FUTURE_SUBTYPE")
        #expect(notification.subtype?.name == nil)
        #expect(notification.data?.environment == AppStoreEnvironment(rawValue: "Staging"))
        #expect(notification.data?.environment?.name == nil)
        #expect(notification.data?.status?.rawValue == 42)
        #expect(notification.data?.status?.name == nil)
        #expect(notification.data?.consumptionRequestReason?.name == nil)
        #expect(try ModelJSON.sameJSON(Data(notificationJSON.utf8), ModelJSON.encode(notification)))

        let transactionJSON = """
            {"offerType":99,"type":"Future Product","revocationReason":7,"revocationType":"FUTURE",
            "advancedCommerceInfo":{"period":"P5Y","items":[{"refunds":[{"refundType":"PARTIAL"}]}]}}
            """
        let transaction = try ModelJSON.decode(JWSTransactionDecodedPayload.self, from: transactionJSON)
        #expect(transaction.offerType == OfferType(rawValue: 99))
        #expect(transaction.offerType?.name == nil)
        #expect(transaction.type?.name == nil)
        #expect(transaction.revocationReason?.rawValue == 7)
        #expect(transaction.advancedCommerceInfo?.period?.rawValue == "P5Y")
        #expect(transaction.advancedCommerceInfo?.items?[0].refunds?[0].refundType?.name == nil)
        #expect(transaction.additionalFields.isEmpty)
        #expect(try ModelJSON.sameJSON(Data(transactionJSON.utf8), ModelJSON.encode(transaction)))
    }

    @Test(
        "A field of the wrong JSON type throws a DecodingError",
        arguments: [
            #"{"quantity":"one"}"#, #"{"quantity":1.5}"#, #"{"quantity":4294967296}"#, #"{"signedDate":"yesterday"}"#,
            #"{"isUpgraded":"yes"}"#, #"{"price":"10990"}"#, #"{"appAccountToken":7}"#, #"{"advancedCommerceInfo":[]}"#,
            #"{"advancedCommerceInfo":{"items":{}}}"#, #"{"advancedCommerceInfo":{"items":[{"SKU":1}]}}"#,
            #"{"commitmentInfo":{"commitmentPrice":true}}"#, #"[]"#, #""transaction""#,
        ])
    func wrongType(json: String) {
        #expect(throws: DecodingError.self) {
            try ModelJSON.decode(JWSTransactionDecodedPayload.self, from: json)
        }
    }

    @Test(
        "Malformed notification payloads throw a DecodingError",
        arguments: [
            #"{"data":"x"}"#, #"{"summary":{"storefrontCountryCodes":"USA"}}"#, #"{"notificationUUID":1}"#,
            #"{"externalPurchaseToken":{"tokenCreationDate":"soon"}}"#, #"{"appData":{"appAppleId":"1"}}"#,
        ])
    func malformedNotification(json: String) {
        #expect(throws: DecodingError.self) {
            try ModelJSON.decode(ResponseBodyV2DecodedPayload.self, from: json)
        }
    }
}
