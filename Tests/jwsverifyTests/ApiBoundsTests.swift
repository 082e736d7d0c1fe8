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
}
