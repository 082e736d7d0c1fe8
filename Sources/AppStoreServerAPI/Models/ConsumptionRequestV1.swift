import Foundation
import JWSSigning
import JWSVerify

/// The body of Send Consumption Information (v1).
public struct ConsumptionRequestV1: Codable, Hashable, Sendable {
    /// Whether the customer consented to share this data.
    public var customerConsented: Bool?

    /// How much was consumed.
    public var consumptionStatus: ConsumptionStatus?

    /// Where it was consumed.
    public var platform: Platform?

    /// Whether you provided a free sample or trial.
    public var sampleContentProvided: Bool?

    /// Whether the purchase was delivered.
    public var deliveryStatus: DeliveryStatusV1?

    /// The customer's account token in your app.
    public var appAccountToken: UUID?

    /// The account's age.
    public var accountTenure: AccountTenure?

    /// How long the customer used the app.
    public var playTime: PlayTime?

    /// Lifetime refunds.
    public var lifetimeDollarsRefunded: LifetimeDollarsRefunded?

    /// Lifetime purchases.
    public var lifetimeDollarsPurchased: LifetimeDollarsPurchased?

    /// The account's status.
    public var userStatus: UserStatus?

    /// Your preferred outcome.
    public var refundPreference: RefundPreferenceV1?

    /// Creates a value from its fields; every field defaults to absent.
    public init(
        customerConsented: Bool? = nil,
        consumptionStatus: ConsumptionStatus? = nil,
        platform: Platform? = nil,
        sampleContentProvided: Bool? = nil,
        deliveryStatus: DeliveryStatusV1? = nil,
        appAccountToken: UUID? = nil,
        accountTenure: AccountTenure? = nil,
        playTime: PlayTime? = nil,
        lifetimeDollarsRefunded: LifetimeDollarsRefunded? = nil,
        lifetimeDollarsPurchased: LifetimeDollarsPurchased? = nil,
        userStatus: UserStatus? = nil,
        refundPreference: RefundPreferenceV1? = nil
    ) {
        self.customerConsented = customerConsented
        self.consumptionStatus = consumptionStatus
        self.platform = platform
        self.sampleContentProvided = sampleContentProvided
        self.deliveryStatus = deliveryStatus
        self.appAccountToken = appAccountToken
        self.accountTenure = accountTenure
        self.playTime = playTime
        self.lifetimeDollarsRefunded = lifetimeDollarsRefunded
        self.lifetimeDollarsPurchased = lifetimeDollarsPurchased
        self.userStatus = userStatus
        self.refundPreference = refundPreference
    }
}

extension ConsumptionRequestV1 {
    enum CodingKeys: String, CodingKey {
        case customerConsented, consumptionStatus, platform, sampleContentProvided, deliveryStatus,
            appAccountToken, accountTenure, playTime, lifetimeDollarsRefunded, lifetimeDollarsPurchased,
            userStatus, refundPreference
    }

    /// Encodes the fields; UUIDs in lower case, as Apple's Python, Node and Java libraries write them.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(customerConsented, forKey: .customerConsented)
        try container.encodeIfPresent(consumptionStatus, forKey: .consumptionStatus)
        try container.encodeIfPresent(platform, forKey: .platform)
        try container.encodeIfPresent(sampleContentProvided, forKey: .sampleContentProvided)
        try container.encodeIfPresent(deliveryStatus, forKey: .deliveryStatus)
        try container.encodeLowercased(appAccountToken, forKey: .appAccountToken)
        try container.encodeIfPresent(accountTenure, forKey: .accountTenure)
        try container.encodeIfPresent(playTime, forKey: .playTime)
        try container.encodeIfPresent(lifetimeDollarsRefunded, forKey: .lifetimeDollarsRefunded)
        try container.encodeIfPresent(lifetimeDollarsPurchased, forKey: .lifetimeDollarsPurchased)
        try container.encodeIfPresent(userStatus, forKey: .userStatus)
        try container.encodeIfPresent(refundPreference, forKey: .refundPreference)
    }
}
