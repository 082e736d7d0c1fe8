import Foundation

/// How far a paged call (``VerifiedPages``) may go before it stops with an ``APIError`` of kind
/// ``APIError/Kind/pagingLimitReached``: a bound on pages, on items, and on empty pages in a row.
///
/// A server decides how many pages it sends, so without a bound a hostile or broken one (a compromised proxy, an
/// emulator) could keep a client fetching for ever: empty pages that say `hasMore` with a fresh cursor each time
/// made about 15,000 requests in 20 seconds. The defaults leave room for real histories: Apple's pages hold up to
/// 20 transactions or notifications, so 5,000 pages are 100,000 items, a purchase renewed weekly for 90 years or a
/// day of notifications of a large app; ask for a shorter interval or raise the bounds for more. An empty page that
/// says more follow happens when a filter leaves a page empty; ten in a row does not.
public struct PagingLimits: Sendable, Hashable {
    /// The most pages one call fetches. Default 5,000.
    public var maximumPages: Int
    /// The number of signed items, over all pages, after which one call fetches no further page (the page that
    /// reaches it is delivered whole: no item is dropped). Default 100,000.
    public var maximumItems: Int
    /// The most pages in a row with no signed item that say more pages follow. Default 10.
    public var maximumConsecutiveEmptyPages: Int

    /// Limits with the given bounds (each at least 1).
    public init(maximumPages: Int = 5_000, maximumItems: Int = 100_000, maximumConsecutiveEmptyPages: Int = 10) {
        self.maximumPages = max(1, maximumPages)
        self.maximumItems = max(1, maximumItems)
        self.maximumConsecutiveEmptyPages = max(1, maximumConsecutiveEmptyPages)
    }

    /// 5,000 pages, 100,000 items, 10 empty pages in a row.
    public static let `default` = PagingLimits()
}
