import AppStoreServerAPI
import AppStoreServerAPIEmulator
import Foundation
import JWSVerify
import Testing

/// Issue #39: paged calls are bounded (``PagingLimits``): a server cannot keep a client fetching for ever, with
/// empty pages and fresh cursors or with pages of items; the error names the bound reached.
@Suite("App Store Server API client: paged calls bounded, on loopback")
struct LoopbackPagingTests {
    static let id = LoopbackVerificationTests.id

    /// A route of history pages, each answered once in order (any query): page `n` holds `tokens[n]` and gives the
    /// fresh cursor `r<n+1>`, every page saying more follow.
    static func endlessHistory(_ credentials: APICredentials, _ tokens: [[String]]) -> [APIEmulatorProcess.Route] {
        [
            .init(
                "GET", LoopbackVerificationTests.history,
                tokens.enumerated().map { index, page in
                    LoopbackVerificationTests.historyPage(credentials, page, revision: "r\(index + 1)", hasMore: true)
                })
        ]
    }

    /// Every page of the sequence, and the error that ended it.
    static func collect(
        _ pages: VerifiedPages<HistoryResponse>
    ) async -> (pages: [VerifiedResponse<HistoryResponse>], error: APIError?) {
        var collected: [VerifiedResponse<HistoryResponse>] = []
        do {
            for try await page in pages { collected.append(page) }
            return (collected, nil)
        } catch {
            return (collected, error as? APIError)
        }
    }

    /// Input: a server whose history pages are all empty, say `hasMore` and give a fresh cursor each time (12 of
    /// them; before, the client followed them all, and an endless server made about 15,000 requests in 20 s).
    /// Expected: with the default limits, the 10 empty pages are delivered and the call ends with
    /// `pagingLimitReached` naming `maximumConsecutiveEmptyPages`; the emulator saw exactly 10 requests.
    @Test("empty pages with fresh cursors end at the empty-page bound")
    func emptyPagesEnd() async throws {
        let loopback = try await Loopback { credentials in
            Self.endlessHistory(credentials, Array(repeating: [], count: 12))
        }
        defer { loopback.finish() }
        let (pages, error) = await Self.collect(loopback.verifying.transactionHistory(anyTransactionId: Self.id))
        #expect(pages.count == 10)
        #expect(error?.kind == .pagingLimitReached)
        #expect(error?.isRetryable == false)
        #expect(
            error?.message
                == "page 9 says more pages follow, but 10 pages in a row held no item but said more pages follow"
                + " (PagingLimits.maximumConsecutiveEmptyPages: 10)")
        try await loopback.expectAppleShapedRequests(count: 10)
    }

    /// Input: pages of two transactions each that always say more follow, with `PagingLimits(maximumPages: 3)`, then
    /// with `PagingLimits(maximumItems: 5)`. Expected: three pages, then `pagingLimitReached` naming
    /// `maximumPages`; three pages (the one that reaches 5 items delivered whole: 6 items), then `pagingLimitReached`
    /// naming `maximumItems`; no item dropped.
    @Test("pages and items end at their bounds, the bound named", arguments: [true, false])
    func pageAndItemBounds(pagesBound: Bool) async throws {
        let loopback = try await Loopback { credentials in
            let tokens = try credentials.transactions(10)
            return Self.endlessHistory(credentials, (0..<5).map { Array(tokens[($0 * 2)..<($0 * 2 + 2)]) })
        }
        defer { loopback.finish() }
        let limits = pagesBound ? PagingLimits(maximumPages: 3) : PagingLimits(maximumItems: 5)
        let client = loopback.client.verifying(with: loopback.verifier, pagingLimits: limits)
        #expect(client.pagingLimits == limits)
        let (pages, error) = await Self.collect(client.transactionHistory(anyTransactionId: Self.id))
        #expect(pages.count == 3)
        #expect(pages.flatMap(\.items).count == 6 && pages.allSatisfy(\.allVerified))
        #expect(error?.kind == .pagingLimitReached)
        let bound =
            pagesBound
            ? "the call reached its limit of 3 pages (PagingLimits.maximumPages)"
            : "the call reached its limit of 5 items (PagingLimits.maximumItems), with 6"
        #expect(error?.message == "page 2 says more pages follow, but " + bound)
        try await loopback.expectAppleShapedRequests(count: 3)
    }
}
