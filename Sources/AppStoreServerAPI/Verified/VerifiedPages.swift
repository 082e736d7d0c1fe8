import Foundation

/// The pages of a paged endpoint, each fetched and verified when the iteration asks for it.
///
/// Iteration ends after the page whose `hasMore` is false. A page that says `hasMore` but gives no cursor, or the
/// same cursor again, is delivered, and the next call throws an ``APIError`` of kind `malformedResponse` (a server
/// cannot make the client loop, and no item is dropped). A page that says `hasMore` after which one of the
/// ``PagingLimits`` would be passed (``limits``: pages, items, empty pages in a row) is delivered, and the next call
/// throws an ``APIError`` of kind `pagingLimitReached` naming the bound, so that fresh cursors cannot make the client
/// loop either. An API error ends it by being thrown; the pages before it were delivered.
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
    /// The bounds of the iteration.
    public let limits: PagingLimits

    /// The cursor of the first page fetched (nil: the endpoint's first page).
    let start: String?

    init(limits: PagingLimits = .default, start: String? = nil, fetch: @escaping Fetch) {
        self.limits = limits
        self.start = start
        self.fetch = fetch
    }

    /// An iterator from the first page, or from the cursor the sequence was made with.
    public func makeAsyncIterator() -> Iterator {
        Iterator(limits: limits, start: start, fetch: fetch)
    }

    /// Fetches and verifies one page per call to ``next()``.
    public struct Iterator: AsyncIteratorProtocol {
        let fetch: Fetch
        let limits: PagingLimits
        var cursor: String?
        /// Every cursor followed so far: a page that points back at any of them ends the sequence.
        var seen: Set<String> = []
        var page = 0
        /// The signed items delivered so far, and the empty pages that said `hasMore` just before this one.
        var items = 0
        var emptyInARow = 0
        var done = false
        var pending: APIError?

        init(limits: PagingLimits, start: String?, fetch: @escaping Fetch) {
            self.limits = limits
            self.fetch = fetch
            cursor = start
            if let start { seen.insert(start) }
        }

        /// Why no page may follow the one just delivered, though it says more do: the bound it reached.
        private func boundReached() -> String? {
            if page >= limits.maximumPages {
                return "the call reached its limit of \(limits.maximumPages) pages (PagingLimits.maximumPages)"
            }
            if items >= limits.maximumItems {
                return "the call reached its limit of \(limits.maximumItems) items (PagingLimits.maximumItems),"
                    + " with \(items)"
            }
            if emptyInARow >= limits.maximumConsecutiveEmptyPages {
                return "\(emptyInARow) pages in a row held no item but said more pages follow"
                    + " (PagingLimits.maximumConsecutiveEmptyPages: \(limits.maximumConsecutiveEmptyPages))"
            }
            return nil
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
            items += response.items.count
            emptyInARow = response.items.isEmpty ? emptyInARow + 1 : 0
            if hasMore, let bound = boundReached() {
                done = true
                pending = APIError(
                    kind: .pagingLimitReached, message: "page \(page - 1) says more pages follow, but \(bound)")
            } else if hasMore {
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
