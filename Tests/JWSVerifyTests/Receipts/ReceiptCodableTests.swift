import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// `value` as JSON (sorted keys) and back as a JSON object.
private func jsonObject<Value: Encodable>(_ value: Value) throws -> [String: Any] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let data = try encoder.encode(value)
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
}

/// `value` through JSON.
private func roundTrip<Value: Codable>(_ value: Value) throws -> Value {
    try JSONDecoder().decode(Value.self, from: JSONEncoder().encode(value))
}

@Suite("Receipt Codable and the verifyReceipt JSON shape")
struct ReceiptCodableTests {
    /// Input: receipt 06 (created 2020-05-06T18:28:49Z, sandbox). Expected: the `receipt` object as `verifyReceipt`
    /// wrote it, member by member: strings for dates in GMT, milliseconds and Pacific time (daylight time in May,
    /// standard time in December, and the sandbox's original purchase date written exactly as in published
    /// `verifyReceipt` responses: `2013-08-01 07:00:00 Etc/GMT`, `1375340400000`,
    /// `2013-08-01 00:00:00 America/Los_Angeles`), `app_item_id` a number, flags `"false"`/`"true"`, absent fields
    /// without members; the `asn1_` extras in base64. Expected values computed with Python's `zoneinfo`.
    @Test("the golden receipt writes the verifyReceipt receipt object")
    func golden() throws {
        let receipt = try ReceiptVectors.decoded("06_sandbox_2020_sha1_187iap_tpinappreceipt.b64")
        let json = try jsonObject(receipt)
        #expect(json["receipt_type"] as? String == "ProductionSandbox")
        #expect(json["app_item_id"] as? Int == 0)
        #expect(json["bundle_id"] as? String == "com.nutcall.alert")
        #expect(json["application_version"] as? String == "32")
        #expect(json["original_application_version"] as? String == "1.0")
        #expect(json["receipt_creation_date"] as? String == "2020-05-06 18:28:49 Etc/GMT")
        #expect(json["receipt_creation_date_ms"] as? String == "1588789729000")
        #expect(json["receipt_creation_date_pst"] as? String == "2020-05-06 11:28:49 America/Los_Angeles")
        #expect(json["original_purchase_date"] as? String == "2013-08-01 07:00:00 Etc/GMT")
        #expect(json["original_purchase_date_ms"] as? String == "1375340400000")
        #expect(json["original_purchase_date_pst"] as? String == "2013-08-01 00:00:00 America/Los_Angeles")
        #expect(json["asn1_age_rating"] as? String == "4+")
        #expect(
            json["asn1_bundle_id_value"] as? String
                == Base64.encodeStandard([0x0C, 17] + Array("com.nutcall.alert".utf8)))
        #expect((json["asn1_sha1_hash"] as? String).flatMap { Base64.decodeStandard($0) } == receipt.sha1Hash)
        #expect((json["asn1_opaque_value"] as? String).flatMap { Base64.decodeStandard($0) }?.count == 16)
        #expect((json["asn1_unknown_attributes"] as? [[String: Any]])?.count == 11)
        #expect(
            json["expiration_date"] == nil && json["expiration_date_ms"] == nil && json["expiration_date_pst"] == nil)
        let inApp = try #require(json["in_app"] as? [[String: Any]])
        #expect(inApp.count == 187)
        let first = inApp[0]
        let expected: [String: String] = [
            "quantity": "1", "product_id": "com.nutcallalert.inapp.pro", "transaction_id": "1000000637840752",
            "original_transaction_id": "1000000603177571",
            "purchase_date": "2019-12-10 12:54:58 Etc/GMT", "purchase_date_ms": "1575982498000",
            "purchase_date_pst": "2019-12-10 04:54:58 America/Los_Angeles",
            "original_purchase_date": "2020-03-11 14:25:26 Etc/GMT", "original_purchase_date_ms": "1583936726000",
            "original_purchase_date_pst": "2020-03-11 07:25:26 America/Los_Angeles",
            "expires_date": "2019-12-10 12:59:58 Etc/GMT", "expires_date_ms": "1575982798000",
            "expires_date_pst": "2019-12-10 04:59:58 America/Los_Angeles",
            "web_order_line_item_id": "1000000048877195", "is_trial_period": "false",
            "is_in_intro_offer_period": "false", "asn1_product_type": "3",
        ]
        for (key, value) in expected { #expect(first[key] as? String == value, "in_app[0].\(key)") }
        #expect(Set(first.keys) == Set(expected.keys).union(["asn1_unknown_attributes"]))
        #expect(inApp[185]["purchase_date_pst"] as? String == "2020-03-24 05:01:35 America/Los_Angeles")
        #expect(inApp[186]["is_trial_period"] as? String == "true")
        let unknown = try #require((first["asn1_unknown_attributes"] as? [[String: Any]])?.first)
        #expect(
            unknown["type"] as? Int == 1709 && unknown["version"] as? Int == 1 && unknown["value"] as? String == "DAA=")
    }

    /// Input: instants on either side of the 2020 daylight-time changes in Los Angeles. Expected: the offsets
    /// switch at 10:00Z on 8 March and 09:00Z on 1 November (Python's `zoneinfo`).
    @Test(
        "Pacific times follow daylight saving time",
        arguments: [
            (1_583_661_599, "2020-03-08 01:59:59"), (1_583_661_600, "2020-03-08 03:00:00"),
            (1_604_221_199, "2020-11-01 01:59:59"), (1_604_221_200, "2020-11-01 01:00:00"),
            (64_092_211_200, "4000-12-31 16:00:00"),
        ] as [(Int64, String)])
    func pacificTime(seconds: Int64, local: String) throws {
        let texts = try #require(ReceiptDate.verifyReceiptTexts(Date(timeIntervalSince1970: Double(seconds))))
        #expect(texts.pacific == local + " America/Los_Angeles")
        #expect(texts.milliseconds == String(seconds * 1000))
    }

    /// Input: every real receipt, and a receipt with every field set. Expected: JSON encoding then decoding gives
    /// an equal value, raw bytes and unknown attributes included.
    @Test("receipts survive JSON", arguments: ReceiptVectors.derFiles)
    func realReceiptsSurviveJSON(file: String) throws {
        let receipt = try ReceiptVectors.decoded(file)
        #expect(try roundTrip(receipt) == receipt)
    }

    /// Input: the receipt with every field set (flags true, a cancellation, an expiry in 4001, unknown attributes).
    /// Expected: it survives JSON; `in_app` is written even when empty.
    @Test("a receipt with every field survives JSON")
    func fullReceiptSurvivesJSON() throws {
        #expect(try roundTrip(fullReceipt) == fullReceipt)
        let json = try jsonObject(fullReceipt)
        #expect(json["expiration_date"] as? String == "4001-01-01 00:00:00 Etc/GMT")
        let inApp = try #require(json["in_app"] as? [[String: Any]])
        #expect(inApp[0]["cancellation_date_ms"] as? String == "1583661599000")
        #expect(inApp[0]["is_in_intro_offer_period"] as? String == "true")
        #expect(inApp[0]["web_order_line_item_id"] as? String == "-5")
        #expect(inApp[0]["promotional_offer_id"] as? String == "spring-offer")
        #expect((try jsonObject(AppReceipt()))["in_app"] as? [Any] != nil)
        #expect(try jsonObject(AppReceipt()).count == 1)
    }

    /// Input: JSON with a value of the wrong form in one member each. Expected: a `DecodingError` naming it.
    @Test(
        "JSON values of the wrong form are refused",
        arguments: [
            #"{"in_app": [{"quantity": 1}]}"#, #"{"in_app": [{"quantity": "1.0"}]}"#,
            #"{"in_app": [{"quantity": "+1"}]}"#, #"{"in_app": [{"is_trial_period": "yes"}]}"#,
            #"{"in_app": [{"purchase_date_ms": "2020-01-01"}]}"#, #"{"app_item_id": "0"}"#,
            #"{"asn1_sha1_hash": "not base64"}"#, #"{"asn1_unknown_attributes": [{"type": 1, "version": 1}]}"#,
            #"{"receipt_creation_date_ms": "99999999999999999"}"#,
        ])
    func badJSON(json: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(AppReceipt.self, from: Data(json.utf8)) }
    }

    /// Input: JSON as `verifyReceipt` wrote it, with members this model does not read (`adam_id`, `request_date`).
    /// Expected: the fields it knows; a date read from `_ms` alone.
    @Test("verifyReceipt JSON decodes")
    func verifyReceiptJSON() throws {
        let json = #"""
            {"receipt_type": "ProductionSandbox", "adam_id": 0, "app_item_id": 0, "bundle_id": "com.example",
             "application_version": "9", "receipt_creation_date": "ignored",
             "receipt_creation_date_ms": "1508403744000",
             "request_date_ms": "1508403792208", "in_app": [{"quantity": "1", "product_id": "p", "transaction_id": "7",
             "purchase_date_ms": "1508403743000", "is_trial_period": "false"}]}
            """#
        let receipt = try JSONDecoder().decode(AppReceipt.self, from: Data(json.utf8))
        #expect(receipt.environment == .sandbox && receipt.bundleId == "com.example" && receipt.appItemId == 0)
        #expect(ReceiptVectors.text(receipt.receiptCreationDate) == "2017-10-19T09:02:24Z")
        #expect(
            receipt.inApp == [
                InAppPurchaseReceipt(
                    quantity: 1, productId: "p", transactionId: "7",
                    purchaseDate: Date(timeIntervalSince1970: 1_508_403_743),
                    isTrialPeriod: false)
            ])
    }

    /// Input: each receipt type. Expected: the environment it maps to; an unknown type kept as the raw value.
    @Test(
        "receipt types map to environments",
        arguments: [
            ("Production", AppStoreEnvironment.production), ("ProductionSandbox", .sandbox), ("Xcode", .xcode),
            ("ProductionVPP", .production), ("ProductionVPPSandbox", .sandbox),
            ("Staging", AppStoreEnvironment(rawValue: "Staging")),
        ])
    func environments(type: String, environment: AppStoreEnvironment) {
        #expect(AppReceipt(receiptType: type).environment == environment)
        #expect(AppReceipt().environment == nil)
    }
}
