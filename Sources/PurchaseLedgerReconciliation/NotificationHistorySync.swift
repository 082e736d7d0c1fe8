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

    /// How far back Get Notification History reaches in the reconciler's environment: Apple keeps 180 days of
    /// Production's notifications and 30 days of Sandbox's.
    public var notificationHistoryReach: Int64 { (environment == .sandbox ? 30 : 180) * 86_400_000 }
    /// How far within that reach the oldest window starts.
    static let windowMargin: Int64 = 3_600_000

    /// How far before the end of the last window a new window starts: notifications recorded late by the API are
    /// fetched again (duplicates change nothing).
    public static let notificationOverlap: Int64 = 3_600_000

    /// The longest window asked for at once: a first run that reaches back months asks day by day, saving the
    /// end of each day fetched whole, so that a run that stops has kept every day before.
    public static let notificationWindow: Int64 = 86_400_000

    /// The name of the saved notification-history position of the reconciler's app and environment.
    public var notificationCursorName: String { "notificationHistory/\(api.client.bundleId)/\(environment.rawValue)" }

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
    /// the same request, while Apple still reaches its start. Otherwise windows of at most a day
    /// (``notificationWindow``) are fetched one after the other, up to `now`: from the start of an interrupted
    /// window, else from the end of the last window (less ``notificationOverlap``), else from `start`, else from as
    /// far back as Apple keeps (``notificationHistoryReach``). Each page is committed with the position after it, the last of each
    /// window with the window's end. A start beyond Apple's reach (``notificationHistoryReach``) begins at the
    /// reach instead, and the report says so (``ReconciliationReport/reachedBackTo``).
    ///
    /// - Parameters:
    ///   - start: Where the first window starts when nothing is saved (later runs continue from the saved position).
    ///   - now: The end of the last window.
    /// - Returns: what was appended, duplicate or refused.
    /// - Throws: ``ReconciliationError`` with what was done before it; the pages before it are committed.
    public func syncNotificationHistory(
        start: Timestamp? = nil, now: Timestamp = Timestamp(Date())
    ) async throws(ReconciliationError) -> ReconciliationReport {
        var report = ReconciliationReport()
        guard let nowMilliseconds = Self.milliseconds(now) else {
            throw ReconciliationError(
                cause: .api(APIError(kind: .invalidRequest, message: "now is not a time in milliseconds")),
                report: report)
        }
        let reach = nowMilliseconds - notificationHistoryReach
        let saved = try store(report) { () throws(LedgerError) in try notificationHistoryPosition() }
        var from: Int64
        var resumedEnd: Int64?
        var token: String?
        if let saved, let savedStart = saved.startDate, let savedEnd = saved.endDate, savedStart >= reach,
            let next = saved.paginationToken
        {
            (from, resumedEnd, token) = (savedStart, savedEnd, next)
            report.resumed = true
        } else {
            // An interrupted window Apple no longer reaches restarts at its start; a finished one continues after
            // its end, less the overlap (a corrupt end far in the past is clamped below).
            let afterLast = saved?.through.map {
                max($0, Int64.min + Self.notificationOverlap) - Self.notificationOverlap
            }
            let asked = saved?.startDate ?? afterLast ?? start.flatMap(Self.milliseconds)
            let earliest = reach + Self.windowMargin
            if let asked, asked < reach {
                report.reachedBackTo = Timestamp(millisecondsSince1970: Double(earliest))
            }
            // A position saved after now (a clock set back) still fetches the last overlap.
            from = min(max(asked ?? earliest, earliest), nowMilliseconds - Self.notificationOverlap)
        }
        let name = notificationCursorName
        var seen: Set<String> = token.map { [$0] } ?? []
        while from < nowMilliseconds {
            let window = (start: from, end: resumedEnd ?? min(from + Self.notificationWindow, nowMilliseconds))
            resumedEnd = nil
            let request = NotificationHistoryRequest(
                startDate: Date(timeIntervalSince1970: Double(window.start) / 1000),
                endDate: Date(timeIntervalSince1970: Double(window.end) / 1000))
            let pages = api.notificationHistory(notificationHistoryRequest: request, paginationToken: token)
            try await follow(pages, into: &report) { page in
                let position: NotificationHistoryPosition
                if page.response.hasMore == true {
                    // More pages without a new token to ask for them: the page is kept, the position is not passed
                    // (the sequence then stops with malformedResponse).
                    guard let next = page.response.paginationToken, !next.isEmpty, seen.insert(next).inserted else {
                        return nil
                    }
                    position = NotificationHistoryPosition(
                        startDate: window.start, endDate: window.end, paginationToken: next)
                } else {
                    position = NotificationHistoryPosition(through: window.end)
                }
                let text = (try? JSONEncoder().encode(position)).map { String(decoding: $0, as: UTF8.self) }
                return text.map { LedgerCursor(name: name, value: $0) }
            }
            token = nil
            from = window.end
        }
        return report
    }

    /// A time in whole milliseconds, nil when it is not finite or does not fit.
    static func milliseconds(_ time: Timestamp) -> Int64? {
        Int64(exactly: time.millisecondsSince1970.rounded())
    }
}
