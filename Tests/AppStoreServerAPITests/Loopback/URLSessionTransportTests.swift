import AppStoreServerAPIEmulator
import Foundation
import JWSSigning
import JWSVerify
import Testing

@testable import AppStoreServerAPI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// ``URLSessionTransport`` against the emulator on loopback: it never follows a redirect, and every exchange
/// (normal, a body over the bound, a timeout, a cancellation, a cancellation before it started) resumes its caller
/// once and invalidates the session it made. ``ExchangeProbe`` counts both.
@Suite("URLSessionTransport on loopback")
struct URLSessionTransportTests {
    static let id = "2000000001"
    static let path = "/inApps/v1/transactions/\(id)"

    /// The emulator answering `responses` on ``path``, a transport counted by a probe, and a request for ``path``
    /// with a good bearer token.
    struct Fixture {
        let credentials: APICredentials
        let emulator: APIEmulatorProcess
        let probe = ExchangeProbe()
        var transport: URLSessionTransport { URLSessionTransport(probe: probe) }

        init(_ responses: [APIEmulatorProcess.Response]) async throws {
            credentials = try APICredentials()
            do {
                emulator = try await APIEmulatorProcess(
                    credentials: credentials, routes: [.init("GET", URLSessionTransportTests.path, responses)])
            } catch {
                credentials.removeFiles()
                throw error
            }
        }

        func request(timeout: Duration = .seconds(20), maximumResponseBytes: Int = 1 << 20) throws -> APIRequest {
            let url = try #require(URL(string: emulator.baseURL.absoluteString + URLSessionTransportTests.path))
            return APIRequest(
                method: "GET", url: url,
                headers: [("Authorization", "Bearer " + (try credentials.bearerToken()))], timeout: timeout,
                maximumResponseBytes: maximumResponseBytes)
        }

        /// Waits (at most `wait`: invalidation is reported on the session's delegate queue) until every session the
        /// transport made is invalidated, then expects that and `resumed` resumptions.
        func expectEveryExchangeEnded(
            made: Int? = nil, resumed: Int, within wait: Duration = .seconds(10),
            sourceLocation: SourceLocation = #_sourceLocation
        ) async throws {
            let deadline = ContinuousClock.now + wait
            while probe.snapshot.invalidated < probe.snapshot.made, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            let counts = probe.snapshot
            #expect(
                counts.invalidated == counts.made, "sessions not invalidated: \(counts)", sourceLocation: sourceLocation
            )
            #expect(counts.resumed == resumed, "\(counts)", sourceLocation: sourceLocation)
            if let made { #expect(counts.made == made, "\(counts)", sourceLocation: sourceLocation) }
        }

        func finish() {
            emulator.stop()
            credentials.removeFiles()
        }
    }

    /// Input: Get Transaction Info on an emulator that answers 302 with a Location on a second emulator (same key,
    /// so it would accept the token). Expected: `httpError` 302 whose message says the redirect was not followed;
    /// the second emulator received no request; the transport returned the 302 itself; its session was
    /// invalidated.
    @Test("a redirect is never followed: the bearer token reaches no other URL")
    func redirectIsNotFollowed() async throws {
        let credentials = try APICredentials()
        defer { credentials.removeFiles() }
        let target = try await APIEmulatorProcess(
            credentials: credentials,
            routes: [.init("GET", Self.path, [.init(json: .object(["signedTransactionInfo": .string("x")]))])])
        defer { target.stop() }
        let location = target.baseURL.absoluteString + Self.path
        let redirector = try await APIEmulatorProcess(
            credentials: credentials,
            routes: [.init("GET", Self.path, [.init(status: 302, headers: ["Location": location])])])
        defer { redirector.stop() }
        let client = AppStoreServerAPIClient(
            signingKey: try ES256SigningKey(pemRepresentation: credentials.apiKey.pkcs8PEM()),
            keyId: credentials.keyId, issuerId: credentials.issuerId, bundleId: credentials.bundleId,
            baseURL: redirector.baseURL)
        let error = await apiError { () async throws(APIError) in
            _ = try await client.getTransactionInfo(transactionId: Self.id)
        }
        #expect(error?.kind == .httpError)
        #expect(error?.statusCode == 302)
        #expect(error?.isRetryable == false)
        #expect(error?.message.contains("not followed") == true, "\(error?.message ?? "")")
        #expect(try await target.log().isEmpty, "the redirect was followed")
        #expect(try await redirector.log().count == 1)

        // The transport itself returns the 3xx, and ends its exchange cleanly.
        let probe = ExchangeProbe()
        let request = APIRequest(
            method: "GET", url: try #require(URL(string: redirector.baseURL.absoluteString + Self.path)),
            headers: [("Authorization", "Bearer " + (try credentials.bearerToken()))])
        let response = try await URLSessionTransport(probe: probe).send(request)
        #expect(response.status == 302)
        #expect(response.value(forHeader: "Location") == location)
        #expect(try await target.log().isEmpty, "the redirect was followed")
        #expect(probe.snapshot.resumed == 1)
    }

    /// Input: a 64 KiB body with a bound of 1 KiB. Expected: `responseTooLarge`; the continuation resumed once and
    /// the session invalidated.
    @Test("a body over the bound is responseTooLarge, and the exchange ends cleanly")
    func bodyOverTheBound() async throws {
        let fixture = try await Fixture([.init(text: String(repeating: "a", count: 64 << 10))])
        defer { fixture.finish() }
        let error = await #expect(throws: APIError.self) {
            try await fixture.transport.send(fixture.request(maximumResponseBytes: 1024))
        }
        #expect(error?.kind == .responseTooLarge)
        try await fixture.expectEveryExchangeEnded(made: 1, resumed: 1)
    }

    /// Input: a request whose answer comes in 30 s, its task cancelled after 300 ms. Expected: cancelled (an
    /// `APIError` of kind `cancelled` or `CancellationError`) well before the answer; the exchange ended cleanly.
    @Test("cancelling the awaiting task ends the exchange with cancelled, promptly")
    func cancellation() async throws {
        let fixture = try await Fixture([.init(json: .object([:]), delay: 30)])
        defer { fixture.finish() }
        let transport = fixture.transport
        let request = try fixture.request(timeout: .seconds(60))
        let started = ContinuousClock.now
        let task = Task { try await transport.send(request) }
        try await Task.sleep(for: .milliseconds(300))
        task.cancel()
        let result = await task.result
        #expect(ContinuousClock.now - started < .seconds(15), "not prompt")
        guard case .failure(let error) = result else {
            Issue.record("the exchange returned")
            return
        }
        #expect((error as? APIError)?.kind == .cancelled || error is CancellationError, "\(error)")
        try await fixture.expectEveryExchangeEnded(resumed: 1)
    }

    /// Input: a server that answers in 30 s, a timeout of 500 ms. Expected: `timedOut`, within the timeout plus
    /// slack for a loaded machine; the exchange ended cleanly.
    @Test("a server that does not answer times out within the timeout")
    func timeout() async throws {
        let fixture = try await Fixture([.init(json: .object([:]), delay: 30)])
        defer { fixture.finish() }
        let started = ContinuousClock.now
        let error = await #expect(throws: APIError.self) {
            try await fixture.transport.send(fixture.request(timeout: .milliseconds(500)))
        }
        #expect(ContinuousClock.now - started < .milliseconds(500) + .seconds(10), "not within the timeout")
        #expect(error?.kind == .timedOut, "\(error.map { "\($0)" } ?? "")")
        try await fixture.expectEveryExchangeEnded(made: 1, resumed: 1)
    }

    /// Input: an exchange started from a task that is already cancelled (past the transport's own check).
    /// Expected: `cancelled`, no session made at all (none left behind un-invalidated), the continuation resumed
    /// once.
    @Test("an exchange cancelled before it starts makes no session")
    func cancelledBeforeStart() async throws {
        let fixture = try await Fixture([.init(json: .object([:]))])
        defer { fixture.finish() }
        let request = try fixture.request()
        var urlRequest = URLRequest(url: request.url)
        for (name, value) in request.headers { urlRequest.addValue(value, forHTTPHeaderField: name) }
        let probe = fixture.probe
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await URLSessionExchange.run(
                urlRequest, like: URLSession(configuration: .ephemeral), timeout: .seconds(20), limit: 1024,
                probe: probe)
        }
        let result = await task.result
        guard case .failure(let error) = result else {
            Issue.record("the exchange returned")
            return
        }
        #expect((error as? APIError)?.kind == .cancelled || error is CancellationError, "\(error)")
        try await fixture.expectEveryExchangeEnded(made: 0, resumed: 1)
        #expect(try await fixture.emulator.log().isEmpty)
    }

    /// Input: a normal 200 answer, three times over one transport. Expected: each body returned; three sessions
    /// made, three invalidated, three resumptions.
    @Test("a normal exchange invalidates its session")
    func normalExchange() async throws {
        let fixture = try await Fixture([.init(json: .object(["signedTransactionInfo": .string("x")]))])
        defer { fixture.finish() }
        let transport = fixture.transport
        for _ in 0..<3 {
            let response = try await transport.send(fixture.request())
            #expect(response.status == 200)
            #expect(String(decoding: response.body, as: UTF8.self).contains("signedTransactionInfo"))
        }
        try await fixture.expectEveryExchangeEnded(made: 3, resumed: 3)
    }
}

/// ``URLSessionTransport`` against a hostile server on loopback (issue #39): bodies without end, declared too long,
/// compression bombs and trickles end promptly and cleanly. One at a time: each stream keeps a processor busy.
@Suite("URLSessionTransport against a hostile server on loopback", .serialized)
struct URLSessionTransportHostileTests {
    typealias Fixture = URLSessionTransportTests.Fixture

    /// The hostile answers: chunked, a declared `Content-Length` of 1 GiB, and a gzip stream of zeros (1 MiB inflated
    /// per write), a write every millisecond.
    static let endless: [APIEmulatorProcess.Response.Endless] = [
        .init(interval: 0.001), .init(interval: 0.001, declaredLength: 1 << 30),
        .init(interval: 0.001, encoding: "gzip"),
    ]

    /// Input (issue #39): 200 with a body without end from a hostile server: chunked, with a declared
    /// `Content-Length` of 1 GiB, and a gzip stream of zeros (a compression bomb), a write every millisecond, with a
    /// bound of 64 KiB and a timeout of 60 s. Expected: `responseTooLarge` within 20 s (before: with a larger
    /// body, sometimes no end at all, the continuation never resumed), the declared length refused before the body
    /// ("declares"); the continuation resumed once and the session invalidated.
    @Test(
        "a body without end, declared too long or a compression bomb is responseTooLarge, promptly and cleanly",
        arguments: endless)
    func endlessBody(endless: APIEmulatorProcess.Response.Endless) async throws {
        let fixture = try await Fixture([.init(endless: endless)])
        defer { fixture.finish() }
        let started = ContinuousClock.now
        let error = await #expect(throws: APIError.self) {
            try await fixture.transport.send(fixture.request(timeout: .seconds(60), maximumResponseBytes: 64 << 10))
        }
        #expect(ContinuousClock.now - started < .seconds(20), "not prompt")
        #expect(error?.kind == .responseTooLarge)
        if endless.declaredLength != nil {
            #expect(
                error?.message.contains("declares a body of 1073741824 bytes") == true, "\(String(describing: error))")
        }
        try await fixture.expectEveryExchangeEnded(made: 1, resumed: 1, within: .seconds(30))
    }

    /// Input: a server that trickles 16 bytes every 100 ms without end, with a timeout of 2 s. Expected: `timedOut`
    /// within 20 s; the continuation resumed once and the session invalidated.
    @Test("a server that trickles bytes without end is timedOut, cleanly")
    func tricklingBody() async throws {
        let fixture = try await Fixture([.init(endless: .init(chunk: 16, interval: 0.1))])
        defer { fixture.finish() }
        let started = ContinuousClock.now
        let error = await #expect(throws: APIError.self) {
            try await fixture.transport.send(fixture.request(timeout: .seconds(2)))
        }
        #expect(ContinuousClock.now - started < .seconds(20), "not prompt")
        #expect(error?.kind == .timedOut)
        try await fixture.expectEveryExchangeEnded(made: 1, resumed: 1, within: .seconds(30))
    }
}
