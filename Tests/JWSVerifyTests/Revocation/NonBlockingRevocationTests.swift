import Foundation
import Synchronization
import Testing

@testable import JWSVerify

/// The asynchronous methods never hold a thread of Swift's cooperative pool while OCSP runs, and a
/// cancelled task stops waiting at once. Real `openssl` certificates whose AIA names a responder on
/// loopback that accepts connections and never answers.
@Suite(
    "Asynchronous verification does not block", .enabled(if: OCSPOpenSSLTool.isAvailable, "needs the openssl tool"),
    .timeLimit(.minutes(1)), .serialized)
struct NonBlockingRevocationTests {
    /// A PKI whose leaf and intermediate both name `stub`.
    private static func silentPKI(_ stub: OCSPStubServer) throws -> OCSPTestPKI {
        try OCSPTestPKI(.init(leafResponder: .stub(stub), intermediateResponder: .stub(stub)))
    }

    /// Input: 64 online verifications at once in a task group (timeout 3 s) against a responder
    /// that never answers, and a probe that starts a new task and waits for it to end, 20 times in a row.
    /// Expected: the 20 probe tasks run while all 64 verifications still wait (a new task runs only on a
    /// free thread of the cooperative pool); every verification then ends `revocationUnavailable`, no sooner
    /// than the timeout and within it plus a 2.5 s grace; the 64 share the leaf's and the intermediate's
    /// requests in flight (at most a few requests, not 128). Counting, not timing: a loaded machine makes
    /// the probe slower, and only a probe slower than the 3 s timeout fails (20 task switches take
    /// milliseconds). A method that blocks the pool's threads (two on this machine) while OCSP runs lets
    /// no probe task run until a verification has come back, and fails at once (tried: `answer()` waiting
    /// through `blockingAnswer()`). An exit test: in a process of its own, no other test's work competes
    /// for the cooperative pool.
    @Test("64 concurrent online verifications leave the cooperative pool free for other tasks")
    func heartbeatKeepsTicking() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            exit(await HeartbeatRun.run())
        }
        let lines = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self).split(separator: "\n")
        #expect(lines.contains { $0 == HeartbeatRun.prefix + "done" }, "the run did not finish: \(lines)")
        for line in lines where line.hasPrefix(HeartbeatRun.prefix + "problem: ") {
            Issue.record("\(line)")
        }
    }

    /// Input: an online verification (timeout 30 s) against the silent responder, its task
    /// cancelled after 200 ms. Expected: it ends at once with `revocationUnavailable`, saying it
    /// was cancelled, long before the timeout.
    @Test("cancelling the task ends the OCSP wait with revocationUnavailable")
    func cancellationEndsTheWait() async throws {
        let stub = try OCSPStubServer(.silent)
        defer { stub.stop() }
        let pki = try Self.silentPKI(stub)
        defer { pki.stop() }
        let verifier = try pki.verifier(timeout: .seconds(30))
        let token = try pki.token()
        let clock = ContinuousClock()
        let start = clock.now
        let task = Task { await verifier.verifyAndDecodeTransaction(signedTransaction: token) }
        try await Task.sleep(for: .milliseconds(200))
        task.cancel()
        let result = await task.value
        // Well before the 30 s timeout, with room for a loaded machine (a CI run on 2 cores once held a 0.5 s
        // timer back for 7 s).
        #expect(clock.now - start < .seconds(20))
        #expect(result.error?.code == .revocationUnavailable)
        #expect(result.error?.check == .revocation)
        #expect(result.error?.message.contains("cancelled") == true, "\(String(describing: result.error))")
        #expect(result.report.failedStep?.name == .revocation)
    }

    /// Input: a task cancelled before it verifies. Expected: the offline checks still run (a
    /// forged signature fails as `invalidSignature`, not as a revocation failure), and a good token
    /// ends `revocationUnavailable` without waiting.
    @Test("a task cancelled before it starts gets the same verdicts for checks 1 to 10")
    func cancelledBeforeStart() async throws {
        let stub = try OCSPStubServer(.silent)
        defer { stub.stop() }
        let pki = try Self.silentPKI(stub)
        defer { pki.stop() }
        let verifier = try pki.verifier(timeout: .seconds(30))
        let token = try pki.token()
        var parts = token.split(separator: ".").map(String.init)
        parts[2] = String(parts[2].reversed())
        let forged = parts.joined(separator: ".")
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return (
                await verifier.verifyAndDecodeTransaction(signedTransaction: forged),
                await verifier.verifyAndDecodeTransaction(signedTransaction: token)
            )
        }
        let (forgedResult, goodResult) = await task.value
        #expect(forgedResult.error?.code == verifier.verifyAndDecodeTransaction(forged).error?.code)
        #expect(forgedResult.error?.check != .revocation)
        #expect(goodResult.error?.code == .revocationUnavailable)
        #expect(goodResult.error?.message.contains("cancelled") == true)
    }

    final class Calls: Sendable { let count = Atomic<Int>(0) }

    /// Input: two checks of one chain started back to back, the first at T and the second at
    /// T + 2 days (the answers' nextUpdate is T + 1 day), while the first's requests are in flight.
    /// Expected: the second is judged as a check alone at T + 2 days (stale: unavailable), not
    /// given the first's answer. (Found in review: a request shared across seconds judged every
    /// waiter at the first one's time.)
    @Test("a check never shares a request judged at another time")
    func sharedRequestsAreJudgedAtTheirOwnTime() throws {
        let pki = try OCSPTestPKI()
        defer { pki.stop() }
        let base = Date()
        let later = base.addingTimeInterval(2 * 86_400)
        let calls = Calls()
        let checker = RevocationChecker(
            timeout: .seconds(3), clock: { calls.count.add(1, ordering: .relaxed).oldValue == 0 ? base : later })
        func verdict(_ start: RevocationChecker.Start) -> VerificationError? {
            switch start {
            case .decided(let error): return error
            case .asking(let exchange): return exchange.blockingAnswer()
            }
        }
        let first = checker.begin(pki.chain)
        let second = checker.begin(pki.chain)
        #expect(verdict(first) == nil)
        let joined = verdict(second)
        let alone = RevocationChecker(timeout: .seconds(3), clock: { later }).check(pki.chain)
        #expect(alone?.code == .revocationUnavailable)
        #expect(joined?.code == alone?.code, "\(String(describing: joined))")
    }

    /// Input: a verifier with `chainCacheCapacity: 0` verifying one token twice against answering
    /// responders. Expected: both verify and each asks both responders (no OCSP cache either).
    @Test("chainCacheCapacity 0 turns the OCSP cache off too")
    func noCacheAsksEachTime() async throws {
        let pki = try OCSPTestPKI()
        defer { pki.stop() }
        let verifier = try SignedDataVerifier(
            rootCertificates: [Data(pki.rootDER)], bundleId: OCSPTestPKI.bundleId, environment: .sandbox,
            enableOnlineChecks: true, revocationTimeout: .seconds(3), chainCacheCapacity: 0)
        let token = try pki.token()
        #expect(await verifier.verifyAndDecodeTransaction(signedTransaction: token).isVerified)
        #expect(await verifier.verifyAndDecodeTransaction(signedTransaction: token).isVerified)
        #expect(verifier.revocationChecker?.requestCount == 4)
    }

    /// Input: the same PKI with real `openssl ocsp` responders that answer good. Expected: the
    /// asynchronous method verifies, and its report has the synchronous one's steps and outcomes.
    @Test("with answering responders the asynchronous method verifies like the synchronous one")
    func answeringRespondersVerify() async throws {
        let pki = try OCSPTestPKI()
        defer { pki.stop() }
        let token = try pki.token()
        let asynchronous = await (try pki.verifier()).verifyAndDecodeTransaction(signedTransaction: token)
        let synchronous = try pki.verifier().verifyAndDecodeTransaction(token)
        #expect(asynchronous.isVerified, "\(String(describing: asynchronous.error))")
        #expect(asynchronous.report.steps.map(\.name) == synchronous.report.steps.map(\.name))
        #expect(asynchronous.report.steps.map(\.outcome) == synchronous.report.steps.map(\.outcome))
    }
}

/// The body of the heartbeat exit test: writes each problem to standard error, then `done`, and
/// exits 0; the test fails on each problem line.
enum HeartbeatRun {
    static let prefix = "heartbeat: "
    /// The verifications' OCSP timeout: the time the probe has, however loaded the machine.
    static let timeout = Duration.seconds(3)
    /// The probe tasks that must run while every verification waits.
    static let rounds = 20

    /// How many verifications have come back.
    final class Returned: Sendable {
        let count = Atomic<Int>(0)
    }

    static func run() async -> Int32 {
        var problems: [String] = []
        do {
            let stub = try OCSPStubServer(.silent)
            defer { stub.stop() }
            let pki = try OCSPTestPKI(.init(leafResponder: .stub(stub), intermediateResponder: .stub(stub)))
            defer { pki.stop() }
            let verifier = try pki.verifier(timeout: timeout)
            let tokens = try (0..<64).map { _ in try pki.token() }

            let returned = Returned()
            let clock = ContinuousClock()
            let started = clock.now
            let (outcomes, probed) = await withTaskGroup(of: (VerificationError?, Duration).self) { group in
                for token in tokens {
                    group.addTask {
                        let start = clock.now
                        let result = await verifier.verifyAndDecodeTransaction(signedTransaction: token)
                        returned.count.add(1, ordering: .sequentiallyConsistent)
                        return (result.error, clock.now - start)
                    }
                }
                // Each probe task is enqueued behind the verifications and needs a free thread of the pool.
                var probed = 0
                while probed < rounds {
                    await Task {}.value
                    guard returned.count.load(ordering: .sequentiallyConsistent) == 0 else { break }
                    probed += 1
                }
                if probed < rounds {
                    // The pool was blocked: report now rather than wait for 64 blocked verifications.
                    finish(["\(probed) of \(rounds) probe tasks ran before a verification came back"])
                }
                var outcomes: [(VerificationError?, Duration)] = []
                for await outcome in group { outcomes.append(outcome) }
                return (outcomes, probed)
            }
            let elapsed = clock.now - started

            if outcomes.count != 64 { problems.append("\(outcomes.count) results, not 64") }
            for (error, duration) in outcomes {
                if error?.code != .revocationUnavailable || error?.check != .revocation {
                    problems.append("not revocationUnavailable: \(String(describing: error))")
                }
                if duration >= timeout + .seconds(2.5) { problems.append("a verification took \(duration)") }
            }
            // The verifications of one chain share each certificate's request while it is in flight.
            let requests = verifier.revocationChecker?.requestCount ?? 0
            if requests > 8 { problems.append("\(requests) OCSP requests for one chain, not one per certificate") }
            if elapsed < timeout { problems.append("the verifications took only \(elapsed)") }
            FileHandle.standardError.write(
                Data("\(prefix)\(probed) probe tasks ran while 64 verifications waited \(elapsed)\n".utf8))
        } catch {
            problems.append("setting up failed: \(error)")
        }
        finish(problems)
    }

    /// Writes `problems` and `done`, and ends the process with 0 (an exit test that ends otherwise returns
    /// no output to show them).
    static func finish(_ problems: [String]) -> Never {
        for problem in problems {
            FileHandle.standardError.write(Data("\(prefix)problem: \(problem)\n".utf8))
        }
        FileHandle.standardError.write(Data("\(prefix)done\n".utf8))
        exit(0)
    }
}
