/// The status of a purchase at a time, with the meaning of the App Store Server API's subscription `status` (Get All
/// Subscription Statuses).
public struct EntitlementStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The name, as the entitlements document writes it.
    public let rawValue: String
    /// Wraps a name; prefer the static constants.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The name.
    public var description: String { rawValue }

    /// Apple's `status` number for this status (1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked).
    public var appleStatus: Int {
        switch self {
        case .active: return 1
        case .expired: return 2
        case .billingRetry: return 3
        case .gracePeriod: return 4
        default: return 5
        }
    }

    /// Whether the customer gets the content: active, or in a billing grace period.
    public var entitled: Bool { self == .active || self == .gracePeriod }

    /// Not revoked, and a subscription whose current transaction expires after the time asked (a non-consumable or
    /// non-renewing purchase that is not revoked). Apple's status 1.
    public static let active = EntitlementStatus(rawValue: "active")
    /// A subscription that expired and is in neither grace period nor billing retry. Apple's status 2.
    public static let expired = EntitlementStatus(rawValue: "expired")
    /// Expired, and the App Store is still trying to renew it (`isInBillingRetryPeriod`). Apple's status 3.
    public static let billingRetry = EntitlementStatus(rawValue: "billingRetry")
    /// Expired, and within the billing grace period (`gracePeriodExpiresDate` after the time asked). Apple's
    /// status 4.
    public static let gracePeriod = EntitlementStatus(rawValue: "gracePeriod")
    /// The current transaction was refunded or revoked (family sharing, multiseat assignment) by the time asked.
    /// Apple's status 5.
    public static let revoked = EntitlementStatus(rawValue: "revoked")
}
