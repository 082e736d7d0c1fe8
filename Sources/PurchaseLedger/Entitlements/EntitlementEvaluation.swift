import JWSVerify

/// Entitlements at a time, from the state's records: a pure function (no clock, no database).
///
/// For each purchase (`originalTransactionId`, per environment) the current transaction is the one with the latest
/// `purchaseDate` at or before T (on a tie, the larger `transactionId`); a purchase with none yet has no entry.
/// Consumables are never entitlements. Then, as Apple's Get All Subscription Statuses defines `status`:
/// 1. revoked, when the current transaction's `revocationDate` is at or before T;
/// 2. a non-consumable or non-renewing subscription is otherwise active;
/// 3. a subscription is active when its `expiresDate` is after T;
/// 4. else in its grace period when the freshest renewal info's `gracePeriodExpiresDate` is after T;
/// 5. else in billing retry when that renewal info says `isInBillingRetryPeriod`;
/// 6. else expired.
///
/// At a past T the ledger evaluates what it holds now at T; it does not replay what it knew then.
public enum EntitlementEvaluation {
    /// The entitlements of the given purchases at `time`, ordered by `originalTransactionId` (numeric order for
    /// App Store ids), then environment.
    ///
    /// - Parameters:
    ///   - transactions: The state's transactions of the purchases asked about (all of each purchase's).
    ///   - renewals: The state's renewal infos of those purchases.
    ///   - time: T.
    public static func entitlements(
        transactions: [TransactionRecord], renewals: [RenewalRecord], at time: Timestamp
    ) -> [Entitlement] {
        var current: [RecordKey: TransactionRecord] = [:]
        for transaction in transactions where transaction.productType != ProductType.consumable.rawValue {
            guard let purchased = transaction.purchaseDate, purchased <= time else { continue }
            let key = RecordKey(environment: transaction.environment, id: transaction.originalTransactionId)
            if let held = current[key], !isLater(transaction, than: held) { continue }
            current[key] = transaction
        }
        var renewalByKey: [RecordKey: RenewalRecord] = [:]
        for renewal in renewals { renewalByKey[renewal.key] = renewal }
        let ordered = current.keys.sorted { a, b in
            a.id != b.id
                ? IdentifierOrder.precedes(a.id, b.id)
                : Array(a.environment.utf8).lexicographicallyPrecedes(b.environment.utf8)
        }
        return ordered.compactMap { key in
            current[key].map { entitlement(of: $0, renewal: renewalByKey[key], at: time) }
        }
    }

    /// Whether `candidate` is the current transaction rather than `held`: a later purchase date, else the larger id.
    private static func isLater(_ candidate: TransactionRecord, than held: TransactionRecord) -> Bool {
        let (a, b) = (candidate.purchaseDate, held.purchaseDate)
        if a != b {
            return (a ?? Timestamp(millisecondsSince1970: -.infinity))
                > (b ?? Timestamp(millisecondsSince1970: -.infinity))
        }
        return IdentifierOrder.precedes(held.transactionId, candidate.transactionId)
    }

    private static func entitlement(
        of transaction: TransactionRecord, renewal: RenewalRecord?, at time: Timestamp
    ) -> Entitlement {
        let revoked = transaction.revocationDate.map { $0 <= time } ?? false
        let status: EntitlementStatus
        if revoked {
            status = .revoked
        } else if transaction.productType != ProductType.autoRenewableSubscription.rawValue {
            status = .active
        } else if let expires = transaction.expiresDate, expires > time {
            status = .active
        } else if let grace = renewal?.gracePeriodExpiresDate, grace > time {
            status = .gracePeriod
        } else if renewal?.isInBillingRetryPeriod == true {
            status = .billingRetry
        } else {
            status = .expired
        }
        return Entitlement(
            originalTransactionId: transaction.originalTransactionId, productId: transaction.productId,
            productType: transaction.productType, status: status, transactionId: transaction.transactionId,
            expiresDate: transaction.expiresDate, gracePeriodExpiresDate: renewal?.gracePeriodExpiresDate,
            revocationDate: revoked ? transaction.revocationDate : nil,
            revocationReason: revoked ? transaction.revocationReason : nil,
            revocationType: revoked ? transaction.revocationType : nil, autoRenewStatus: renewal?.autoRenewStatus,
            ownershipType: transaction.ownershipType, quantity: transaction.quantity,
            subscriptionGroupIdentifier: transaction.subscriptionGroupIdentifier, environment: transaction.environment)
    }
}
