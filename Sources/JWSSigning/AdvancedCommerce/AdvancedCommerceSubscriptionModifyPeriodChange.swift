import JWSVerify

/// A new billing period of a subscription, and when it takes effect, in an in-app modification.
///
/// [SubscriptionModifyPeriodChange](https://developer.apple.com/documentation/advancedcommerceapi/subscriptionmodifyperiodchange)
public struct AdvancedCommerceSubscriptionModifyPeriodChange: Codable, Hashable, Sendable {
    /// When the new period takes effect.
    ///
    /// [effective](https://developer.apple.com/documentation/advancedcommerceapi/effective)
    public var effective: AdvancedCommerceEffective

    /// The new duration of one period.
    ///
    /// [period](https://developer.apple.com/documentation/advancedcommerceapi/period)
    public var period: AdvancedCommercePeriod

    /// Creates a period change.
    public init(effective: AdvancedCommerceEffective, period: AdvancedCommercePeriod) {
        self.effective = effective
        self.period = period
    }
}
