import AppStoreServerAPI
import Foundation
import JWSVerify
import PurchaseLedger

extension LedgerReconciler {
    /// Where Get Notification History stands, saved in the store as the cursor
    /// ``notificationCursorName``: a window being fetched and the token of its next page, or the end of the last
    /// window fetched whole.
    public struct NotificationHistoryPosition: Codable, Sendable, Hashable {
        /// The window being fetched: `startDate` and `endDate` in milliseconds since 1970 (the pagination token is
        /// valid only with the same request).
        public var startDate: Int64?
        /// The window's end.
        public var endDate: Int64?
        /// The token of the window's next page; nil before its first.
        public var paginationToken: String?
        /// The end of the last window fetched whole: the next run starts there (less the overlap).
        public var through: Int64?
    }

    /// How far back Get Notification History reaches: Apple keeps 180 days.
    static let historyReach: Int64 = 180 * 86_400_000
    /// How far within that reach a new window starts, so that its pages can still be asked for minutes later.
    static let windowMargin: Int64 = 300_000

    /// How far before the end of the last window a new window starts: notifications recorded late by the API are
    /// fetched again (duplicates change nothing).
    public static let notificationOverlap: Int64 = 3_600_000

    /// The name of the saved notification-history position of the reconciler's environment.
    public var notificationCursorName: String { "notificationHistory/\(environment.rawValue)" }

    /// The saved notification-history position, or nil before the first run.
    public func notificationHistoryPosition() throws(LedgerError) -> NotificationHistoryPosition? {
        guard let text = try ledger.store.cursor(named: notificationCursorName) else { return nil }
        guard let position = try? JSONDecoder().decode(NotificationHistoryPosition.self, from: Data(text.utf8)) else {
            throw LedgerError(.storeFailed, "the saved cursor '\(notificationCursorName)' is not a position")
        }
        return position
    }

    /// Fetches Get Notification History from where the last run stopped, verifying and appending every
    /// notification with its nested tokens.
    ///
    /// A window saved with a pagination token (a run that stopped after a page) is resumed at its next page, with
    /// the same request. Otherwise a new window is fetched, from the end of the last one (less
    /// ``notificationOverlap``), or from `start` when there was none, or from as far back as Apple keeps (180
    /// days), to `now`. Each page is committed with the position after it; the last one with the window's end.
    ///
    /// - Parameters:
    ///   - start: Where the first window starts when nothing is saved (later runs continue from the saved position);
    ///     clamped to Apple's 180 days.
    ///   - now: The end of a new window.
    /// - Returns: what was appended, duplicate or refused.
    /// - Throws: ``ReconciliationError`` with what was done before it; the pages before it are committed.
    public func syncNotificationHistory(
        start: Timestamp? = nil, now: Timestamp = Timestamp(Date())
    ) async throws(ReconciliationError) -> ReconciliationReport {
        var report = ReconciliationReport()
        let nowMilliseconds = Int64(now.millisecondsSince1970.rounded())
        let reach = nowMilliseconds - Self.historyReach
        let saved = try store(report) { () throws(LedgerError) in try notificationHistoryPosition() }
        var window: (start: Int64, end: Int64)
        var token: String?
        // A window started by an earlier run stays valid for Apple until its start is 180 days old.
        if let saved, let from = saved.startDate, let to = saved.endDate, from >= reach,
            let next = saved.paginationToken
        {
            window = (from, to)
            token = next
            report.resumed = true
        } else {
            let from =
                saved?.through.map { $0 - Self.notificationOverlap }
                ?? start.map { Int64($0.millisecondsSince1970.rounded()) } ?? reach
            window = (max(from, reach + Self.windowMargin), nowMilliseconds)
            guard window.start < window.end else { return report }
        }
        let request = NotificationHistoryRequest(
            startDate: Date(timeIntervalSince1970: Double(window.start) / 1000),
            endDate: Date(timeIntervalSince1970: Double(window.end) / 1000))
        let name = notificationCursorName
        let pages = api.notificationHistory(notificationHistoryRequest: request, paginationToken: token)
        try await follow(pages, into: &report) { page in
            let position: NotificationHistoryPosition
            if page.response.hasMore == true {
                // More pages without a token to ask for them: the page is kept, the position is not passed (the
                // sequence then stops with malformedResponse).
                guard let next = page.response.paginationToken, !next.isEmpty else { return nil }
                position = NotificationHistoryPosition(
                    startDate: window.start, endDate: window.end, paginationToken: next)
            } else {
                position = NotificationHistoryPosition(through: window.end)
            }
            let text = (try? JSONEncoder().encode(position)).map { String(decoding: $0, as: UTF8.self) }
            return text.map { LedgerCursor(name: name, value: $0) }
        }
        return report
    }
}
