import Foundation
import JWSVerify
import Testing

@testable import AppStoreServerAPI

@Suite("Requests, errors and retries of the client (in-memory transport)")
struct ClientRequestTests {
    /// Input: Get Transaction History with every filter. Expected: GET on /inApps/v2/history/{id}, the query in
    /// Apple's names, the bearer token, Accept JSON, no body.
    @Test("Get Transaction History sends Apple's path, query and headers")
    func historyRequest() async throws {
        let transport = InMemoryTransport(body: try Vectors.api("transactionHistoryResponse.json"))
        let request = TransactionHistoryRequest(
            startDate: Date(timeIntervalSince1970: 123.456), endDate: Date(timeIntervalSince1970: 234.567),
            productIds: ["a", "b"], productTypes: [.consumable], sort: .ascending,
            subscriptionGroupIdentifiers: ["g"], inAppOwnershipType: .familyShared, revoked: false)
        _ = try await Fixtures.client(transport).getTransactionHistory(
            anyTransactionId: "1234", revision: "rev", transactionHistoryRequest: request)
        let sent = try #require(transport.requests.first)
        #expect(sent.method == "GET" && sent.url.path == "/inApps/v2/history/1234" && sent.body == nil)
        #expect(
            sent.url.query
                == "revision=rev&startDate=123456&endDate=234567&productId=a&productId=b&productType=CONSUMABLE"
                + "&sort=ASCENDING&subscriptionGroupIdentifier=g&inAppOwnershipType=FAMILY_SHARED&revoked=false")
        #expect(sent.value(forHeader: "authorization")?.hasPrefix("Bearer ey") == true)
        #expect(sent.value(forHeader: "Accept") == "application/json")
    }

    /// Input: an id with a slash and a question mark. Expected: one path segment, percent-encoded.
    @Test("an identifier cannot add a path segment or a query")
    func pathEscaping() async throws {
        let transport = InMemoryTransport(body: Data("{}".utf8))
        _ = try await Fixtures.client(transport).getTransactionInfo(transactionId: "../1?x=y")
        let sent = try #require(transport.requests.first)
        #expect(sent.url.absoluteString == "https://api.example.test/inApps/v1/transactions/..%2F1%3Fx=y")
        let error = await #expect(throws: APIError.self) {
            try await Fixtures.client(transport).getTransactionInfo(transactionId: "..")
        }
        #expect(error?.kind == .invalidRequest)
    }

    /// Input: Get Notification History with a pagination token. Expected: POST with the token in the query and a
    /// JSON body with dates in milliseconds.
    @Test("Get Notification History posts its body with the pagination token in the query")
    func notificationHistoryRequest() async throws {
        let transport = InMemoryTransport(body: try Vectors.api("getNotificationHistoryResponse.json"))
        _ = try await Fixtures.client(transport).getNotificationHistory(
            paginationToken: "tok",
            notificationHistoryRequest: NotificationHistoryRequest(
                startDate: Date(timeIntervalSince1970: 1), endDate: Date(timeIntervalSince1970: 2),
                notificationType: .subscribed, onlyFailures: true))
        let sent = try #require(transport.requests.first)
        #expect(sent.method == "POST" && sent.url.path == "/inApps/v1/notifications/history")
        #expect(sent.url.query == "paginationToken=tok")
        #expect(sent.value(forHeader: "Content-Type") == "application/json")
        #expect(
            String(decoding: try #require(sent.body), as: UTF8.self)
                == #"{"endDate":2000,"notificationType":"SUBSCRIBED","onlyFailures":true,"startDate":1000}"#)
    }

    /// Input: 429 with `Retry-After: 7`, and a 503 with an HTTP date 5 seconds ahead. Expected: retryable errors
    /// with retryAfter 7 s and 5 s.
    @Test("Retry-After is parsed in seconds and as an HTTP date")
    func retryAfter() async throws {
        let now = Date(timeIntervalSince1970: 1_780_000_000)
        let configuration = AppStoreServerAPIClient.Configuration(now: { now })
        let seconds = InMemoryTransport(
            status: 429, headers: ["retry-after": "7"], body: try Vectors.api("apiTooManyRequestsException.json"))
        let error = await #expect(throws: APIError.self) {
            try await Fixtures.client(seconds, configuration: configuration).getTransactionInfo(transactionId: "1")
        }
        #expect(error?.isRetryable == true && error?.retryAfter == .seconds(7))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let date = InMemoryTransport(
            status: 503, headers: ["Retry-After": formatter.string(from: now.addingTimeInterval(5))], body: Data())
        let dated = await #expect(throws: APIError.self) {
            try await Fixtures.client(date, configuration: configuration).getTransactionInfo(transactionId: "1")
        }
        #expect(dated?.isRetryable == true && dated?.retryAfter == .seconds(5) && dated?.statusCode == 503)
        #expect(RetryAfter.parse("soon", now: now) == nil && RetryAfter.parse("-3", now: now) == nil)
    }

    /// Input: 500, 429, then 200, with a policy of 3 retries. Expected: the call succeeds after three requests.
    /// With no policy, the first 500 is thrown after one request.
    @Test("opt-in retries retry 429 and 5xx, and only when asked")
    func retries() async throws {
        let answers: [Result<APIResponse, APIError>] = [
            .success(APIResponse(status: 500, body: Data())),
            .success(APIResponse(status: 429, headers: ["Retry-After": "0"], body: Data())),
            .success(APIResponse(status: 200, body: Data(#"{"signedTransactionInfo":"x"}"#.utf8))),
        ]
        let policy = RetryPolicy(maximumRetries: 3, baseDelay: .milliseconds(1), maximumDelay: .milliseconds(5))
        let retrying = InMemoryTransport(answers)
        let response = try await Fixtures.client(retrying, configuration: .init(retryPolicy: policy))
            .getTransactionInfo(transactionId: "1")
        #expect(response.signedTransactionInfo == "x" && retrying.requests.count == 3)
        let plain = InMemoryTransport(answers)
        await #expect(throws: APIError.self) { try await Fixtures.client(plain).getTransactionInfo(transactionId: "1") }
        #expect(plain.requests.count == 1)
    }

    /// Input: 400 (not retryable) with a retry policy. Expected: one request only.
    @Test("a 4xx other than 429 is never retried")
    func noRetryOn400() async throws {
        let transport = InMemoryTransport(status: 400, body: try Vectors.api("invalidTransactionIdError.json"))
        let policy = RetryPolicy(maximumRetries: 3, baseDelay: .milliseconds(1))
        let error = await #expect(throws: APIError.self) {
            try await Fixtures.client(transport, configuration: .init(retryPolicy: policy))
                .getTransactionInfo(transactionId: "1")
        }
        #expect(error?.isRetryable == false && transport.requests.count == 1)
    }

    /// Input: the jittered backoff of retries 0–4 with random 1.0. Expected: base × 2^n capped at the maximum;
    /// random 0 gives zero; no delay past the last retry.
    @Test("the backoff doubles, is capped and jittered")
    func backoff() {
        let policy = RetryPolicy(maximumRetries: 5, baseDelay: .milliseconds(100), maximumDelay: .milliseconds(500))
        let error = APIError(kind: .httpError, statusCode: 503, message: "busy")
        #expect(
            (0..<5).map { policy.delay(beforeRetry: $0, after: error, random: 1) } == [
                .milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(500), .milliseconds(500),
            ])
        #expect(policy.delay(beforeRetry: 0, after: error, random: 0) == .zero)
        #expect(policy.delay(beforeRetry: 5, after: error, random: 1) == nil)
    }

    /// Input: an error body whose message holds an escape sequence and a newline. Expected: the message is
    /// escaped, no control character reaches the error's text.
    @Test("error text from a response is escaped before it can reach a terminal")
    func escapedMessage() async throws {
        let body = Data(#"{"errorCode":4000006,"errorMessage":"bad\u001b[31m\nid"}"#.utf8)
        let error = await #expect(throws: APIError.self) {
            try await Fixtures.client(InMemoryTransport(status: 400, body: body)).getTransactionInfo(transactionId: "1")
        }
        let texts = [error?.errorMessage ?? "", error?.message ?? "", error?.description ?? ""]
        for text in texts {
            #expect(!text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(text)")
        }
    }

    /// Input: a body larger than the configured bound from a transport that ignores the bound. Expected:
    /// responseTooLarge.
    @Test("a response larger than the bound is refused")
    func tooLarge() async throws {
        let transport = InMemoryTransport(body: Data(repeating: 0x20, count: 2048))
        let error = await #expect(throws: APIError.self) {
            try await Fixtures.client(transport, configuration: .init(maximumResponseBytes: 1024))
                .getTransactionInfo(transactionId: "1")
        }
        #expect(error?.kind == .responseTooLarge)
    }

    /// Input: Apple's top-level spelling `GetTransactionHistoryVersion` (deprecated here: the test is too, so that
    /// it builds without a warning). Expected: the nested type, with the same cases.
    @available(*, deprecated, message: "uses Apple's top-level spelling on purpose")
    @Test("Apple's top-level GetTransactionHistoryVersion is the nested type")
    func applesTopLevelVersionName() {
        let version: GetTransactionHistoryVersion = .v1
        #expect(version == AppStoreServerAPIClient.GetTransactionHistoryVersion.v1)
        #expect(GetTransactionHistoryVersion.v2.rawValue == "v2")
    }

    /// Input: the Xcode environment. Expected: invalidRequest (it has no API).
    @Test("the Xcode environment has no base URL")
    func xcodeHasNoAPI() throws {
        #expect(AppStoreServerAPIClient.baseURL(for: .production)?.absoluteString == "https://api.storekit.apple.com")
        #expect(
            AppStoreServerAPIClient.baseURL(for: .sandbox)?.absoluteString == "https://api.storekit-sandbox.apple.com")
        #expect(AppStoreServerAPIClient.baseURL(for: .xcode) == nil)
        #expect(throws: APIError.self) {
            try AppStoreServerAPIClient(
                signingKey: Fixtures.keyPEM(), keyId: "K", issuerId: "I", bundleId: "b", environment: .xcode)
        }
    }
}

@Suite("Cancellation of a call")
struct CancellationTests {
    /// A transport that answers after 30 seconds, or throws when its task is cancelled.
    struct SlowTransport: APITransport {
        func send(_ request: APIRequest) async throws -> APIResponse {
            try await Task.sleep(for: .seconds(30))
            return APIResponse(status: 200, body: Data("{}".utf8))
        }
    }

    /// Input: a call through a transport that would answer in 30 s, its task cancelled after 50 ms. Expected:
    /// APIError cancelled (the transport's answer never arrives).
    @Test("cancelling the task ends the call with cancelled")
    func cancelled() async throws {
        let error = try await Self.errorOfCancelledCall(Fixtures.client(SlowTransport()), after: .milliseconds(50))
        #expect(error?.kind == .cancelled)
    }

    /// Starts Get Transaction Info, cancels its task after `delay`, and returns its error; records an issue when
    /// the call returned. No wall-clock bound: under a loaded test run the cooperative pool may start the task
    /// late; a cancellation that did not work shows as a success (the slow transport answers) or as another
    /// error (the retries run).
    static func errorOfCancelledCall(
        _ client: AppStoreServerAPIClient, after delay: Duration
    ) async throws
        -> APIError?
    {
        let task = Task { try await client.getTransactionInfo(transactionId: "1") }
        try await Task.sleep(for: delay)
        task.cancel()
        let result = await task.result
        guard case .failure(let error) = result else {
            Issue.record("the call returned")
            return nil
        }
        return error as? APIError
    }

    /// Input: a 503 with Retry-After 30 and a policy that retries, the task cancelled while it waits. Expected:
    /// cancelled, after one request (no retry was made).
    @Test("cancelling the task stops the wait before a retry")
    func cancelledWhileWaiting() async throws {
        let transport = InMemoryTransport(status: 503, headers: ["Retry-After": "30"], body: Data())
        let policy = RetryPolicy(maximumRetries: 3, maximumDelay: .seconds(60))
        let client = try Fixtures.client(transport, configuration: .init(retryPolicy: policy))
        let error = try await Self.errorOfCancelledCall(client, after: .milliseconds(100))
        #expect(error?.kind == .cancelled && transport.requests.count == 1)
    }
}
