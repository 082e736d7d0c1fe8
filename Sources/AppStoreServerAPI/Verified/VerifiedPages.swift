import Foundation

/// The pages of a paged endpoint, each fetched and verified when the iteration asks for it.
///
/// Iteration ends after the page whose `hasMore` is false. A page that says `hasMore` but gives no cursor, or the
/// same cursor again, is delivered, and the next call throws an ``APIError`` of kind `malformedResponse` (a server
/// cannot make the client loop, and no item is dropped). An API error ends it by being thrown; the pages before
/// it were delivered.
public struct VerifiedPages<Response: Sendable>: AsyncSequence, Sendable {
    /// A page: the response, its items verified.
    public typealias Element = VerifiedResponse<Response>

    /// Fetches the page after `cursor` (nil: the first) as page number `page`; returns it, the next cursor, and
    /// whether it says more follow.
    typealias Fetch =
        @Sendable (_ cursor: String?, _ page: Int) async throws(APIError) -> (
            VerifiedResponse<Response>, String?, Bool
        )

    let fetch: Fetch

    init(fetch: @escaping Fetch) {
        self.fetch = fetch
    }

    /// An iterator from the first page.
    public func makeAsyncIterator() -> Iterator {
        Iterator(fetch: fetch)
    }

    /// Fetches and verifies one page per call to ``next()``.
    public struct Iterator: AsyncIteratorProtocol {
        let fetch: Fetch
        var cursor: String?
        /// Every cursor followed so far: a page that points back at any of them ends the sequence.
        var seen: Set<String> = []
        var page = 0
        var done = false
        var pending: APIError?

        init(fetch: @escaping Fetch) {
            self.fetch = fetch
        }

        /// The next page, or `nil` after the last.
        ///
        /// - Throws: ``APIError``.
        public mutating func next() async throws -> VerifiedResponse<Response>? {
            if let pending {
                self.pending = nil
                throw pending
            }
            guard !done else { return nil }
            let (response, next, hasMore): (VerifiedResponse<Response>, String?, Bool)
            do {
                (response, next, hasMore) = try await fetch(cursor, page)
            } catch {
                done = true
                throw error
            }
            page += 1
            if hasMore {
                // Any cursor seen before, not only the last, would start a cycle: r1, r2, r1, ...
                if let next, !next.isEmpty, next != cursor, !seen.contains(next) {
                    seen.insert(next)
                    cursor = next
                } else {
                    done = true
                    pending = APIError(
                        kind: .malformedResponse,
                        message: "page \(page - 1) says more pages follow but gives no new cursor (none, or a repeat)")
                }
            } else {
                done = true
            }
            return response
        }
    }
}
