import Foundation
import Testing

@testable import JWSVerify

/// Every App Store model built in code with its memberwise initializer (every field set) is the value
/// `JSONDecoder` gives for the same payload, decoded on the type itself (not only nested inside a
/// notification or transaction), and encodes back to that payload.
@Suite("Model initializers and direct decoding")
struct ModelInitializerTests {
    static func ms(_ milliseconds: Double) -> Timestamp { Timestamp(millisecondsSince1970: milliseconds) }

    /// Input: Apple's `signedRenewalInfo.json` vector with a device verification pair added, and the
    /// renewal info built field by field. Expected: the same value, and the same JSON when encoded.
    @Test("a renewal info built in code is Apple's renewal info vector")
    func renewalInfo() throws {
        var object = try #require(try ModelJSON.object(ModelJSON.vector("signedRenewalInfo.json")) as? [String: Any])
        object["deviceVerification"] = "dv"
        object["deviceVerificationNonce"] = "0d8f8c8a-4e0e-4b57-9b3a-3a1f1d8e2c11"
        let json = String(decoding: try ModelJSON.data(object), as: UTF8.self)
        let advanced = AdvancedCommerceRenewalInfo(
            consistencyToken: "token-abc-123",
            descriptors: AdvancedCommerceDescriptors(description: "Premium Plan", displayName: "Premium"),
            items: [
                AdvancedCommerceRenewalItem(
                    sku: "com.example.sku.premium", description: "Premium feature", displayName: "Premium Feature",
                    price: 9990,
                    priceIncreaseInfo: AdvancedCommercePriceIncreaseInfo(
                        dependentSKUs: ["com.example.sku.1", "com.example.sku.2"], price: 12990, status: .pending))
            ], period: .p1M, requestReferenceId: "ref-12345", taxCode: "TAX_CODE_1")
        let commitment = RenewalCommitmentInfo(
            commitmentAutoRenewProductId: "com.example.product.commitment", commitmentAutoRenewStatus: .on,
            commitmentRenewalBillingPlanType: .monthly, commitmentRenewalDateTimestamp: Self.ms(1_698_149_500_000),
            commitmentRenewalPrice: 9990)
        let renewal = JWSRenewalInfoDecodedPayload(
            expirationIntent: ExpirationIntent(rawValue: 1), originalTransactionId: "12345",
            autoRenewProductId: "com.example.product.2", productId: "com.example.product", autoRenewStatus: .on,
            isInBillingRetryPeriod: true, priceIncreaseStatus: PriceIncreaseStatus(rawValue: 0),
            gracePeriodExpiresDateTimestamp: Self.ms(1_698_148_900_000), offerType: OfferType(rawValue: 2),
            offerIdentifier: "abc.123", signedDateTimestamp: Self.ms(1_698_148_800_000), environment: .localTesting,
            recentSubscriptionStartDateTimestamp: Self.ms(1_698_148_800_000),
            renewalDateTimestamp: Self.ms(1_698_148_850_000),
            currency: "USD", renewalPrice: 9990, offerDiscountType: OfferDiscountType(rawValue: "PAY_AS_YOU_GO"),
            eligibleWinBackOfferIds: ["eligible1", "eligible2"],
            appAccountToken: "7e3fb20b-4cdb-47cc-936d-99d65f608138", appTransactionId: "71134", offerPeriod: "P1Y",
            advancedCommerceInfo: advanced, commitmentInfo: commitment, renewalBillingPlanType: .monthly,
            deviceVerification: "dv", deviceVerificationNonce: "0d8f8c8a-4e0e-4b57-9b3a-3a1f1d8e2c11")
        try ModelCheck.expect(renewal, isJSON: json)
        try ModelCheck.expect(advanced, isJSON: try Self.member("advancedCommerceInfo", of: json))
        try ModelCheck.expect(commitment, isJSON: try Self.member("commitmentInfo", of: json))
    }

    /// Input: Apple's `appTransaction.json` with a `requestDate` added, and the app transaction built
    /// field by field. Expected: the same value, and the same JSON when encoded.
    @Test("an app transaction built in code is Apple's app transaction vector")
    func appTransaction() throws {
        var object = try #require(try ModelJSON.object(ModelJSON.vector("appTransaction.json")) as? [String: Any])
        object["requestDate"] = 1_698_149_000_000
        let json = String(decoding: try ModelJSON.data(object), as: UTF8.self)
        let transaction = AppTransaction(
            receiptType: .localTesting, appAppleId: 531412, bundleId: "com.example", applicationVersion: "1.2.3",
            versionExternalIdentifier: 512, receiptCreationDateTimestamp: Self.ms(1_698_148_900_000),
            originalPurchaseDateTimestamp: Self.ms(1_698_148_800_000), originalApplicationVersion: "1.1.2",
            deviceVerification: "device_verification_value",
            deviceVerificationNonce: "48ccfa42-7431-4f22-9908-7e88983e105a",
            preorderDateTimestamp: Self.ms(1_698_148_700_000),
            appTransactionId: "71134", originalPlatform: .iOS, requestDateTimestamp: Self.ms(1_698_149_000_000))
        try ModelCheck.expect(transaction, isJSON: json)
    }

    /// Input: Apple's `decodedRealtimeRequest.json`, and the request body built field by field.
    /// Expected: the same value, and the same JSON when encoded.
    @Test("a realtime request body built in code is Apple's realtime request vector")
    func realtimeRequest() throws {
        let json = String(decoding: try ModelJSON.vector("decodedRealtimeRequest.json"), as: UTF8.self)
        let body = DecodedRealtimeRequestBody(
            originalTransactionId: "99371282", appAppleId: 531412, productId: "com.example.product",
            userLocale: "en-US", requestIdentifier: "3db5c98d-8acf-4e29-831e-8e1f82f9f6e9", environment: .localTesting,
            signedDateTimestamp: Self.ms(1_698_148_900_000))
        try ModelCheck.expect(body, isJSON: json)
    }

    /// Input: a notification (Apple's `ResponseBodyV2DecodedPayload`) with data, summary, external
    /// purchase token and app data, each object also on its own. Expected: every object decodes to the
    /// value its initializer builds, and encodes back to the same JSON.
    @Test("a notification and each of its objects built in code decode from the same JSON")
    func notification() throws {
        let dataJSON = """
            {"environment":"Sandbox","appAppleId":41234,"bundleId":"com.example","bundleVersion":"1.2.3",
             "signedTransactionInfo":"signed_transaction_info_value","signedRenewalInfo":"signed_renewal_info_value",
             "status":1,"consumptionRequestReason":"UNINTENDED_PURCHASE"}
            """
        let data = NotificationData(
            environment: .sandbox, appAppleId: 41234, bundleId: "com.example", bundleVersion: "1.2.3",
            signedTransactionInfo: "signed_transaction_info_value", signedRenewalInfo: "signed_renewal_info_value",
            status: .active, consumptionRequestReason: .unintendedPurchase)
        try ModelCheck.expect(data, isJSON: dataJSON)

        let summaryJSON = """
            {"environment":"LocalTesting","appAppleId":41234,"bundleId":"com.example","productId":"com.example.product",
             "requestIdentifier":"efb27071-45a4-4aca-9854-2a1e9146f265","storefrontCountryCodes":["CAN","USA","MEX"],
             "succeededCount":5,"failedCount":2}
            """
        let summary = Summary(
            environment: .localTesting, appAppleId: 41234, bundleId: "com.example", productId: "com.example.product",
            requestIdentifier: "efb27071-45a4-4aca-9854-2a1e9146f265", storefrontCountryCodes: ["CAN", "USA", "MEX"],
            succeededCount: 5, failedCount: 2)
        try ModelCheck.expect(summary, isJSON: summaryJSON)

        let tokenJSON = """
            {"externalPurchaseId":"b2158121-7af9-49d4-9561-1f588205523e","tokenCreationDate":1698148950000,
             "appAppleId":55555,"bundleId":"com.example","tokenExpirationDate":1698149950000,"tokenType":"SERVICES"}
            """
        let token = ExternalPurchaseToken(
            externalPurchaseId: "b2158121-7af9-49d4-9561-1f588205523e",
            tokenCreationDateTimestamp: Self.ms(1_698_148_950_000),
            appAppleId: 55555, bundleId: "com.example", tokenExpirationDateTimestamp: Self.ms(1_698_149_950_000),
            tokenType: .services)
        try ModelCheck.expect(token, isJSON: tokenJSON)

        let appDataJSON =
            #"{"appAppleId":41234,"bundleId":"com.example","environment":"Sandbox","signedAppTransactionInfo":"x"}"#
        let appData = AppData(
            appAppleId: 41234, bundleId: "com.example", environment: .sandbox, signedAppTransactionInfo: "x")
        try ModelCheck.expect(appData, isJSON: appDataJSON)

        let json = """
            {"notificationType":"SUBSCRIBED","subtype":"INITIAL_BUY","notificationUUID":"002e14d5-51f5-4503-b5a8-c3a1af68eb20",
             "data":\(dataJSON),"version":"2.0","signedDate":1698148900000,"summary":\(summaryJSON),
             "externalPurchaseToken":\(tokenJSON),"appData":\(appDataJSON),"futureMember":[1]}
            """
        let notification = ResponseBodyV2DecodedPayload(
            notificationType: .subscribed, subtype: Subtype(rawValue: "INITIAL_BUY"),
            notificationUUID: "002e14d5-51f5-4503-b5a8-c3a1af68eb20", data: data, version: "2.0",
            signedDateTimestamp: Self.ms(1_698_148_900_000), summary: summary, externalPurchaseToken: token,
            appData: appData,
            additionalFields: ["futureMember": .array([.integer(1)])])
        try ModelCheck.expect(notification, isJSON: json)
    }

    /// Input: a transaction's `commitmentInfo` (Apple's `signedTransaction.json`) on its own.
    /// Expected: decodes to the value its initializer builds, and encodes back to the same JSON.
    @Test("a transaction commitment info built in code is the vector's commitment info")
    func transactionCommitment() throws {
        let json = try Self.member(
            "commitmentInfo", of: String(decoding: try ModelJSON.vector("signedTransaction.json"), as: UTF8.self))
        let commitment = TransactionCommitmentInfo(
            billingPeriodNumber: 3, commitmentExpiresDateTimestamp: Self.ms(1_698_150_000_000),
            commitmentPrice: 119_880,
            totalBillingPeriods: 12)
        try ModelCheck.expect(commitment, isJSON: json)
    }

    /// Input: a model built with one field changed from the vector's value. Expected: it is not equal
    /// to the decoded vector (the checks above compare every field).
    @Test("a value that differs in one field is not the decoded vector")
    func oneFieldDiffers() throws {
        let json = #"{"billingPeriodNumber":3,"commitmentPrice":119880}"#
        let decoded = try ModelJSON.decode(TransactionCommitmentInfo.self, from: json)
        #expect(decoded == TransactionCommitmentInfo(billingPeriodNumber: 3, commitmentPrice: 119_880))
        #expect(decoded != TransactionCommitmentInfo(billingPeriodNumber: 4, commitmentPrice: 119_880))
        #expect(decoded != TransactionCommitmentInfo(billingPeriodNumber: 3, commitmentPrice: 119_881))
    }

    /// The JSON text of one member of a JSON object.
    static func member(_ name: String, of json: String) throws -> String {
        let object = try #require(try ModelJSON.object(Data(json.utf8)) as? [String: Any])
        return String(decoding: try ModelJSON.data(try #require(object[name])), as: UTF8.self)
    }
}
