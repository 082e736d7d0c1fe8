import AppStoreServerAPI
import Foundation
import JWSVerify
import PurchaseLedger

/// Brings a ledger up to date with the App Store Server API: what Apple sent that the server missed, and what it
/// holds that the ledger does not.
///
/// Every signed item the API returns is verified by the ledger's verifier (the client verifies, with
/// `Ledger.verifier`) and appended like any other (source `api`): the same item again is a duplicate, so a page
/// fetched twice changes nothing. Each page's items are appended in one database transaction with the position
/// after the page (`LedgerCursor`), so a run that stops, for any reason, resumes after the last page it committed.
///
/// - ``syncNotificationHistory(start:now:)``: Get Notification History from a saved window and pagination token.
/// - ``syncTransactionHistory(originalTransactionId:)``: Get Transaction History from the purchase's saved
///   `revision` (incremental).
/// - ``audit(originalTransactionIds:at:)``: Get All Subscription Statuses, compared with the ledger's status.
///
/// The store's calls block their thread while the database works (a commit waits for the disk).
public struct LedgerReconciler: Sendable {
    /// The ledger the items go to, with the verifier they are verified by.
    public let ledger: Ledger
    /// The API, verifying every item with the ledger's verifier.
    public let api: VerifyingAPIClient
    /// The environment the client calls: it names the saved cursors, and the audit compares this environment's
    /// purchases.
    public let environment: AppStoreEnvironment

    /// A reconciler of `ledger` through `client`.
    ///
    /// - Parameters:
    ///   - ledger: The ledger; its verifier must accept the client's environment.
    ///   - client: The API client (its key, bundle id and server).
    ///   - environment: The environment of the client's server (`AppStoreServerAPIClient.environment(ofBaseURL:)`
    ///     for Apple's servers).
    ///   - pagingLimits: The bounds of each paged call.
    public init(
        ledger: Ledger, client: AppStoreServerAPIClient, environment: AppStoreEnvironment,
        pagingLimits: PagingLimits = .default
    ) {
        self.ledger = ledger
        self.api = client.verifying(with: ledger.verifier, pagingLimits: pagingLimits)
        self.environment = environment
    }

    /// Appends a page's verified items and saves `cursor` in one database transaction, and counts every item in
    /// `report`.
    ///
    /// An item is refused when it did not verify, disagrees with its envelope, or is of another environment than
    /// the reconciler's. A page with a refused item is not passed: its verified items are appended, `cursor` is not
    /// saved (the next run fetches the page again, after a configuration is mended or an OCSP answer can be had),
    /// and the first refusal is thrown once the page is committed. Without a cursor (the audit) refusals are only
    /// counted.
    func commit<Response>(
        _ page: VerifiedResponse<Response>, pageNumber: Int, cursor: LedgerCursor?,
        into report: inout ReconciliationReport
    ) throws(ReconciliationError) {
        var entries: [LedgerEntry] = []
        var refusals: [ReconciliationReport.Refusal] = []
        for item in page.items {
            func refuse(_ code: String, _ message: String, retryable: Bool = false) {
                refusals.append(
                    .init(page: pageNumber, path: item.path, code: code, message: message, isRetryable: retryable))
            }
            if let error = page.envelopeMismatch ?? item.error {
                refuse(error.code.rawValue, error.message, retryable: error.code == .revocationUnavailable)
                continue
            }
            guard case .verified(let verified) = item.result else {
                refuse(VerificationError.Code.malformedToken.rawValue, "the item has no verification")
                continue
            }
            do throws(LedgerError) {
                let entry = try LedgerEntry(verified: verified, token: item.token, source: .apiResponse)
                // A server of one environment answers for that environment only.
                guard entry.items.allSatisfy({ $0.environment == environment.rawValue }) else {
                    refuse(
                        VerificationError.Code.envelopeMismatch.rawValue,
                        "the item is of another environment than the \(environment.rawValue) server's")
                    continue
                }
                entries.append(entry)
            } catch {
                refuse(error.reportedCode, error.message)
            }
        }
        report.refused += refusals
        let passes = refusals.isEmpty ? cursor : nil
        let outcomes: [AppendOutcome]
        do throws(LedgerError) {
            outcomes = try ledger.store.append(entries, settingCursor: passes)
        } catch {
            report.refused.removeLast(refusals.count)
            throw ReconciliationError(cause: .store(error), report: report)
        }
        report.pages += 1
        for outcome in outcomes {
            if outcome.result == .appended { report.appended += 1 } else { report.duplicates += 1 }
        }
        if cursor != nil, let first = refusals.first {
            throw ReconciliationError(cause: .itemRefused(first), report: report)
        }
    }

    /// Iterates pages, committing each with the cursor `position` gives for it, until the last or an error.
    func follow<Response>(
        _ pages: VerifiedPages<Response>, into report: inout ReconciliationReport,
        position: (VerifiedResponse<Response>) -> LedgerCursor?
    ) async throws(ReconciliationError) {
        var iterator = pages.makeAsyncIterator()
        var pageNumber = 0
        while true {
            let page: VerifiedResponse<Response>
            do {
                guard let next = try await iterator.next() else { return }
                page = next
            } catch let error as APIError {
                throw ReconciliationError(cause: .api(error), report: report)
            } catch {
                throw ReconciliationError(
                    cause: .api(APIError(kind: .network, message: "\(error)")), report: report)
            }
            try commit(page, pageNumber: pageNumber, cursor: position(page), into: &report)
            pageNumber += 1
        }
    }

    /// A store call's error as the reconciliation's.
    func store<T>(
        _ report: ReconciliationReport, _ body: () throws(LedgerError) -> T
    ) throws(ReconciliationError) -> T {
        do throws(LedgerError) {
            return try body()
        } catch {
            throw ReconciliationError(cause: .store(error), report: report)
        }
    }
}
