import AppStoreServerAPIEmulator
import Foundation
import JWSVerify
import JWSVerifyTesting
import Testing

/// Issue #39: a hostile server cannot keep `jwsverify api` going for ever; each run through the binary against the
/// emulator on loopback, with a time bound.
@Suite("jwsverify api: bounded against a hostile server", .serialized)
struct ApiBoundsTests {
    /// Input: Get Transaction History answered by empty pages that say `hasMore` with a fresh cursor each time (20
    /// of them, the last repeating). Expected: within 30 s, exit 1 after 10 pages, standard error ending with
    /// `Error: pagingLimitReached: …` naming the empty-page bound (before: the client followed every page).
    @Test("history of empty pages with fresh cursors ends at the empty-page bound, exit 1")
    func endlessEmptyPages() async throws {
        let fixture = try await ApiCommandTests.Fixture { credentials in
            [
                .init(
                    "GET", "/inApps/v2/history/\(ApiCommandTests.id)",
                    (1...20).map {
                        ApiCommandTests.historyPage(credentials, [], revision: "r\($0)", hasMore: true)
                    })
            ]
        }
        defer { fixture.finish() }
        let run = try fixture.run(["history", ApiCommandTests.id], timeout: 30)
        #expect(!run.timedOut)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("items 0, verified 0, failed 0, pages 10\n"), "\(run.stderr)")
        #expect(
            run.stderr.contains("Error: pagingLimitReached: page 9 says more pages follow, but 10 pages in a row"),
            "\(run.stderr)")
    }

    /// Input: Get Transaction Info answered 200 with a body without end: chunked, with a `Content-Length` of 1 GiB,
    /// and a gzip stream of zeros (a compression bomb, about 1,000 to 1), each as fast as loopback takes it; and a
    /// normal answer for the baseline. Expected: each run ends in under 20 s (the client's timeout is 30 s; a run still going at 20 s is killed), exit 1
    /// with `responseTooLarge` on standard error, and a peak resident set of the binary (`wait4`'s `ru_maxrss`) under
    /// the baseline's plus 5 times the 4 MiB bound (before: no end within the timeout, and memory growing at about
    /// 150 MB/s).
    @Test(
        "an endless, oversized or compressed body ends promptly within bounded memory",
        arguments: [
            ("chunked", APIEmulatorProcess.Response.Endless()),
            ("declared 1 GiB", APIEmulatorProcess.Response.Endless(declaredLength: 1 << 30)),
            ("gzip bomb", APIEmulatorProcess.Response.Endless(encoding: "gzip")),
        ])
    func endlessBody(name: String, endless: APIEmulatorProcess.Response.Endless) async throws {
        let fixture = try await ApiCommandTests.Fixture { credentials in
            let token = try credentials.item(
                .transaction, overrides: PayloadOverrides(set: ["transactionId": .string("2000")]))
            return [
                .init("GET", "/inApps/v1/transactions/1000", [.init(endless: endless)]),
                .init(
                    "GET", "/inApps/v1/transactions/2000",
                    [.init(json: .object(["signedTransactionInfo": .string(token)]))]),
            ]
        }
        defer { fixture.finish() }
        let baseline = try CLI.runMeasured(fixture.arguments(["transaction", "2000"]), timeout: 60)
        #expect(baseline.run.status == 1 || baseline.run.status == 0, "\(baseline.run.stderr)")
        let hostile = try CLI.runMeasured(fixture.arguments(["transaction", "1000"]), timeout: 20)
        #expect(!hostile.run.timedOut, "\(name): still running after 20 s")
        #expect(hostile.seconds < 20, "\(name): \(hostile.seconds) s")
        #expect(hostile.run.status == 1, "\(name): \(hostile.run.stderr)")
        #expect(hostile.run.stderr.contains("Error: responseTooLarge"), "\(name): \(hostile.run.stderr)")
        let bound = 5 * 4 * 1024
        #expect(
            hostile.peakKiB < baseline.peakKiB + bound,
            "\(name): peak \(hostile.peakKiB) KiB, baseline \(baseline.peakKiB) KiB")
    }
}
