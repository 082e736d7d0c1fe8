import AppStoreServerAPIEmulator
import Foundation
import JWSVerify
import Testing

@testable import AppStoreServerAPI

/// The retry rules of ``RetryPolicy`` against the emulator: what is repeated, after which answers, and a
/// `Retry-After` the policy will not wait for.
@Suite("App Store Server API client: retries on loopback")
struct LoopbackRetryTests {
    static let transactionPath = "/inApps/v1/transactions/2000000001"
    static let testPath = "/inApps/v1/notifications/test"
    static let historyPath = "/inApps/v1/notifications/history"

    static let policy = RetryPolicy(maximumRetries: 3, baseDelay: .milliseconds(10), maximumDelay: .seconds(2))

    static let testAnswer = APIEmulatorProcess.Response(json: .object(["testNotificationToken": .string("t")]))

    /// A loopback whose client retries with ``policy``; `timeout` is the client's.
    static func loopback(
        _ routes: [APIEmulatorProcess.Route], timeout: Duration = .seconds(10)
    ) async throws -> Loopback {
        try await Loopback(
            routes: { _ in routes },
            configure: {
                $0.retryPolicy = policy
                $0.timeout = timeout
            })
    }

    /// Input: Request a Test Notification (a POST that is not safe to repeat) answered 500 with Apple's error
    /// body, then 200. Expected: the 500 is returned after one request: a 500 may have been processed.
    @Test("a POST that is not safe to repeat is not retried after a 500")
    func noRetryOf500ForTestNotification() async throws {
        let loopback = try await Self.loopback([
            .init(
                "POST", Self.testPath,
                [.appleError(status: 500, code: 5_000_000, message: "An unknown error occurred."), Self.testAnswer])
        ])
        defer { loopback.finish() }
        let error = await apiError { () async throws(APIError) in
            _ = try await loopback.client.requestTestNotification()
        }
        #expect(error?.statusCode == 500)
        #expect(error?.isRetryable == true)
        try await loopback.expectAppleShapedRequests(count: 1)
    }

    /// Input: Request a Test Notification answered 429, then 503 with `Retry-After: 0`, then 200. Expected:
    /// success after three requests: neither answer was processed.
    @Test("a POST that is not safe to repeat is retried after 429 and after 503 with Retry-After")
    func retryOfUnprocessedPost() async throws {
        let loopback = try await Self.loopback([
            .init(
                "POST", Self.testPath,
                [
                    .appleError(status: 429, code: 4_290_000, message: "Rate limit exceeded."),
                    .init(status: 503, headers: ["Retry-After": "0"]),
                    Self.testAnswer,
                ])
        ])
        defer { loopback.finish() }
        let answer = try await loopback.client.requestTestNotification()
        #expect(answer.testNotificationToken == "t")
        try await loopback.expectAppleShapedRequests(count: 3)
    }

    /// Input: Request a Test Notification answered 503 without `Retry-After`. Expected: returned after one
    /// request.
    @Test("a POST that is not safe to repeat is not retried after 503 without Retry-After")
    func noRetryOf503WithoutRetryAfter() async throws {
        let loopback = try await Self.loopback([
            .init("POST", Self.testPath, [.init(status: 503), Self.testAnswer])
        ])
        defer { loopback.finish() }
        let error = await apiError { () async throws(APIError) in
            _ = try await loopback.client.requestTestNotification()
        }
        #expect(error?.statusCode == 503)
        try await loopback.expectAppleShapedRequests(count: 1)
    }

    /// Input: Request a Test Notification whose answer comes after 20 s, with a timeout of 3 s (room for the
    /// emulator's pure-Python signature check on a loaded machine). Expected: `timedOut` after one request (the
    /// notification may have been sent): a second later, the emulator has seen one request (a retry would have
    /// followed within milliseconds).
    @Test("a POST that is not safe to repeat is not retried after a timeout")
    func noRetryOfTimedOutPost() async throws {
        let loopback = try await Self.loopback(
            [.init("POST", Self.testPath, [.init(json: .object([:]), delay: 20), Self.testAnswer])],
            timeout: .seconds(3))
        defer { loopback.finish() }
        let error = await apiError { () async throws(APIError) in
            _ = try await loopback.client.requestTestNotification()
        }
        #expect(error?.kind == .timedOut)
        try await Task.sleep(for: .seconds(1))
        try await loopback.expectAppleShapedRequests(count: 1)
    }

    /// Input: Get Transaction Info (GET) whose first answer comes after 20 s, then at once; timeout 3 s.
    /// Expected: retried after the timeout, and succeeds.
    @Test("a GET is retried after a timeout")
    func retryOfTimedOutGet() async throws {
        let loopback = try await Self.loopback(
            [
                .init(
                    "GET", Self.transactionPath,
                    [
                        .init(json: .object([:]), delay: 20),
                        .init(json: .object(["signedTransactionInfo": .string("x")])),
                    ])
            ],
            timeout: .seconds(3))
        defer { loopback.finish() }
        let response = try await loopback.client.getTransactionInfo(transactionId: "2000000001")
        #expect(response.signedTransactionInfo == "x")
        try await loopback.expectAppleShapedRequests(count: 2)
    }

    /// Input: Get Notification History (a POST that is a query) answered 500, then a page. Expected: retried,
    /// and succeeds after two requests.
    @Test("Get Notification History, a query, is retried after a 500")
    func retryOfNotificationHistory() async throws {
        let loopback = try await Self.loopback([
            .init(
                "POST", Self.historyPath,
                [
                    .appleError(status: 500, code: 5_000_000, message: "An unknown error occurred."),
                    .init(json: .object(["hasMore": .bool(false), "notificationHistory": .array([])])),
                ])
        ])
        defer { loopback.finish() }
        let now = Date()
        let page = try await loopback.client.getNotificationHistory(
            paginationToken: nil,
            notificationHistoryRequest: NotificationHistoryRequest(
                startDate: now.addingTimeInterval(-86_400), endDate: now))
        #expect(page.hasMore == false)
        try await loopback.expectAppleShapedRequests(count: 2)
    }

    /// Input: a GET answered 503 with `Retry-After: 120` (and a policy whose longest wait is 2 s), then 200.
    /// Expected: the 503 is returned at once, with its `retryAfter`, after one request: no shortened wait, no
    /// early retry.
    @Test("a Retry-After longer than the policy's maximum delay ends the retries")
    func retryAfterBeyondTheMaximum() async throws {
        let loopback = try await Self.loopback([
            .init(
                "GET", Self.transactionPath,
                [
                    .init(status: 503, headers: ["Retry-After": "120"]),
                    .init(json: .object(["signedTransactionInfo": .string("x")])),
                ])
        ])
        defer { loopback.finish() }
        let error = await apiError { () async throws(APIError) in
            _ = try await loopback.client.getTransactionInfo(transactionId: "2000000001")
        }
        #expect(error?.statusCode == 503)
        #expect(error?.retryAfter == .seconds(120))
        try await loopback.expectAppleShapedRequests(count: 1)
    }

    /// Input: a 429 whose `Retry-After` is an HTTP date in the obsolete RFC 850 form, 1 s ahead, then 200.
    /// Expected: retried after the date, and succeeds.
    @Test("a Retry-After in the RFC 850 date form is honoured")
    func retryAfterRFC850Date() async throws {
        let date = Self.rfc850(Date().addingTimeInterval(1))
        let loopback = try await Self.loopback([
            .init(
                "GET", Self.transactionPath,
                [
                    .init(status: 429, headers: ["Retry-After": date]),
                    .init(json: .object(["signedTransactionInfo": .string("x")])),
                ])
        ])
        defer { loopback.finish() }
        let response = try await loopback.client.getTransactionInfo(transactionId: "2000000001")
        #expect(response.signedTransactionInfo == "x")
        try await loopback.expectAppleShapedRequests(count: 2)
    }

    /// `Sunday, 06-Nov-94 08:49:37 GMT` for `date`.
    static func rfc850(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let parts = calendar.dateComponents([.weekday, .day, .month, .year, .hour, .minute, .second], from: date)
        let days = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int?) -> String { String(format: "%02d", (value ?? 0) % 100) }
        return "\(days[(parts.weekday ?? 1) - 1]), \(two(parts.day))-\(months[(parts.month ?? 1) - 1])-"
            + "\(two(parts.year)) \(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) GMT"
    }
}

/// `Retry-After` and the retry rules as values: the three HTTP-date forms, an overflow, and the decisions of
/// ``RetryPolicy`` for requests that are and are not safe to repeat.
@Suite("Retry-After and the retry rules")
struct RetryRuleTests {
    static let now = Date(timeIntervalSince1970: 784_111_777 - 7)  // 7 s before Sun, 06 Nov 1994 08:49:37 GMT

    /// Input: RFC 9110 §5.6.7's example date in its three forms, 7 s after now. Expected: 7 s each.
    @Test(
        "the three HTTP-date forms of RFC 9110 are read",
        arguments: [
            "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
        ])
    func httpDateForms(text: String) {
        #expect(RetryAfter.parse(text, now: Self.now) == .seconds(7), "\(text)")
    }

    /// Input: dates that are not exactly one of the forms, or that do not exist. Expected: nil each.
    @Test(
        "malformed HTTP dates are ignored",
        arguments: [
            "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 UTC", "sun, 06 nov 1994 08:49:37 GMT",
            "Sun, 31 Feb 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT", "Sunday, 06-Nov-1994 08:49:37 GMT",
            "Sun Nov 6 08:49:37 1994", "Sun, 06 Nov 1994 08:49:37 GMT x", "Sun, 06 Nov 1994 08:49:37",
        ])
    func malformedDates(text: String) {
        #expect(RetryAfter.parse(text, now: Self.now) == nil, "\(text)")
    }

    /// Input: seconds with more digits than 64 bits hold, and 64 digits. Expected: ignored (nil), no trap; a
    /// number that fits is read.
    @Test("a seconds value that overflows is ignored")
    func overflow() {
        #expect(RetryAfter.parse("99999999999999999999", now: Self.now) == nil)
        #expect(RetryAfter.parse(String(repeating: "9", count: 64), now: Self.now) == nil)
        #expect(RetryAfter.parse("9223372036854775807", now: Self.now) == .seconds(Int64.max))
        #expect(RetryAfter.parse(" 120 ", now: Self.now) == .seconds(120))
    }

    /// Input: an RFC 850 date whose two-digit year would be more than 50 years ahead. Expected: the year a
    /// century earlier (RFC 9110 §5.6.7), so a date in the past: a wait of zero.
    @Test("an RFC 850 two-digit year more than 50 years ahead is in the past century")
    func rfc850Century() {
        let now = Date(timeIntervalSince1970: 1_780_000_000)  // 2026
        #expect(RetryAfter.parse("Monday, 06-Nov-90 08:49:37 GMT", now: now) == .zero)  // 1990, not 2090
        #expect(RetryAfter.parse("Friday, 06-Nov-37 08:49:37 GMT", now: now).map { $0 > .zero } == true)  // 2037
    }

    /// Input: the decisions for 500, 503 with and without Retry-After, 429, a timeout and a network failure, for
    /// a request safe to repeat and one that is not. Expected: the rules of ``RetryPolicy``.
    @Test("what a request that is not safe to repeat is retried after")
    func unsafeRequests() {
        let policy = RetryPolicy(maximumRetries: 3, baseDelay: .milliseconds(100), maximumDelay: .seconds(10))
        let errors: [(APIError, safe: Bool, unsafe: Bool)] = [
            (APIError(kind: .httpError, statusCode: 500, message: ""), true, false),
            (APIError(kind: .httpError, statusCode: 503, message: ""), true, false),
            (APIError(kind: .httpError, statusCode: 503, retryAfter: .seconds(1), message: ""), true, true),
            (APIError(kind: .httpError, statusCode: 429, message: ""), true, true),
            (APIError(kind: .httpError, statusCode: 404, rawAPIError: 4_040_002, message: ""), true, true),
            (APIError(kind: .timedOut, message: ""), true, false),
            (APIError(kind: .network, message: ""), true, false),
            (APIError(kind: .httpError, statusCode: 400, message: ""), false, false),
        ]
        for (error, safe, unsafe) in errors {
            #expect(
                (policy.delay(beforeRetry: 0, after: error, safeToRepeat: true, random: 1) != nil) == safe, "\(error)")
            #expect(
                (policy.delay(beforeRetry: 0, after: error, safeToRepeat: false, random: 1) != nil) == unsafe,
                "\(error)")
        }
        let late = APIError(kind: .httpError, statusCode: 429, retryAfter: .seconds(11), message: "")
        #expect(policy.delay(beforeRetry: 0, after: late, random: 1) == nil)
        let onTime = APIError(kind: .httpError, statusCode: 429, retryAfter: .seconds(10), message: "")
        #expect(policy.delay(beforeRetry: 0, after: onTime, random: 1) == .seconds(10))
    }

    /// Input: the client's requests. Expected: GET, PUT, DELETE and Get Notification History are safe to repeat;
    /// the other POSTs are not; an `APIRequest` made without saying follows its method.
    @Test("which requests are safe to repeat")
    func safeToRepeat() throws {
        typealias Client = AppStoreServerAPIClient
        #expect(Client.isSafeToRepeat(.get, ["inApps", "v1", "transactions", "1"]))
        #expect(Client.isSafeToRepeat(.put, ["inApps", "v2", "transactions", "consumption", "1"]))
        #expect(Client.isSafeToRepeat(.delete, ["inApps", "v1", "messaging", "realtime", "url"]))
        #expect(Client.isSafeToRepeat(.post, ["inApps", "v1", "notifications", "history"]))
        for path in [
            ["inApps", "v1", "notifications", "test"], ["inApps", "v1", "subscriptions", "extend", "mass"],
            ["inApps", "v1", "transactions", "1", "finish"], ["inApps", "v1", "messaging", "performanceTest"],
        ] {
            #expect(!Client.isSafeToRepeat(.post, path), "\(path)")
        }
        let url = try #require(URL(string: "https://api.example.test/"))
        #expect(APIRequest(method: "GET", url: url).isSafeToRepeat)
        #expect(!APIRequest(method: "POST", url: url).isSafeToRepeat)
        #expect(APIRequest(method: "POST", url: url, isSafeToRepeat: true).isSafeToRepeat)
    }
}
