import Foundation
import Testing

@testable import JWSVerify

/// The app-level fields of one real receipt, as read independently of this project: `base64 -d`, then
/// `openssl cms -verify -noverify -inform DER -in X.der -out content.der`, then
/// `openssl asn1parse -inform DER -in content.der` (field numbers and values from the dump).
struct ExpectedReceipt: Sendable, CustomStringConvertible {
    let file: String
    let bundleId: String
    let applicationVersion: String
    let created: String
    let purchases: Int
    let attributes: Int
    let sha1Hash: String
    var description: String { file }
}

@Suite("Receipt content decoding of real receipts")
struct ReceiptContentTests {
    static let expected: [ExpectedReceipt] = [
        ExpectedReceipt(
            file: "04_sandbox_2025_sha256-G5_2iap_tpinappreceipt.b64", bundleId: "dev.bonzer.weeka.app",
            applicationVersion: "2", created: "2025-12-26T18:39:47Z", purchases: 2, attributes: 23,
            sha1Hash: "2158847543683847E9382A0FC51853CB17ABCD6D"),
        ExpectedReceipt(
            file: "06_sandbox_2020_sha1_187iap_tpinappreceipt.b64", bundleId: "com.nutcall.alert",
            applicationVersion: "32", created: "2020-05-06T18:28:49Z", purchases: 187, attributes: 208,
            sha1Hash: "E3AFC764D183E3D333CD7B99266C7213"),
        ExpectedReceipt(
            file: "08_sandbox_2015_sha1-oldleaf_7iap_mbaasy.b64", bundleId: "com.mbaasy.ios.demo",
            applicationVersion: "1", created: "2015-08-13T07:50:46Z", purchases: 7, attributes: 28,
            sha1Hash: "2E0A115BEAC1C57023A5BD37349955A9"),
        ExpectedReceipt(
            file: "13_sandbox_2018_sha1_1iap_revenuecat.b64", bundleId: "com.belive.app.ios",
            applicationVersion: "3", created: "2018-11-13T16:46:31Z", purchases: 1, attributes: 22,
            sha1Hash: "27384ED414759313951AB084A902E4C2"),
        ExpectedReceipt(
            file: "14_sandbox_ios_2017_noiap_mindnode.b64", bundleId: "com.mindnode.mindnodetouch",
            applicationVersion: "3394", created: "2017-09-11T09:38:34Z", purchases: 0, attributes: 21,
            sha1Hash: "77750F36F626505F043B27C1F40A7C54"),
    ]

    /// Input: each real DER receipt's content, taken out by ``ReceiptEnvelope``. Expected: the fields the
    /// openssl dump shows: bundle id (and its raw UTF8String), type, creation date, versions, the sandbox's
    /// original purchase date and app item id 0, age rating `4+`, a 16-byte opaque value, the SHA-1 hash (its
    /// first 16 bytes, or all 20), the number of purchases, and the eleven attributes the guide doesn't document
    /// kept with their types.
    @Test("every real receipt decodes to the fields openssl shows", arguments: expected)
    func realReceipts(expected: ExpectedReceipt) throws {
        let receipt = try ReceiptVectors.decoded(expected.file)
        #expect(receipt.bundleId == expected.bundleId)
        #expect(
            receipt.bundleIdRawValue == [0x0C, UInt8(expected.bundleId.utf8.count)] + Array(expected.bundleId.utf8))
        #expect(receipt.receiptType == "ProductionSandbox")
        #expect(receipt.environment == .sandbox)
        #expect(ReceiptVectors.text(receipt.receiptCreationDate) == expected.created)
        #expect(receipt.applicationVersion == expected.applicationVersion)
        #expect(receipt.originalApplicationVersion == "1.0")
        #expect(ReceiptVectors.text(receipt.originalPurchaseDate) == "2013-08-01T07:00:00Z")
        #expect(receipt.expirationDate == nil)
        #expect(receipt.appItemId == 0)
        #expect(receipt.ageRating == "4+")
        #expect(receipt.opaqueValue?.count == 16)
        #expect(receipt.sha1Hash?.count == 20)
        #expect(ReceiptVectors.hex(receipt.sha1Hash ?? []).hasPrefix(expected.sha1Hash))
        #expect(receipt.inApp.count == expected.purchases)
        #expect(receipt.unknownAttributes.map(\.type).sorted() == [6, 7, 8, 9, 11, 13, 14, 15, 16, 20, 25])
        let known = 10 + expected.purchases
        #expect(receipt.unknownAttributes.count + known == expected.attributes)
        // Attribute 8 is an empty IA5String in every one of them, kept as it came.
        #expect(receipt.unknownAttributes.first { $0.type == 8 }?.value == [0x16, 0x00])
    }

    /// Input: receipt 04 (2025, SHA-256, two renewals of an annual sandbox subscription). Expected: both purchases
    /// as the dump shows them, the empty cancellation date absent, the unknown 1709...1722 kept.
    @Test("the two purchases of the 2025 receipt")
    func receipt2025() throws {
        let receipt = try ReceiptVectors.decoded("04_sandbox_2025_sha256-G5_2iap_tpinappreceipt.b64")
        let first = receipt.inApp[0]
        #expect(first.quantity == 1)
        #expect(first.productId == "dev.bonzer.weeka.app.subscription.pro.annual")
        #expect(first.transactionId == "2000001092134138")
        #expect(first.originalTransactionId == "2000001092134138")
        #expect(ReceiptVectors.text(first.purchaseDate) == "2025-12-26T17:43:07Z")
        #expect(ReceiptVectors.text(first.originalPurchaseDate) == "2025-12-26T17:43:07Z")
        #expect(ReceiptVectors.text(first.expiresDate) == "2025-12-26T18:19:07Z")
        #expect(first.productType == 3)
        #expect(first.webOrderLineItemId == 2_000_000_123_357_229)
        #expect(first.cancellationDate == nil)
        #expect(first.isTrialPeriod == false && first.isInIntroOfferPeriod == false)
        #expect(first.promotionalOfferId == nil)
        #expect(first.unknownAttributes.map(\.type).sorted() == [1709, 1710, 1714, 1715, 1716, 1717, 1718, 1722])
        let second = receipt.inApp[1]
        #expect(second.transactionId == "2000001092148094" && second.originalTransactionId == "2000001092134138")
        #expect(ReceiptVectors.text(second.purchaseDate) == "2025-12-26T18:19:07Z")
        #expect(ReceiptVectors.text(second.expiresDate) == "2025-12-26T18:55:07Z")
        #expect(second.webOrderLineItemId == 2_000_000_123_357_230)
    }

    /// Input: receipt 06, 187 purchases of three sandbox subscriptions. Expected: the purchases the dump shows at
    /// positions 1, 2, 100, 186 and 187; 116, 39 and 32 purchases of the three products; 187 distinct transaction
    /// ids; one purchase in a trial period (the last), none in an introductory period.
    @Test("the 187 purchases of the 2020 receipt")
    func receipt187() throws {
        let receipt = try ReceiptVectors.decoded("06_sandbox_2020_sha1_187iap_tpinappreceipt.b64")
        let purchases = receipt.inApp
        #expect(purchases.count == 187)
        let rows: [(Int, String, String, String, String, Int64)] = [
            (
                0, "com.nutcallalert.inapp.pro", "1000000637840752", "2019-12-10T12:54:58Z", "2019-12-10T12:59:58Z",
                1_000_000_048_877_195
            ),
            (
                1, "com.nutcallalert.inapp.pro", "1000000637840731", "2019-12-10T12:59:58Z", "2019-12-10T13:04:58Z",
                1_000_000_048_877_332
            ),
            (
                99, "com.nutcallalert.inapp.optimum", "1000000637840669", "2019-12-25T02:18:29Z",
                "2019-12-25T02:23:29Z",
                1_000_000_049_210_193
            ),
            (
                185, "com.nutcallalert.inapp.optimum", "1000000642741397", "2020-03-24T12:01:35Z",
                "2020-03-24T12:06:35Z",
                1_000_000_051_140_159
            ),
            (
                186, "com.nutcallalert.inapp.optimum", "1000000637840616", "2020-03-10T17:02:47Z",
                "2020-03-10T17:06:47Z",
                1_000_000_049_892_290
            ),
        ]
        for (index, product, transaction, purchased, expires, webOrder) in rows {
            let purchase = purchases[index]
            #expect(purchase.productId == product, "purchase \(index + 1)")
            #expect(purchase.transactionId == transaction, "purchase \(index + 1)")
            #expect(purchase.originalTransactionId == "1000000603177571", "purchase \(index + 1)")
            #expect(ReceiptVectors.text(purchase.purchaseDate) == purchased, "purchase \(index + 1)")
            #expect(ReceiptVectors.text(purchase.expiresDate) == expires, "purchase \(index + 1)")
            #expect(purchase.webOrderLineItemId == webOrder, "purchase \(index + 1)")
        }
        #expect(ReceiptVectors.text(purchases[185].originalPurchaseDate) == "2020-03-24T12:01:37Z")
        let products = Dictionary(grouping: purchases, by: { $0.productId ?? "" }).mapValues(\.count)
        #expect(
            products == [
                "com.nutcallalert.inapp.optimum": 116, "com.nutcallalert.inapp.pro": 39,
                "com.nutcallalert.inapp.lite": 32,
            ])
        #expect(Set(purchases.compactMap(\.transactionId)).count == 187)
        #expect(purchases.filter { $0.isTrialPeriod == true }.count == 1 && purchases[186].isTrialPeriod == true)
        #expect(purchases.allSatisfy { $0.isInIntroOfferPeriod == false && $0.quantity == 1 && $0.productType == 3 })
        let dates = purchases.compactMap { ReceiptVectors.text($0.purchaseDate) }
        #expect(dates.min() == "2019-12-10T12:54:58Z" && dates.max() == "2020-05-06T18:26:31Z")
    }

    /// Input: receipt 08 (2015, one consumable and six renewals of a monthly sandbox subscription) and 13 (2018,
    /// one consumable). Expected: the consumables without expiry (an empty 1708), web order 0, product type 1, no
    /// 1719; the renewals as the dump shows them.
    @Test("consumables and renewals of the 2015 and 2018 receipts")
    func receipts2015And2018() throws {
        let receipt = try ReceiptVectors.decoded("08_sandbox_2015_sha1-oldleaf_7iap_mbaasy.b64")
        let consumable = receipt.inApp[0]
        #expect(consumable.productId == "consumable" && consumable.transactionId == "1000000166865231")
        #expect(ReceiptVectors.text(consumable.purchaseDate) == "2015-08-07T20:37:55Z")
        #expect(consumable.expiresDate == nil && consumable.cancellationDate == nil)
        #expect(consumable.webOrderLineItemId == 0 && consumable.productType == 1)
        #expect(consumable.isInIntroOfferPeriod == nil && consumable.isTrialPeriod == false)
        let transactions = receipt.inApp.dropFirst().compactMap(\.transactionId)
        #expect(
            transactions == [
                "1000000166965150", "1000000166965327", "1000000166965895", "1000000166967152", "1000000166967484",
                "1000000166967782",
            ])
        #expect(receipt.inApp.dropFirst().allSatisfy { $0.productId == "monthly" })
        #expect(receipt.inApp.dropFirst().allSatisfy { $0.originalTransactionId == "1000000166965150" })
        #expect(ReceiptVectors.text(receipt.inApp[6].expiresDate) == "2015-08-10T07:19:32Z")
        #expect(receipt.inApp[6].webOrderLineItemId == 1_000_000_030_274_249)

        let single = try ReceiptVectors.decoded("13_sandbox_2018_sha1_1iap_revenuecat.b64").inApp
        #expect(single.count == 1 && single[0].productId == "test2" && single[0].transactionId == "1000000472106082")
        #expect(ReceiptVectors.text(single[0].purchaseDate) == "2018-11-13T16:46:31Z")
    }
}
