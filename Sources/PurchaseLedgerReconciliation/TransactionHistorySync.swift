import AppStoreServerAPI
import Foundation
import JWSVerify
import PurchaseLedger

extension LedgerReconciler {
    /// The name of the saved `revision` of a purchase's transaction history in the reconciler's environment.
    public func transactionHistoryCursorName(originalTransactionId: String) -> String {
        "transactionHistory/\(api.client.bundleId)/\(environment.rawValue)/\(originalTransactionId)"
    }

    /// Fetches Get Transaction History of a purchase from its saved `revision`, verifying and appending every
    /// transaction: the first run reads the whole history, later runs only what came since (Apple's incremental
    /// sync: the same request with the last response's `revision`).
    ///
    /// Each page is committed with its `revision`, the last page's included, so an interrupted run resumes after
    /// the last page it committed and a finished one starts where the history ended.
    ///
    /// - Parameter originalTransactionId: The purchase (any of its transaction ids names the customer's history;
    ///   the revision is saved under this one).
    /// - Throws: ``ReconciliationError`` with what was done before it; the pages before it are committed.
    public func syncTransactionHistory(
        originalTransactionId: String
    ) async throws(ReconciliationError) -> ReconciliationReport {
        var report = ReconciliationReport()
        let name = transactionHistoryCursorName(originalTransactionId: originalTransactionId)
        let revision = try store(report) { () throws(LedgerError) in try ledger.store.cursor(named: name) }
        report.resumed = revision != nil
        let pages = api.transactionHistory(
            anyTransactionId: originalTransactionId,
            transactionHistoryRequest: TransactionHistoryRequest(sort: .ascending), revision: revision)
        // A revision seen before (a server that repeats or cycles them) is not saved: the position never goes back.
        var seen: Set<String> = revision.map { [$0] } ?? []
        try await follow(pages, into: &report) { page in
            guard let next = page.response.revision, !next.isEmpty, seen.insert(next).inserted else { return nil }
            return LedgerCursor(name: name, value: next)
        }
        return report
    }
}
