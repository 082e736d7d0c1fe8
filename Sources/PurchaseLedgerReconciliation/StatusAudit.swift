import AppStoreServerAPI
import Foundation
import JWSVerify
import PurchaseLedger

extension LedgerReconciler {
    /// One subscription of an audit: Apple's status beside the ledger's.
    public struct AuditFinding: Sendable, Hashable {
        /// The subscription.
        public var originalTransactionId: String
        /// Apple's `status` (1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked), as the response's
        /// envelope gave it (it is not signed); nil when the response gave none.
        public var appleStatus: Int64?
        /// The ledger's status before the audit's items were appended (nil: the ledger did not know it).
        public var ledgerStatus: EntitlementStatus?
        /// The ledger's status after they were.
        public var ledgerStatusAfter: EntitlementStatus?

        /// Whether the ledger, with what the audit brought, still says otherwise than Apple.
        public var differs: Bool { appleStatus != ledgerStatusAfter.map { Int64($0.appleStatus) } }
        /// Whether the ledger said otherwise than Apple before the audit.
        public var differedBefore: Bool { appleStatus != ledgerStatus.map { Int64($0.appleStatus) } }
    }

    /// What an audit found.
    public struct AuditReport: Sendable, Hashable {
        /// One finding per subscription the responses named, ordered by `originalTransactionId`.
        public var findings: [AuditFinding] = []
        /// The items of the responses, appended like any other.
        public var items = ReconciliationReport()

        /// An empty report.
        public init() {}

        /// The report as one JSON object: `items` and `findings` (`originalTransactionId`, `appleStatus`,
        /// `ledgerStatus`, `ledgerStatusAfter`, `differs`; absent values `null`).
        public var jsonValue: JSONValue {
            .object([
                "items": items.jsonValue,
                "findings": .array(
                    findings.map { finding in
                        .object([
                            "originalTransactionId": .string(finding.originalTransactionId),
                            "appleStatus": finding.appleStatus.map(JSONValue.integer) ?? .null,
                            "ledgerStatus": finding.ledgerStatus.map { .string($0.rawValue) } ?? .null,
                            "ledgerStatusAfter": finding.ledgerStatusAfter.map { .string($0.rawValue) } ?? .null,
                            "differs": .bool(finding.differs),
                        ])
                    }),
            ])
        }
    }

    /// Asks Get All Subscription Statuses for each purchase, appends every verified item of the answers, and
    /// compares Apple's `status` of each subscription with the ledger's at `time`, before and after.
    ///
    /// A difference before and none after is a missed item the audit brought; one after is a disagreement on the
    /// meaning of what both hold. Only subscriptions with a verified item in the answer are compared (Apple's
    /// `status` is not signed); refused items are counted in ``AuditReport/items`` and do not stop the audit.
    ///
    /// - Parameters:
    ///   - originalTransactionIds: The purchases to ask about (each answer covers the customer's subscriptions).
    ///   - time: When the statuses are compared: now, as Apple's answer is.
    public func audit(
        originalTransactionIds: [String], at time: Timestamp = Timestamp(Date())
    ) async throws(ReconciliationError) -> AuditReport {
        var report = AuditReport()
        // Each subscription named, with Apple's status and the ledger's before any answer's items were appended.
        var found: [String: AuditFinding] = [:]
        for id in originalTransactionIds {
            let response: VerifiedResponse<StatusResponse>
            do throws(APIError) {
                response = try await api.getAllSubscriptionStatuses(anyTransactionId: id)
            } catch {
                throw ReconciliationError(cause: .api(error), report: report.items)
            }
            // Apple's status is not signed: a subscription is compared only when a verified item of the answer is
            // of it (the client checked each entry's items against its originalTransactionId).
            let verified = Set(
                response.items.compactMap { item in
                    item.transaction?.originalTransactionId ?? item.renewalInfo?.originalTransactionId
                })
            let named = (response.response.data ?? []).flatMap { $0.lastTransactions ?? [] }
            for entry in named {
                guard let original = entry.originalTransactionId, verified.contains(original), found[original] == nil
                else { continue }
                found[original] = AuditFinding(
                    originalTransactionId: original, appleStatus: entry.status?.rawValue,
                    ledgerStatus: try status(of: original, at: time, report.items))
            }
            try commit(response, pageNumber: report.items.pages, cursor: nil, into: &report.items)
        }
        for original in found.keys.sorted() {
            guard var finding = found[original] else { continue }
            finding.ledgerStatusAfter = try status(of: original, at: time, report.items)
            report.findings.append(finding)
        }
        return report
    }

    /// ``audit(originalTransactionIds:at:)`` of a random sample of the subscriptions the ledger holds in the
    /// reconciler's environment.
    public func audit(
        sampleSize: Int, at time: Timestamp = Timestamp(Date())
    ) async throws(ReconciliationError)
        -> AuditReport
    {
        let ids = try store(ReconciliationReport()) { () throws(LedgerError) in
            try ledger.store.sampleSubscriptions(environment: environment.rawValue, limit: sampleSize)
        }
        return try await audit(originalTransactionIds: ids, at: time)
    }

    /// The ledger's status of a purchase in the reconciler's environment.
    private func status(
        of originalTransactionId: String, at time: Timestamp, _ report: ReconciliationReport
    ) throws(ReconciliationError) -> EntitlementStatus? {
        try store(report) { () throws(LedgerError) in
            try ledger.entitlements(
                for: .originalTransactionId(originalTransactionId), at: time, environment: environment
            ).entitlements.first?.status
        }
    }
}
