import Foundation
import JWSVerify
import Testing

@testable import AppStoreServerAPI

@Suite("Response and error bodies of Apple's library decode into the models")
struct ResponseModelTests {
    /// Input: each response body of Apple's library. Expected: it decodes into its model, with the values checked.
    @Test("every response body decodes into its model")
    func everyResponseDecodes() async throws {
        let history = try await decode(HistoryResponse.self, "transactionHistoryResponse.json")
        #expect(history.revision == "revision_output" && history.hasMore == true && history.appAppleId == 323232)
        #expect(history.environment == .localTesting && history.signedTransactions?.count == 2)
        let statuses = try await decode(StatusResponse.self, "getAllSubscriptionStatusesResponse.json")
        #expect(statuses.data?.count == 2 && statuses.data?[0].lastTransactions?[1].status == .revoked)
        let info = try await decode(TransactionInfoResponse.self, "transactionInfoResponse.json")
        #expect(info.signedTransactionInfo != nil)
        let app = try await decode(AppTransactionInfoResponse.self, "appTransactionInfoResponse.json")
        #expect(app.signedAppTransactionInfo != nil)
        let refunds = try await decode(RefundHistoryResponse.self, "getRefundHistoryResponse.json")
        #expect(refunds.signedTransactions?.isEmpty == false && refunds.revision != nil)
        let order = try await decode(OrderLookupResponse.self, "lookupOrderIdResponse.json")
        #expect(order.status == .invalid || order.status == .valid)
        let notifications = try await decode(NotificationHistoryResponse.self, "getNotificationHistoryResponse.json")
        #expect(notifications.paginationToken != nil && notifications.notificationHistory?.isEmpty == false)
        let attempt = try #require(notifications.notificationHistory?.first?.sendAttempts?.first)
        #expect(attempt.attemptDate != nil && attempt.sendAttemptResult?.name != nil)
        let test = try await decode(SendTestNotificationResponse.self, "requestTestNotificationResponse.json")
        #expect(test.testNotificationToken != nil)
        let status = try await decode(CheckTestNotificationResponse.self, "getTestNotificationStatusResponse.json")
        #expect(status.signedPayload != nil)
        let extend = try await decode(ExtendRenewalDateResponse.self, "extendSubscriptionRenewalDateResponse.json")
        #expect(extend.effectiveDate != nil && extend.success != nil)
        let mass = try await decode(
            MassExtendRenewalDateResponse.self, "extendRenewalDateForAllActiveSubscribersResponse.json")
        #expect(mass.requestIdentifier != nil)
        let massStatus = try await decode(
            MassExtendRenewalDateStatusResponse.self, "getStatusOfSubscriptionRenewalDateExtensionsResponse.json")
        #expect(massStatus.completeDate != nil && massStatus.succeededCount != nil)
        let images = try await decode(GetImageListResponse.self, "getImageListResponse.json")
        #expect(images.imageIdentifiers?.first?.imageState?.name != nil)
        let messages = try await decode(GetMessageListResponse.self, "getMessageListResponse.json")
        #expect(messages.messageIdentifiers?.first?.messageState?.name != nil)
        let defaultMessage = try await decode(DefaultConfigurationResponse.self, "getDefaultMessageResponse.json")
        #expect(defaultMessage.messageIdentifier != nil)
        let url = try await decode(RealtimeUrlResponse.self, "getRealtimeUrlResponse.json")
        #expect(url.realtimeURL == "https://example.com/realtime")
        let started = try await decode(PerformanceTestResponse.self, "performanceTestResponse.json")
        #expect(started.requestId != nil && started.config?.totalRequests != nil)
        let result = try await decode(PerformanceTestResultResponse.self, "performanceTestResultResponse.json")
        #expect(result.result == .pass && result.responseTimes?.p99 == 400 && result.failures?["TIMED_OUT"] == 1)
    }

    /// Input: each error body of Apple's library, served with status 400/404/429/500. Expected: the client throws
    /// an `httpError` with the status, the named code and the message.
    @Test(
        "every error body gives its status, named code and message",
        arguments: [
            ("apiException.json", 500, Int64(5_000_000), "generalInternal"),
            ("apiTooManyRequestsException.json", 429, 4_290_000, "rateLimitExceeded"),
            ("appTransactionDoesNotExistError.json", 404, 4_040_019, "appTransactionDoesNotExist"),
            ("familyTransactionNotSupportedError.json", 400, 4_000_185, "familyTransactionNotSupported"),
            ("invalidAppAccountTokenUUIDError.json", 400, 4_000_183, "invalidAppAccountTokenUUID"),
            ("invalidTransactionIdError.json", 400, 4_000_006, "invalidTransactionId"),
            ("transactionIdNotFoundError.json", 404, 4_040_010, "transactionIdNotFound"),
            ("transactionIdNotOriginalTransactionId.json", 400, 4_000_187, "transactionIdNotOriginalTransactionId"),
        ])
    func errorBodies(file: String, status: Int, code: Int64, name: String) async throws {
        let transport = InMemoryTransport(status: status, body: try Vectors.api(file))
        let client = try Fixtures.client(transport)
        let error = await #expect(throws: APIError.self) { try await client.getTransactionInfo(transactionId: "1") }
        #expect(error?.kind == .httpError, "\(file)")
        #expect(error?.statusCode == status, "\(file)")
        #expect(error?.rawAPIError == code && error?.apiError?.name == name, "\(file)")
        #expect(error?.errorMessage?.isEmpty == false, "\(file)")
        #expect(error?.isRetryable == (status == 429 || status == 500), "\(file)")
    }

    /// Input: an error body with a code Apple does not document. Expected: the raw code is kept, its name is nil.
    @Test("an unknown error code is kept raw")
    func unknownCode() async throws {
        let transport = InMemoryTransport(status: 400, body: try Vectors.api("apiUnknownError.json"))
        let error = await #expect(throws: APIError.self) {
            try await Fixtures.client(transport).getTransactionInfo(transactionId: "1")
        }
        #expect(error?.kind == .httpError && error?.rawAPIError == 9_990_000 && error?.apiError?.name == nil)
    }

    /// Input: bodies the strict parser or the model refuses. Expected: `malformedResponse`, saying where; the same
    /// bodies with the defect removed decode (so each case fails for its defect alone).
    @Test("a body with duplicate members, a number out of its field's range or a wrong type is malformed, saying where")
    func strictBodies() throws {
        let good = #"{"bundleId":"com.example","hasMore":true,"appAppleId":1,"signedTransactions":["a.b.c"]}"#
        #expect(try AppStoreServerAPIClient.decode(HistoryResponse.self, from: Data(good.utf8)).appAppleId == 1)
        let cases: [(body: String, says: String)] = [
            (#"{"bundleId":"com.example","bundleId":"com.other"}"#, "duplicate"),
            (#"{"signedTransactions":["a.b.c",7]}"#, "signedTransactions[1]: expected String, found a number"),
            (#"{"hasMore":"yes"}"#, "hasMore: expected Bool, found a string"),
            (#"{"appAppleId":1.5}"#, "appAppleId: a number that does not fit in Int64"),
            (#"{"appAppleId":9223372036854775808}"#, "appAppleId: a number that does not fit in Int64"),
            (
                #"{"data":[{"lastTransactions":[{"status":"1"}]}]}"#,
                "data[0].lastTransactions[0].status: expected Int64"
            ),
        ]
        for (body, says) in cases {
            let error = #expect(throws: APIError.self, "\(body)") {
                if body.contains("data") {
                    _ = try AppStoreServerAPIClient.decode(StatusResponse.self, from: Data(body.utf8))
                } else {
                    _ = try AppStoreServerAPIClient.decode(HistoryResponse.self, from: Data(body.utf8))
                }
            }
            #expect(error?.kind == .malformedResponse, "\(body)")
            #expect(error?.message.contains(says) == true, "\(body): \(error?.message ?? "")")
        }
        let dated = try AppStoreServerAPIClient.decode(
            ExtendRenewalDateResponse.self, from: Data(#"{"effectiveDate":1698148900123}"#.utf8))
        #expect(dated.effectiveDate == Date(timeIntervalSince1970: 1_698_148_900.123))
    }

    /// Decodes a file as the client decodes a 2xx body, and checks that it re-encodes to the same JSON value.
    private func decode<T: Codable>(_ type: T.Type, _ file: String) async throws -> T {
        let body = try Vectors.api(file)
        let value = try AppStoreServerAPIClient.decode(T.self, from: body)
        let again = try AppStoreServerAPIClient.decode(T.self, from: APIJSON.encoder().encode(value))
        #expect(
            try JSONDecoder().decode(JSONValue.self, from: APIJSON.encoder().encode(again))
                == JSONDecoder().decode(JSONValue.self, from: body), "\(file) round-trips")
        return value
    }
}
