import AppStoreServerAPI
import JWSVerify
import PurchaseLedger

/// What a reconciliation did: the pages it committed and every item of them, appended, duplicate or refused.
///
/// No item is left out: each signed item of each page fetched is counted once, and each one refused is listed with
/// its code.
public struct ReconciliationReport: Sendable, Hashable {
    /// A signed item of a page that was not appended.
    public struct Refusal: Sendable, Hashable {
        /// The page it came on (0 for the first page of the run).
        public var page: Int
        /// Where it is in the response (`notificationHistory[3].signedPayload`).
        public var path: String
        /// The verification or ledger code (`notVerified`'s check code, `envelopeMismatch`, `missingIdentifier`).
        public var code: String
        /// Why; text from the response is escaped.
        public var message: String
        /// Whether the same item may be accepted later without a change of configuration (an OCSP answer that
        /// could not be had).
        public var isRetryable: Bool
    }

    /// Pages committed (each with its cursor, in one database transaction).
    public var pages = 0
    /// Items appended for the first time.
    public var appended = 0
    /// Items the ledger already held.
    public var duplicates = 0
    /// Items refused, in the order met.
    public var refused: [Refusal] = []
    /// Whether the run resumed a page position saved by an earlier run that stopped.
    public var resumed = false
    /// When notification history was asked to reach further back than Apple keeps (180 days of Production, 30 of Sandbox): where the first
    /// window started instead. Notifications before it cannot be fetched.
    public var reachedBackTo: Timestamp?

    /// Creates an empty report.
    public init() {}

    /// Adds another run's counts.
    public mutating func add(_ other: ReconciliationReport) {
        pages += other.pages
        appended += other.appended
        duplicates += other.duplicates
        refused += other.refused
        resumed = resumed || other.resumed
        reachedBackTo = reachedBackTo ?? other.reachedBackTo
    }

    /// `2 pages: 37 appended, 3 duplicate, 0 refused`.
    public var summary: String {
        "\(pages) page\(pages == 1 ? "" : "s"): \(appended) appended, \(duplicates) duplicate, \(refused.count) refused"
            + (resumed ? " (resumed)" : "")
            + (reachedBackTo.map {
                "; beyond what Apple keeps: nothing before \(ISO8601Text.iso8601(milliseconds: $0.millisecondsSince1970)) could be fetched"
            } ?? "")
    }

    /// The report as one JSON object.
    public var jsonValue: JSONValue {
        .object([
            "pages": .integer(Int64(pages)), "appended": .integer(Int64(appended)),
            "duplicates": .integer(Int64(duplicates)), "resumed": .bool(resumed),
            "reachedBackTo": reachedBackTo.map { .integer(Int64($0.millisecondsSince1970)) } ?? .null,
            "refused": .array(
                refused.map { refusal in
                    .object([
                        "page": .integer(Int64(refusal.page)), "path": .string(refusal.path),
                        "code": .string(refusal.code), "message": .string(refusal.message),
                        "retryable": .bool(refusal.isRetryable),
                    ])
                }),
        ])
    }
}

/// Why a reconciliation stopped before its end, with what it had done: the pages before the failure are committed
/// and their cursor saved, so running it again resumes after them.
public struct ReconciliationError: Error, Sendable, CustomStringConvertible {
    /// What stopped it.
    public enum Cause: Sendable {
        /// The App Store Server API answered an error or could not be reached.
        case api(APIError)
        /// The store failed (nothing of the failed page stored).
        case store(LedgerError)
        /// An item of a page was refused (the first; the report lists them all): the page is not passed, and the next
        /// run fetches it again. Retryable when the item may verify later as it is (an OCSP answer that could not be
        /// had); otherwise a configuration to mend (the trusted roots, the app Apple id, the environment), or a
        /// server that sends what Apple did not sign.
        case itemRefused(ReconciliationReport.Refusal)
    }

    /// What stopped it.
    public let cause: Cause
    /// What was done before.
    public let report: ReconciliationReport

    /// Whether running again later, as it is, may get further (an API error that says so, a store that was
    /// unavailable, an item whose verification needed an answer that could not be had).
    public var isRetryable: Bool {
        switch cause {
        case .api(let error): return error.isRetryable
        case .store(let error): return error.isRetryable
        case .itemRefused(let refusal): return refusal.isRetryable
        }
    }

    /// `code: message`.
    public var description: String {
        switch cause {
        case .api(let error): return "\(error.kind): \(error.message)"
        case .store(let error): return error.description
        case .itemRefused(let refusal):
            return
                "\(refusal.code): page \(refusal.page) \(refusal.path) was refused: the page is fetched again next time"
        }
    }
}
