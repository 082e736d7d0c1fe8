import Foundation
import JWSVerify
import Testing

@Suite("Notification, app data and realtime request payloads")
struct NotificationPayloadTests {
    private let signedDate = Date(timeIntervalSince1970: 1_698_148_900)

    @Test("Decodes a SUBSCRIBED notification with its data object and encodes it back unchanged")
    func notification() throws {
        let (notification, unchanged) = try ModelJSON.roundTrip(
            ResponseBodyV2DecodedPayload.self, vector: "signedNotification.json")
        #expect(unchanged)
        #expect(notification.notificationType == .subscribed)
        #expect(notification.notificationType?.name == "subscribed")
        #expect(notification.subtype == .initialBuy)
        #expect(notification.notificationUUID == "002e14d5-51f5-4503-b5a8-c3a1af68eb20")
        #expect(notification.version == "2.0")
        #expect(notification.signedDate == signedDate)
        #expect(notification.summary == nil)
        #expect(notification.externalPurchaseToken == nil)
        #expect(notification.appData == nil)
        #expect(notification.additionalFields.isEmpty)
        let data = try #require(notification.data)
        #expect(data.environment == .localTesting)
        #expect(data.appAppleId == 41234)
        #expect(data.bundleId == "com.example")
        #expect(data.bundleVersion == "1.2.3")
        #expect(data.signedTransactionInfo == "signed_transaction_info_value")
        #expect(data.signedRenewalInfo == "signed_renewal_info_value")
        #expect(data.status == .active)
        #expect(data.consumptionRequestReason == nil)
        #expect(data.additionalFields.isEmpty)
    }

    @Test("Decodes a CONSUMPTION_REQUEST notification with its consumption request reason")
    func consumptionRequest() throws {
        let (notification, unchanged) = try ModelJSON.roundTrip(
            ResponseBodyV2DecodedPayload.self, vector: "signedConsumptionRequestNotification.json")
        #expect(unchanged)
        #expect(notification.notificationType == .consumptionRequest)
        #expect(notification.subtype == nil)
        #expect(notification.signedDate == signedDate)
        let data = try #require(notification.data)
        #expect(data.status == .active)
        #expect(data.consumptionRequestReason == .unintendedPurchase)
        #expect(data.consumptionRequestReason?.name == "unintendedPurchase")
        #expect(data.appAppleId == 41234)
    }

    @Test("Decodes a RENEWAL_EXTENSION SUMMARY notification with its summary object")
    func summary() throws {
        let (notification, unchanged) = try ModelJSON.roundTrip(
            ResponseBodyV2DecodedPayload.self, vector: "signedSummaryNotification.json")
        #expect(unchanged)
        #expect(notification.notificationType == .renewalExtension)
        #expect(notification.subtype == .summary)
        #expect(notification.data == nil)
        let summary = try #require(notification.summary)
        #expect(summary.environment == .localTesting)
        #expect(summary.appAppleId == 41234)
        #expect(summary.bundleId == "com.example")
        #expect(summary.productId == "com.example.product")
        #expect(summary.requestIdentifier == "efb27071-45a4-4aca-9854-2a1e9146f265")
        #expect(summary.storefrontCountryCodes == ["CAN", "USA", "MEX"])
        #expect(summary.succeededCount == 5)
        #expect(summary.failedCount == 2)
        #expect(summary.additionalFields.isEmpty)
    }

    @Test(
        "Decodes EXTERNAL_PURCHASE_TOKEN notifications, production and sandbox",
        arguments: [
            ("signedExternalPurchaseTokenNotification.json", "b2158121-7af9-49d4-9561-1f588205523e"),
            ("signedExternalPurchaseTokenSandboxNotification.json", "SANDBOX_b2158121-7af9-49d4-9561-1f588205523e"),
        ])
    func externalPurchaseToken(vector: String, externalPurchaseId: String) throws {
        let (notification, unchanged) = try ModelJSON.roundTrip(ResponseBodyV2DecodedPayload.self, vector: vector)
        #expect(unchanged)
        #expect(notification.notificationType == .externalPurchaseToken)
        #expect(notification.subtype == .unreported)
        #expect(notification.data == nil)
        let token = try #require(notification.externalPurchaseToken)
        #expect(token.externalPurchaseId == externalPurchaseId)
        #expect(token.tokenCreationDate == Date(timeIntervalSince1970: 1_698_148_950))
        #expect(token.appAppleId == 55555)
        #expect(token.bundleId == "com.example")
        #expect(token.tokenType == nil)
        #expect(token.additionalFields.isEmpty)
    }

    @Test("Decodes a RESCIND_CONSENT notification with its app data object")
    func rescindConsent() throws {
        let (notification, unchanged) = try ModelJSON.roundTrip(
            ResponseBodyV2DecodedPayload.self, vector: "signedRescindConsentNotification.json")
        #expect(unchanged)
        #expect(notification.notificationType == .rescindConsent)
        #expect(notification.subtype == nil)
        #expect(notification.data == nil)
        let appData = try #require(notification.appData)
        #expect(appData.environment == .localTesting)
        #expect(appData.appAppleId == 41234)
        #expect(appData.bundleId == "com.example")
        #expect(appData.signedAppTransactionInfo == "signed_app_transaction_info_value")
    }

    @Test("Decodes Apple's app data object and encodes it back unchanged")
    func appData() throws {
        let (appData, unchanged) = try ModelJSON.roundTrip(AppData.self, vector: "appData.json")
        #expect(unchanged)
        #expect(appData.appAppleId == 987_654_321)
        #expect(appData.bundleId == "com.example")
        #expect(appData.environment == .sandbox)
        #expect(appData.signedAppTransactionInfo == "signed-app-transaction-info")
        #expect(appData.additionalFields.isEmpty)
    }

    @Test("Decodes Apple's Retention Messaging realtime request and encodes it back unchanged")
    func realtimeRequest() throws {
        let (request, unchanged) = try ModelJSON.roundTrip(
            DecodedRealtimeRequestBody.self, vector: "decodedRealtimeRequest.json")
        #expect(unchanged)
        #expect(request.originalTransactionId == "99371282")
        #expect(request.appAppleId == 531_412)
        #expect(request.productId == "com.example.product")
        #expect(request.userLocale == "en-US")
        #expect(request.requestIdentifier == "3db5c98d-8acf-4e29-831e-8e1f82f9f6e9")
        #expect(request.environment == .localTesting)
        #expect(request.signedDate == signedDate)
        #expect(request.additionalFields.isEmpty)
    }

    @Test("Decodes the custom link token fields of an external purchase token")
    func customLinkToken() throws {
        let json = """
            {"externalPurchaseId":"x","tokenCreationDate":1750000000000,"appAppleId":1,"bundleId":"com.example",
            "tokenExpirationDate":1752592000000,"tokenType":"SERVICES"}
            """
        let token = try ModelJSON.decode(ExternalPurchaseToken.self, from: json)
        #expect(token.tokenType == .services)
        #expect(token.tokenExpirationDateTimestamp?.millisecondsSince1970 == 1_752_592_000_000)
        #expect(try ModelJSON.sameJSON(Data(json.utf8), ModelJSON.encode(token)))
    }
}
