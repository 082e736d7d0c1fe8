import Foundation
import JWSVerify
import Testing

@Suite("Transaction, renewal information and app transaction payloads")
struct TransactionPayloadTests {
    @Test("Decodes every field of Apple's signed transaction and encodes it back unchanged")
    func transaction() throws {
        let (transaction, unchanged) = try ModelJSON.roundTrip(
            JWSTransactionDecodedPayload.self, vector: "signedTransaction.json")
        #expect(unchanged)
        #expect(transaction.originalTransactionId == "12345")
        #expect(transaction.transactionId == "23456")
        #expect(transaction.webOrderLineItemId == "34343")
        #expect(transaction.bundleId == "com.example")
        #expect(transaction.productId == "com.example.product")
        #expect(transaction.subscriptionGroupIdentifier == "55555")
        #expect(transaction.purchaseDate == Date(timeIntervalSince1970: 1_698_148_900))
        #expect(transaction.originalPurchaseDateTimestamp == Timestamp(millisecondsSince1970: 1_698_148_800_000))
        #expect(transaction.expiresDateTimestamp?.millisecondsSince1970 == 1_698_149_000_000)
        #expect(transaction.quantity == 1)
        #expect(transaction.type == .autoRenewableSubscription)
        #expect(transaction.type?.name == "autoRenewableSubscription")
        #expect(transaction.appAccountToken == "7e3fb20b-4cdb-47cc-936d-99d65f608138")
        #expect(transaction.inAppOwnershipType == .purchased)
        #expect(transaction.signedDate == Date(timeIntervalSince1970: 1_698_148_900))
        #expect(transaction.revocationReason == .refundedDueToIssue)
        #expect(transaction.revocationDate == Date(timeIntervalSince1970: 1_698_148_950))
        #expect(transaction.isUpgraded == true)
        #expect(transaction.offerType == .introductoryOffer)
        #expect(transaction.offerIdentifier == "abc.123")
        #expect(transaction.environment == .localTesting)
        #expect(transaction.transactionReason == .purchase)
        #expect(transaction.storefront == "USA")
        #expect(transaction.storefrontId == "143441")
        #expect(transaction.price == 10990)
        #expect(transaction.currency == "USD")
        #expect(transaction.offerDiscountType == .payAsYouGo)
        #expect(transaction.appTransactionId == "71134")
        #expect(transaction.offerPeriod == "P1Y")
        #expect(transaction.revocationType == nil)
        #expect(transaction.billingPlanType == .monthly)
        #expect(transaction.additionalFields.isEmpty)

        let info = try #require(transaction.advancedCommerceInfo)
        #expect(info.descriptors?.description == "Premium Plan")
        #expect(info.descriptors?.displayName == "Premium")
        #expect(info.estimatedTax == 1500)
        #expect(info.period == .p1M)
        #expect(info.requestReferenceId == "ref-12345")
        #expect(info.taxCode == "TAX_CODE_1")
        #expect(info.taxExclusivePrice == 8490)
        #expect(info.taxRate == "0.15")
        let item = try #require(info.items?.first)
        #expect(info.items?.count == 1)
        #expect(item.sku == "com.example.sku.premium")
        #expect(item.description == "Premium feature")
        #expect(item.displayName == "Premium Feature")
        #expect(item.price == 9990)
        #expect(item.revocationDate == Date(timeIntervalSince1970: 1_698_149_200))
        let refund = try #require(item.refunds?.first)
        #expect(refund.refundAmount == 5000)
        #expect(refund.refundDate == Date(timeIntervalSince1970: 1_698_149_100))
        #expect(refund.refundReason == .fulfillmentIssue)
        #expect(refund.refundType == .prorated)

        let commitment = try #require(transaction.commitmentInfo)
        #expect(commitment.billingPeriodNumber == 3)
        #expect(commitment.commitmentExpiresDate == Date(timeIntervalSince1970: 1_698_150_000))
        #expect(commitment.commitmentPrice == 119_880)
        #expect(commitment.totalBillingPeriods == 12)
    }

    @Test("Decodes a revoked transaction with its revocation type and percentage")
    func revokedTransaction() throws {
        let (transaction, unchanged) = try ModelJSON.roundTrip(
            JWSTransactionDecodedPayload.self, vector: "signedTransactionWithRevocation.json")
        #expect(unchanged)
        #expect(transaction.revocationType == .refundProrated)
        #expect(transaction.revocationType?.name == "refundProrated")
        #expect(transaction.revocationPercentage == 50000)
        #expect(transaction.revocationReason == .refundedDueToIssue)
        #expect(transaction.revocationDateTimestamp?.millisecondsSince1970 == 1_698_148_950_000)
        #expect(transaction.advancedCommerceInfo == nil)
        #expect(transaction.additionalFields.isEmpty)
    }

    @Test("Decodes every field of Apple's signed renewal information and encodes it back unchanged")
    func renewalInfo() throws {
        let (renewal, unchanged) = try ModelJSON.roundTrip(
            JWSRenewalInfoDecodedPayload.self, vector: "signedRenewalInfo.json")
        #expect(unchanged)
        #expect(renewal.expirationIntent == .customerCancelled)
        #expect(renewal.originalTransactionId == "12345")
        #expect(renewal.autoRenewProductId == "com.example.product.2")
        #expect(renewal.productId == "com.example.product")
        #expect(renewal.autoRenewStatus == .on)
        #expect(renewal.isInBillingRetryPeriod == true)
        #expect(renewal.priceIncreaseStatus == .customerHasNotResponded)
        #expect(renewal.gracePeriodExpiresDate == Date(timeIntervalSince1970: 1_698_148_900))
        #expect(renewal.offerType == .promotionalOffer)
        #expect(renewal.offerIdentifier == "abc.123")
        #expect(renewal.signedDate == Date(timeIntervalSince1970: 1_698_148_800))
        #expect(renewal.environment == .localTesting)
        #expect(renewal.recentSubscriptionStartDate == Date(timeIntervalSince1970: 1_698_148_800))
        #expect(renewal.renewalDate == Date(timeIntervalSince1970: 1_698_148_850))
        #expect(renewal.renewalPrice == 9990)
        #expect(renewal.currency == "USD")
        #expect(renewal.offerDiscountType == .payAsYouGo)
        #expect(renewal.eligibleWinBackOfferIds == ["eligible1", "eligible2"])
        #expect(renewal.appTransactionId == "71134")
        #expect(renewal.offerPeriod == "P1Y")
        #expect(renewal.appAccountToken == "7e3fb20b-4cdb-47cc-936d-99d65f608138")
        #expect(renewal.renewalBillingPlanType == .monthly)
        #expect(renewal.additionalFields.isEmpty)

        let info = try #require(renewal.advancedCommerceInfo)
        #expect(info.consistencyToken == "token-abc-123")
        #expect(info.descriptors?.description == "Premium Plan")
        #expect(info.descriptors?.displayName == "Premium")
        #expect(info.period == .p1M)
        #expect(info.requestReferenceId == "ref-12345")
        #expect(info.taxCode == "TAX_CODE_1")
        let item = try #require(info.items?.first)
        #expect(item.sku == "com.example.sku.premium")
        #expect(item.description == "Premium feature")
        #expect(item.displayName == "Premium Feature")
        #expect(item.price == 9990)
        let increase = try #require(item.priceIncreaseInfo)
        #expect(increase.dependentSKUs == ["com.example.sku.1", "com.example.sku.2"])
        #expect(increase.price == 12990)
        #expect(increase.status == .pending)

        let commitment = try #require(renewal.commitmentInfo)
        #expect(commitment.commitmentAutoRenewProductId == "com.example.product.commitment")
        #expect(commitment.commitmentAutoRenewStatus == .on)
        #expect(commitment.commitmentRenewalBillingPlanType == .monthly)
        #expect(commitment.commitmentRenewalDate == Date(timeIntervalSince1970: 1_698_149_500))
        #expect(commitment.commitmentRenewalPrice == 9990)
    }

    @Test("Decodes every field of Apple's app transaction and encodes it back unchanged")
    func appTransaction() throws {
        let (app, unchanged) = try ModelJSON.roundTrip(AppTransaction.self, vector: "appTransaction.json")
        #expect(unchanged)
        #expect(app.receiptType == .localTesting)
        #expect(app.appAppleId == 531_412)
        #expect(app.bundleId == "com.example")
        #expect(app.applicationVersion == "1.2.3")
        #expect(app.versionExternalIdentifier == 512)
        #expect(app.receiptCreationDate == Date(timeIntervalSince1970: 1_698_148_900))
        #expect(app.originalPurchaseDate == Date(timeIntervalSince1970: 1_698_148_800))
        #expect(app.originalApplicationVersion == "1.1.2")
        #expect(app.deviceVerification == "device_verification_value")
        #expect(app.deviceVerificationNonce == "48ccfa42-7431-4f22-9908-7e88983e105a")
        #expect(app.preorderDate == Date(timeIntervalSince1970: 1_698_148_700))
        #expect(app.appTransactionId == "71134")
        #expect(app.originalPlatform == .iOS)
        #expect(app.originalPlatform?.name == "iOS")
        #expect(app.additionalFields.isEmpty)
    }

    @Test("Decodes a StoreKit Testing in Xcode transaction with fractional dates and encodes it back unchanged")
    func xcodeTransaction() throws {
        // The payload of Apple's xcode-signed-transaction test token.
        let json = """
            {"inAppOwnershipType":"PURCHASED","purchaseDate":1697679936049.7297,
            "subscriptionGroupIdentifier":"6F3A93AB","signedDate":1697679936056.485,
            "originalPurchaseDate":1697679936049.7297,"isUpgraded":false,
            "deviceVerification":"sGDnpg+ozb8uwDSuCDZ2oVZo1CKrbB8ujR8VxCxhykRwyBIK6x6XCyERm8yWrzE8","offerType":1,
            "quantity":1,"transactionId":"0","type":"Auto-Renewable Subscription","transactionReason":"PURCHASE",
            "productId":"pass.premium","expiresDate":1700358336049.7297,"environment":"Xcode","storefrontId":"143441",
            "originalTransactionId":"0","bundleId":"com.example.naturelab.backyardbirds.example",
            "deviceVerificationNonce":"7edea87d-98f0-42d0-9682-49ca81022f73","webOrderLineItemId":"0",
            "storefront":"USA"}
            """
        let transaction = try ModelJSON.decode(JWSTransactionDecodedPayload.self, from: json)
        #expect(transaction.environment == .xcode)
        #expect(transaction.purchaseDateTimestamp?.millisecondsSince1970 == 1_697_679_936_049.7297)
        #expect(transaction.signedDateTimestamp?.millisecondsSince1970 == 1_697_679_936_056.485)
        #expect(transaction.deviceVerificationNonce == "7edea87d-98f0-42d0-9682-49ca81022f73")
        #expect(transaction.additionalFields.isEmpty)
        #expect(try ModelJSON.sameJSON(Data(json.utf8), ModelJSON.encode(transaction)))
    }

    @Test("Decodes a StoreKit Testing in Xcode app transaction with a request date and a year-1 purchase date")
    func xcodeAppTransaction() throws {
        // The payload of Apple's xcode-signed-app-transaction test token.
        let json = """
            {"bundleId":"com.example.naturelab.backyardbirds.example","applicationVersion":"1",
            "deviceVerificationNonce":"48c8b92d-ce0d-4229-bedf-e61b4f9cfc92","receiptType":"Xcode",
            "receiptCreationDate":1697680122257.447,
            "deviceVerification":"cYUsXc53EbYc0pOeXG5d6/31LGHeVGf84sqSN0OrJi5u/j2H89WWKgS8N0hMsMlf",
            "requestDate":1697680122257.447,"originalApplicationVersion":"1","originalPurchaseDate":-62135769600000}
            """
        let app = try ModelJSON.decode(AppTransaction.self, from: json)
        #expect(app.receiptType == .xcode)
        #expect(app.requestDateTimestamp?.millisecondsSince1970 == 1_697_680_122_257.447)
        #expect(app.originalPurchaseDateTimestamp?.millisecondsSince1970 == -62_135_769_600_000)
        #expect(app.additionalFields.isEmpty)
        #expect(try ModelJSON.sameJSON(Data(json.utf8), ModelJSON.encode(app)))
        #expect(try ModelJSON.encodedString(app).contains("\"originalPurchaseDate\":-62135769600000,"))
    }

    @Test("An invalid appAccountToken is kept as a string and doesn't fail the payload")
    func invalidAppAccountToken() throws {
        let json = #"{"appAccountToken":"not-a-uuid"}"#
        let renewal = try ModelJSON.decode(JWSRenewalInfoDecodedPayload.self, from: json)
        #expect(renewal.appAccountToken == "not-a-uuid")
    }

    @Test("The memberwise initializer leaves every field absent and encodes an empty object")
    func emptyModel() throws {
        let transaction = JWSTransactionDecodedPayload()
        #expect(transaction.transactionId == nil)
        #expect(transaction.additionalFields.isEmpty)
        #expect(try ModelJSON.encodedString(transaction) == "{}")
        let built = JWSTransactionDecodedPayload(transactionId: "1", environment: .sandbox, price: 990)
        #expect(try ModelJSON.encodedString(built) == #"{"environment":"Sandbox","price":990,"transactionId":"1"}"#)
    }
}
