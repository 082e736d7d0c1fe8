import AppStoreServerAPI
import AppStoreServerAPIEmulator
import Foundation
import JWSVerify
import Testing

/// Every endpoint of the client against the emulator, which checks each request as Apple's API would
/// (method, path, query, headers, body, bearer token signature and claims): no violation, and the answer
/// decodes. The answers are Apple's example bodies (TestVectors/apple-library/api).
@Suite("App Store Server API client: every endpoint's request as Apple expects it")
struct LoopbackEndpointTests {
    /// One call of the client and the route that answers it.
    struct Call: Sendable, CustomTestStringConvertible {
        var name: String
        var route: APIEmulatorProcess.Route
        var run: @Sendable (AppStoreServerAPIClient) async throws -> Void
        var testDescription: String { name }

        init(
            _ name: String, _ method: String, _ path: String, query: [String: [String]]? = nil, vector: String? = nil,
            _ run: @escaping @Sendable (AppStoreServerAPIClient) async throws -> Void
        ) {
            self.name = name
            let body = vector.map { Self.vector($0) } ?? nil
            route = .init(method, path, query: query, [.init(status: 200, json: body)])
            self.run = run
        }

        /// Apple's example body `name`.json.
        static func vector(_ name: String) -> JSONValue? {
            (try? Vectors.api("\(name).json")).flatMap { try? JSONDecoder().decode(JSONValue.self, from: $0) }
        }
    }

    static let id = "2000000001"
    static let uuid = UUID(
        uuid: (0x7e, 0x3f, 0xb2, 0x0b, 0x4c, 0xdb, 0x47, 0xcc, 0x93, 0x6d, 0x99, 0xd6, 0x5f, 0x60, 0x81, 0x38))
    static let lower = "7e3fb20b-4cdb-47cc-936d-99d65f608138"
    static let start = Date(timeIntervalSince1970: 1_698_148_800)
    static let end = Date(timeIntervalSince1970: 1_698_235_200)
    /// A day ending now: Get Notification History's window starts at most 180 days back (the emulator checks it).
    static let recentEnd = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
    static let recentStart = recentEnd.addingTimeInterval(-86_400)

    static let calls: [Call] = [
        Call("Get Transaction Info", "GET", "/inApps/v1/transactions/\(id)", vector: "transactionInfoResponse") {
            _ = try await $0.getTransactionInfo(transactionId: id)
        },
        Call(
            "Get Transaction History v2 with every filter", "GET", "/inApps/v2/history/\(id)",
            query: [
                "revision": ["rev1"], "startDate": ["1698148800000"], "endDate": ["1698235200000"],
                "productId": ["com.example.a", "com.example.b"], "productType": ["AUTO_RENEWABLE", "CONSUMABLE"],
                "sort": ["DESCENDING"], "subscriptionGroupIdentifier": ["21"], "inAppOwnershipType": ["PURCHASED"],
                "revoked": ["false"],
            ], vector: "transactionHistoryResponse"
        ) {
            _ = try await $0.getTransactionHistory(
                anyTransactionId: id, revision: "rev1",
                transactionHistoryRequest: TransactionHistoryRequest(
                    startDate: start, endDate: end, productIds: ["com.example.a", "com.example.b"],
                    productTypes: [.autoRenewable, .consumable], sort: .descending,
                    subscriptionGroupIdentifiers: ["21"],
                    inAppOwnershipType: InAppOwnershipType(rawValue: "PURCHASED"), revoked: false))
        },
        Call(
            "Get Transaction History v1", "GET", "/inApps/v1/history/\(id)", query: [:],
            vector: "transactionHistoryResponse"
        ) {
            _ = try await $0.getTransactionHistory(
                anyTransactionId: id, revision: nil, transactionHistoryRequest: TransactionHistoryRequest(),
                version: .v1)
        },
        Call(
            "Get All Subscription Statuses with a status filter", "GET", "/inApps/v1/subscriptions/\(id)",
            query: ["status": ["1", "4"]], vector: "getAllSubscriptionStatusesResponse"
        ) {
            _ = try await $0.getAllSubscriptionStatuses(
                anyTransactionId: id, status: [Status(rawValue: 1), Status(rawValue: 4)])
        },
        Call(
            "Get Refund History", "GET", "/inApps/v2/refund/lookup/\(id)", query: ["revision": ["rev1"]],
            vector: "getRefundHistoryResponse"
        ) {
            _ = try await $0.getRefundHistory(anyTransactionId: id, revision: "rev1")
        },
        Call("Look Up Order ID", "GET", "/inApps/v1/lookup/MK5TTTVWJH", vector: "lookupOrderIdResponse") {
            _ = try await $0.lookUpOrderId(orderId: "MK5TTTVWJH")
        },
        Call(
            "Get App Transaction Info", "GET", "/inApps/v1/transactions/appTransactions/\(id)",
            vector: "appTransactionInfoResponse"
        ) {
            _ = try await $0.getAppTransactionInfo(anyTransactionId: id)
        },
        Call("Send Consumption Information v1", "PUT", "/inApps/v1/transactions/consumption/\(id)") {
            try await $0.sendConsumptionData(
                transactionId: id,
                consumptionRequest: ConsumptionRequestV1(
                    customerConsented: true, consumptionStatus: .partiallyConsumed, platform: .apple,
                    sampleContentProvided: false, deliveryStatus: .deliveredAndWorkingProperly, appAccountToken: uuid,
                    accountTenure: .thirtyDaysToNinetyDays, playTime: .oneToSixHours,
                    lifetimeDollarsRefunded: .zeroDollars,
                    lifetimeDollarsPurchased: .fiftyDollarsToNinetyNineDollarsAndNinetyNineCents, userStatus: .active,
                    refundPreference: .preferDecline))
        },
        Call("Send Consumption Information v2", "PUT", "/inApps/v2/transactions/consumption/\(id)") {
            try await $0.sendConsumptionInformation(
                transactionId: id,
                consumptionRequest: ConsumptionRequest(
                    customerConsented: true, consumptionPercentage: 25000, deliveryStatus: .delivered,
                    refundPreference: .grantProrated, sampleContentProvided: true))
        },
        Call(
            "Extend a Subscription Renewal Date", "PUT", "/inApps/v1/subscriptions/extend/\(id)",
            vector: "extendSubscriptionRenewalDateResponse"
        ) {
            _ = try await $0.extendSubscriptionRenewalDate(
                originalTransactionId: id,
                extendRenewalDateRequest: ExtendRenewalDateRequest(
                    extendByDays: 30, extendReasonCode: .customerSatisfaction, requestIdentifier: "support-1"))
        },
        Call(
            "Extend Subscription Renewal Dates for All Active Subscribers", "POST",
            "/inApps/v1/subscriptions/extend/mass", vector: "extendRenewalDateForAllActiveSubscribersResponse"
        ) {
            _ = try await $0.extendRenewalDateForAllActiveSubscribers(
                massExtendRenewalDateRequest: MassExtendRenewalDateRequest(
                    extendByDays: 7, extendReasonCode: .serviceIssueOrOutage, requestIdentifier: lower,
                    storefrontCountryCodes: ["USA", "FRA"], productId: "com.example.monthly"))
        },
        Call(
            "Get Status of Subscription Renewal Date Extensions", "GET",
            "/inApps/v1/subscriptions/extend/mass/com.example.monthly/\(lower)",
            vector: "getStatusOfSubscriptionRenewalDateExtensionsResponse"
        ) {
            _ = try await $0.getStatusOfSubscriptionRenewalDateExtensions(
                requestIdentifier: lower, productId: "com.example.monthly")
        },
        Call(
            "Get Notification History", "POST", "/inApps/v1/notifications/history",
            query: ["paginationToken": ["57715481-805a-4283-8499-1c19b5d6b20a"]],
            vector: "getNotificationHistoryResponse"
        ) {
            _ = try await $0.getNotificationHistory(
                paginationToken: "57715481-805a-4283-8499-1c19b5d6b20a",
                notificationHistoryRequest: NotificationHistoryRequest(
                    startDate: recentStart, endDate: recentEnd,
                    notificationType: NotificationTypeV2(rawValue: "SUBSCRIBED"),
                    notificationSubtype: Subtype(rawValue: "INITIAL_BUY"), onlyFailures: true))
        },
        Call(
            "Request a Test Notification", "POST", "/inApps/v1/notifications/test",
            vector: "requestTestNotificationResponse"
        ) {
            _ = try await $0.requestTestNotification()
        },
        Call(
            "Get Test Notification Status", "GET", "/inApps/v1/notifications/test/\(lower)_1698148800000",
            vector: "getTestNotificationStatusResponse"
        ) {
            _ = try await $0.getTestNotificationStatus(testNotificationToken: "\(lower)_1698148800000")
        },
        Call("Set App Account Token", "PUT", "/inApps/v1/transactions/\(id)/appAccountToken") {
            try await $0.setAppAccountToken(
                originalTransactionId: id,
                updateAppAccountTokenRequest: UpdateAppAccountTokenRequest(appAccountToken: uuid))
        },
        Call("Finish Transaction", "POST", "/inApps/v1/transactions/\(id)/finish") {
            try await $0.finishTransaction(transactionId: id)
        },
        Call("Upload Image", "PUT", "/inApps/v1/messaging/image/\(lower)") {
            try await $0.uploadImage(
                imageIdentifier: uuid, image: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]),
                imageSize: .fullSize)
        },
        Call("Delete Image", "DELETE", "/inApps/v1/messaging/image/\(lower)") {
            try await $0.deleteImage(imageIdentifier: uuid)
        },
        Call("Get Image List", "GET", "/inApps/v1/messaging/image/list", vector: "getImageListResponse") {
            _ = try await $0.getImageList()
        },
        Call("Upload Message", "PUT", "/inApps/v1/messaging/message/\(lower)") {
            try await $0.uploadMessage(
                messageIdentifier: uuid,
                uploadMessageRequestBody: UploadMessageRequestBody(
                    header: "Stay with us", body: "A better price is waiting",
                    image: UploadMessageImage(imageIdentifier: uuid, altText: "A gift"), headerPosition: .aboveBody,
                    bulletPoints: [BulletPoint(text: "No ads"), BulletPoint(text: "Offline mode")]))
        },
        Call("Delete Message", "DELETE", "/inApps/v1/messaging/message/\(lower)") {
            try await $0.deleteMessage(messageIdentifier: uuid)
        },
        Call("Get Message List", "GET", "/inApps/v1/messaging/message/list", vector: "getMessageListResponse") {
            _ = try await $0.getMessageList()
        },
        Call("Configure Default Message", "PUT", "/inApps/v1/messaging/default/com.example.monthly/en-US") {
            try await $0.configureDefaultMessage(
                productId: "com.example.monthly", locale: "en-US",
                defaultConfigurationRequest: DefaultConfigurationRequest(messageIdentifier: uuid))
        },
        Call(
            "Get Default Message", "GET", "/inApps/v1/messaging/default/com.example.monthly/en-US",
            vector: "getDefaultMessageResponse"
        ) {
            _ = try await $0.getDefaultMessage(productId: "com.example.monthly", locale: "en-US")
        },
        Call("Delete Default Message", "DELETE", "/inApps/v1/messaging/default/com.example.monthly/en-US") {
            try await $0.deleteDefaultMessage(productId: "com.example.monthly", locale: "en-US")
        },
        Call("Configure Realtime URL", "PUT", "/inApps/v1/messaging/realtime/url") {
            try await $0.configureRealtimeURL(
                realtimeUrlRequest: RealtimeUrlRequest(realtimeURL: "https://example.com/rt"))
        },
        Call("Get Realtime URL", "GET", "/inApps/v1/messaging/realtime/url", vector: "getRealtimeUrlResponse") {
            _ = try await $0.getRealtimeURL()
        },
        Call("Delete Realtime URL", "DELETE", "/inApps/v1/messaging/realtime/url") {
            try await $0.deleteRealtimeURL()
        },
        Call(
            "Initiate Performance Test", "POST", "/inApps/v1/messaging/performanceTest",
            vector: "performanceTestResponse"
        ) {
            _ = try await $0.initiatePerformanceTest(
                performanceTestRequest: PerformanceTestRequest(originalTransactionId: id))
        },
        Call(
            "Get Performance Test Results", "GET", "/inApps/v1/messaging/performanceTest/result/\(lower)",
            vector: "performanceTestResultResponse"
        ) {
            _ = try await $0.getPerformanceTestResults(requestId: lower)
        },
    ]

    /// Input: one call of the client with Apple's documented arguments. Expected: it succeeds against the
    /// emulator's route for it (so the method, path and exact query are the ones configured), and the emulator
    /// records no violation: the bearer token verifies with the key's public half and carries the right claims,
    /// and the headers and body have Apple's shape.
    @Test("the client's request passes the emulator's checks", arguments: calls)
    func requestIsAppleShaped(call: Call) async throws {
        let loopback = try await Loopback { _ in [call.route] }
        defer { loopback.finish() }
        try await call.run(loopback.client)
        try await loopback.expectAppleShapedRequests(count: 1)
    }

    /// Input: two calls with one client. Expected: both carry the same bearer token (reused until shortly
    /// before it expires), and it verifies.
    @Test("the bearer token is reused across requests")
    func bearerTokenIsReused() async throws {
        let loopback = try await Loopback { _ in [Self.calls[0].route] }
        defer { loopback.finish() }
        try await Self.calls[0].run(loopback.client)
        try await Self.calls[0].run(loopback.client)
        try await loopback.expectAppleShapedRequests(count: 2)
        let tokens = try await loopback.emulator.log().map { $0.headers["Authorization"] }
        #expect(tokens.count == 2 && tokens[0] != nil && tokens[0] == tokens[1])
    }
}
