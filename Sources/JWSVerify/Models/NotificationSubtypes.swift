extension NotificationTypeV2 {
    /// The subtypes Apple documents for this notification type, in Apple's order: empty for a type that comes without
    /// one (`REFUND`), nil for a type this version does not know.
    ///
    /// From Apple's `notificationType` documentation
    /// (https://developer.apple.com/documentation/appstoreservernotifications/notificationtype). A type listed with
    /// subtypes may also come without one where Apple says so (`DID_RENEW`, `DID_CHANGE_RENEWAL_PREF`,
    /// `OFFER_REDEEMED`, `DID_FAIL_TO_RENEW`).
    package var documentedSubtypes: [Subtype]? {
        guard name != nil else { return nil }
        return Self.subtypes[rawValue] ?? []
    }

    private static let subtypes: [String: [Subtype]] = [
        subscribed.rawValue: [.initialBuy, .resubscribe],
        didRenew.rawValue: [.billingRecovery],
        didChangeRenewalPref.rawValue: [.upgrade, .downgrade],
        didChangeRenewalStatus.rawValue: [.autoRenewEnabled, .autoRenewDisabled],
        offerRedeemed.rawValue: [.initialBuy, .resubscribe, .upgrade, .downgrade],
        didFailToRenew.rawValue: [.gracePeriod],
        expired.rawValue: [.voluntary, .billingRetry, .priceIncrease, .productNotForSale],
        priceIncrease.rawValue: [.pending, .accepted],
        renewalExtension.rawValue: [.summary, .failure],
        externalPurchaseToken.rawValue: [.unreported, .activeTokenReminder, .created],
    ]
}
