import Foundation
import Testing

@testable import JWSVerify

/// `RevocationChecker` directly, against real `openssl ocsp` responders: request counting, the
/// cache and concurrency.
@Suite(
    "Revocation checker", .enabled(if: OCSPOpenSSLTool.isAvailable, "needs the openssl command-line tool"),
    .timeLimit(.minutes(1)))
struct RevocationCheckerTests {
    /// A clock that tests move forward.
    final class TestClock: Sendable {
        private let offset = ReadWriteLocked<TimeInterval>(0)  // not `Mutex`: these tests run under TSan
        func advance(by seconds: TimeInterval) { offset.write { $0 += seconds } }
        var now: Date { Date().addingTimeInterval(offset.read { $0 }) }
    }

    /// Input: a good chain checked twice with one checker. Expected: two requests (leaf and
    /// intermediate) the first time, none the second (two cache hits).
    @Test("a warm cache makes no request")
    func warmCacheMakesNoRequest() throws {
        let pki = try OCSPTestPKI()
        defer { pki.stop() }
        let checker = RevocationChecker(timeout: .seconds(3), clock: { Date() })
        let processWide = OperationCounters.ocspRequests
        #expect(checker.check(pki.chain) == nil)
        #expect(checker.requestCount == 2)
        // The process-wide counter (which the benchmark reads) counts them too; other tests running
        // at the same time may add theirs.
        #expect(OperationCounters.ocspRequests - processWide >= 2)
        #expect(checker.check(pki.chain) == nil)
        #expect(checker.requestCount == 2)
        #expect(checker.cacheStatistics.hits == 2)
        #expect(checker.cacheStatistics.count == 2)
    }

    /// Input: a revoked leaf (good intermediate) checked twice. Expected: revoked both times; the
    /// second check asks about the leaf again (3 requests in all) and only the intermediate is cached.
    @Test("a revoked answer is never cached")
    func revokedAnswerIsNeverCached() throws {
        let pki = try OCSPTestPKI(.init(leafRevoked: true))
        defer { pki.stop() }
        let checker = RevocationChecker(timeout: .seconds(3), clock: { Date() })
        #expect(checker.check(pki.chain)?.code == .revokedCertificate)
        #expect(checker.check(pki.chain)?.code == .revokedCertificate)
        #expect(checker.requestCount == 3)
        #expect(checker.cacheStatistics.count == 1)
    }

    /// Input: a good chain checked, then again 16 minutes later (answers valid for a day).
    /// Expected: the second check asks both responders again (the cache keeps answers 15 minutes).
    @Test("cached answers expire after 15 minutes")
    func cacheExpiresAfterLifetime() throws {
        let pki = try OCSPTestPKI()
        defer { pki.stop() }
        let clock = TestClock()
        let checker = RevocationChecker(timeout: .seconds(3), clock: { clock.now })
        #expect(checker.check(pki.chain) == nil)
        clock.advance(by: 14 * 60)
        #expect(checker.check(pki.chain) == nil)
        #expect(checker.requestCount == 2)
        clock.advance(by: 2 * 60)
        #expect(checker.check(pki.chain) == nil)
        #expect(checker.requestCount == 4)
    }

    /// Input: the leaf's answer has nextUpdate 2 minutes after thisUpdate (`-nmin 2`); the chain
    /// is checked, then again 3 minutes later. Expected: the leaf's cached answer ended at its
    /// nextUpdate, so the leaf is asked again (3 requests) and the new answer is already stale
    /// for that clock: `revocationUnavailable`. The intermediate stays cached.
    @Test("cached answers never outlive nextUpdate")
    func cacheNeverOutlivesNextUpdate() throws {
        let pki = try OCSPTestPKI(.init(leafResponderArguments: ["-nmin", "2"]))
        defer { pki.stop() }
        let clock = TestClock()
        let checker = RevocationChecker(timeout: .seconds(3), clock: { clock.now })
        #expect(checker.check(pki.chain) == nil)
        clock.advance(by: 3 * 60)
        #expect(checker.check(pki.chain)?.code == .revocationUnavailable)
        #expect(checker.requestCount == 3)
    }

    /// Input: both certificates' responders accept connections and never answer; timeout 4 s.
    /// Expected: `revocationUnavailable` after about one timeout, not two: the requests run at once.
    @Test("the two requests run concurrently")
    func requestsRunConcurrently() throws {
        let leafStub = try OCSPStubServer(.silent)
        let intermediateStub = try OCSPStubServer(.silent)
        defer {
            leafStub.stop()
            intermediateStub.stop()
        }
        let pki = try OCSPTestPKI(.init(leafResponder: .stub(leafStub), intermediateResponder: .stub(intermediateStub)))
        defer { pki.stop() }
        let checker = RevocationChecker(timeout: .seconds(4), clock: { Date() })
        let start = Date()
        let error = checker.check(pki.chain)
        let elapsed = Date().timeIntervalSince(start)
        #expect(error?.code == .revocationUnavailable)
        #expect(error?.message.contains("the leaf certificate") == true)
        #expect(checker.requestCount == 2)
        // OpenSSL counts whole seconds: one 4 s timeout lasts 3 to 4 s; two in a row would be 6 to 8 s.
        #expect(elapsed < 5.5, "took \(elapsed) s")
    }
}
