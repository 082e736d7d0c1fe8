import AppStoreServerAPI
import AppStoreServerAPIEmulator
import Foundation
import JWSSigning
import JWSVerify
import JWSVerifyTesting
import Testing

/// Errors over loopback: Apple's documented error bodies, rate limits with and without `Retry-After`, server
/// errors, a response slower than the timeout, truncated and non-JSON bodies. Each becomes an ``APIError`` a
/// server can branch on, never a crash.
@Suite("App Store Server API client: errors on loopback")
struct LoopbackErrorTests {
    static let id = "2000000001"
    static let path = "/inApps/v1/transactions/\(id)"

    /// Calls Get Transaction Info against a route that answers `responses`; returns the error and the loopback.
    static func failure(
        _ responses: [APIEmulatorProcess.Response],
        configure: @escaping (inout AppStoreServerAPIClient.Configuration) -> Void = { _ in }
    ) async throws -> (APIError?, Loopback) {
        let loopback = try await Loopback(routes: { _ in [.init("GET", path, responses)] }, configure: configure)
        let error = await apiError { () async throws(APIError) in
            _ = try await loopback.client.getTransactionInfo(transactionId: id)
        }
        return (error, loopback)
    }

    /// One of Apple's documented error bodies and the status Apple sends it with.
    struct Documented: Sendable, CustomTestStringConvertible {
        var vector: String
        var status: Int
        var code: Int64
        var testDescription: String { vector }
    }

    static let documented: [Documented] = [
        Documented(vector: "invalidTransactionIdError", status: 400, code: 4_000_006),
        Documented(vector: "invalidAppAccountTokenUUIDError", status: 400, code: 4_000_183),
        Documented(vector: "familyTransactionNotSupportedError", status: 400, code: 4_000_185),
        Documented(vector: "transactionIdNotOriginalTransactionId", status: 400, code: 4_000_187),
        Documented(vector: "transactionIdNotFoundError", status: 404, code: 4_040_010),
        Documented(vector: "appTransactionDoesNotExistError", status: 404, code: 4_040_019),
        Documented(vector: "apiTooManyRequestsException", status: 429, code: 4_290_000),
        Documented(vector: "apiException", status: 500, code: 5_000_000),
        Documented(vector: "apiUnknownError", status: 400, code: 9_990_000),
    ]

    /// Input: each of Apple's error bodies (TestVectors/apple-library/api) with its status. Expected: an
    /// ``APIError`` of kind `httpError` with that status, Apple's numeric code kept raw (also for an unknown
    /// code), the message, and retryable exactly for 429 and 5xx.
    @Test("each documented error body becomes an APIError with Apple's code", arguments: documented)
    func documentedErrorBody(documented: Documented) async throws {
        let body = try #require(LoopbackEndpointTests.Call.vector(documented.vector))
        guard case .object(let object) = body, case .integer(let code) = object["errorCode"] else {
            Issue.record("\(documented.vector) has no errorCode")
            return
        }
        #expect(code == documented.code)
        let (error, loopback) = try await Self.failure([.init(status: documented.status, json: body)])
        defer { loopback.finish() }
        #expect(error?.kind == .httpError)
        #expect(error?.statusCode == documented.status)
        #expect(error?.rawAPIError == documented.code)
        #expect(error?.apiError?.rawValue == documented.code)
        #expect(error?.errorMessage?.isEmpty == false)
        #expect(error?.isRetryable == (documented.status == 429 || documented.status >= 500))
        try await loopback.expectAppleShapedRequests(count: 1)
    }

    /// Input: 429 with Apple's rate-limit body and `Retry-After: 7`. Expected: retryable, `retryAfter` 7 s,
    /// code 4290000.
    @Test("429 with Retry-After is retryable after the stated delay")
    func rateLimitedWithRetryAfter() async throws {
        let (error, loopback) = try await Self.failure([
            .appleError(status: 429, code: 4_290_000, message: "Rate limit exceeded.", headers: ["Retry-After": "7"])
        ])
        defer { loopback.finish() }
        #expect(error?.statusCode == 429)
        #expect(error?.rawAPIError == 4_290_000)
        #expect(error?.isRetryable == true)
        #expect(error?.retryAfter == .seconds(7))
    }

    /// Input: 429 with no `Retry-After` and an empty body. Expected: retryable, no `retryAfter`, no Apple code.
    @Test("429 without Retry-After is retryable with no stated delay")
    func rateLimitedWithoutRetryAfter() async throws {
        let (error, loopback) = try await Self.failure([.init(status: 429)])
        defer { loopback.finish() }
        #expect(error?.kind == .httpError)
        #expect(error?.statusCode == 429)
        #expect(error?.rawAPIError == nil)
        #expect(error?.isRetryable == true)
        #expect(error?.retryAfter == nil)
    }

    /// Input: 500 with a plain-text body. Expected: `httpError` 500, retryable, message naming a body that is
    /// not Apple's error JSON.
    @Test("500 with a body that is not JSON is a retryable httpError")
    func serverError() async throws {
        let (error, loopback) = try await Self.failure([.init(status: 500, text: "<html>Internal Server Error</html>")])
        defer { loopback.finish() }
        #expect(error?.kind == .httpError)
        #expect(error?.statusCode == 500)
        #expect(error?.rawAPIError == nil)
        #expect(error?.isRetryable == true)
    }

    /// Input: a 429 then a 200, with a retry policy of two retries. Expected: the call succeeds after one
    /// retry; the emulator saw two good requests.
    @Test("an opt-in retry policy retries a 429 and succeeds")
    func retryPolicyRetries() async throws {
        let loopback = try await Loopback(
            routes: { _ in
                [
                    .init(
                        "GET", Self.path,
                        [
                            .appleError(
                                status: 429, code: 4_290_000, message: "Rate limit exceeded.",
                                headers: ["Retry-After": "0"]),
                            .init(json: .object(["signedTransactionInfo": .string("x")])),
                        ])
                ]
            },
            configure: {
                $0.retryPolicy = RetryPolicy(
                    maximumRetries: 2, baseDelay: .milliseconds(10), maximumDelay: .milliseconds(50))
            })
        defer { loopback.finish() }
        let response = try await loopback.client.getTransactionInfo(transactionId: Self.id)
        #expect(response.signedTransactionInfo == "x")
        try await loopback.expectAppleShapedRequests(count: 2)
    }

    /// Input: an answer delayed 20 s with a client timeout of 0.5 s. Expected: an error before the answer comes, of
    /// kind `timedOut` (the answer's delay leaves room for a loaded machine: in one CI run on 2 cores, with the
    /// answer 5 s away, the timeout's error came after 7.8 s).
    ///
    /// Whichever timer fires first (the transport's or URLSession's own `timeoutInterval`), the kind is `timedOut`.
    @Test("a response slower than the timeout times out")
    func slowResponseTimesOut() async throws {
        let loopback = try await Loopback(
            routes: { _ in
                [.init("GET", Self.path, [.init(json: .object(["signedTransactionInfo": .string("x")]), delay: 20)])]
            },
            configure: { $0.timeout = .milliseconds(500) })
        defer { loopback.finish() }
        let started = ContinuousClock.now
        let error = await apiError { () async throws(APIError) in
            _ = try await loopback.client.getTransactionInfo(transactionId: Self.id)
        }
        #expect(ContinuousClock.now - started < .seconds(20))
        #expect(error?.kind == .timedOut, "\(error.map { "\($0)" } ?? "")")
    }

    /// Input: a 200 whose JSON is cut after 20 bytes (and says so in Content-Length). Expected:
    /// `malformedResponse` whose message says the body is truncated.
    @Test("a truncated body is a malformed response")
    func truncatedBody() async throws {
        let (error, loopback) = try await Self.failure([
            .init(json: .object(["signedTransactionInfo": .string(String(repeating: "a", count: 40))]), truncate: 20)
        ])
        defer { loopback.finish() }
        #expect(error?.kind == .malformedResponse)
        #expect(error?.message.contains("truncated") == true, "\(error?.message ?? "")")
    }

    /// Input: a 200 that declares 100 bytes and closes the connection after 10. Expected: an error (the
    /// transport's or a malformed response), never a decoded response.
    @Test("a connection that ends before its Content-Length is an error")
    func connectionEndsEarly() async throws {
        let (error, loopback) = try await Self.failure([
            .init(json: .object(["signedTransactionInfo": .string("x")]), truncate: 10, declaredLength: 100)
        ])
        defer { loopback.finish() }
        #expect(
            error.map { [.network, .malformedResponse].contains($0.kind) } == true, "\(error.map { "\($0)" } ?? "")")
    }

    /// Input: a 200 with an HTML body, and a 200 with an empty body. Expected: `malformedResponse` saying the
    /// body is not JSON, and that it is empty.
    @Test("a body that is not JSON is a malformed response")
    func nonJSONBody() async throws {
        let (html, first) = try await Self.failure([
            .init(headers: ["Content-Type": "text/html"], text: "<html></html>")
        ])
        first.finish()
        #expect(html?.kind == .malformedResponse)
        #expect(html?.message.contains("not JSON") == true, "\(html?.message ?? "")")
        let (empty, second) = try await Self.failure([.init()])
        second.finish()
        #expect(empty?.kind == .malformedResponse)
        #expect(empty?.message.contains("empty") == true, "\(empty?.message ?? "")")
    }

    /// Input: a verified call whose answer is a 401 from the emulator because the client's key is not the one
    /// the emulator knows. Expected: `httpError` 401, not retryable; the emulator records the bad signature.
    @Test("a bearer token signed by another key is refused with 401")
    func wrongKeyIsUnauthorized() async throws {
        let loopback = try await Loopback { _ in [] }
        defer { loopback.finish() }
        let other = try AppStoreServerAPIClient(
            signingKey: ES256SigningKey(pemRepresentation: TestPrivateKey.generate(curve: .p256).pkcs8PEM()),
            keyId: loopback.credentials.keyId, issuerId: loopback.credentials.issuerId,
            bundleId: loopback.credentials.bundleId, baseURL: loopback.emulator.baseURL)
        let error = await apiError { () async throws(APIError) in
            _ = try await other.getTransactionInfo(transactionId: Self.id)
        }
        #expect(error?.statusCode == 401)
        #expect(error?.isRetryable == false)
        let violations = try await loopback.emulator.violations()
        #expect(violations.count == 1 && violations[0].contains("signature"), "\(violations)")
    }
}
