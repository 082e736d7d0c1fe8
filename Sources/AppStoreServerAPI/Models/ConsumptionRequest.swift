import Foundation
import JWSVerify

/// The body of Send Consumption Information (v2).
public struct ConsumptionRequest: Codable, Hashable, Sendable {
    /// Whether the customer consented to share this data.
    public var customerConsented: Bool?

    /// How much was consumed, in thousandths (0–100000).
    public var consumptionPercentage: Int32?

    /// Whether the purchase was delivered.
    public var deliveryStatus: DeliveryStatus?

    /// Your preferred outcome.
    public var refundPreference: RefundPreference?

    /// Whether you provided a free sample or trial.
    public var sampleContentProvided: Bool?

    /// Creates a value from its fields; every field defaults to absent.
    public init(
        customerConsented: Bool? = nil,
        consumptionPercentage: Int32? = nil,
        deliveryStatus: DeliveryStatus? = nil,
        refundPreference: RefundPreference? = nil,
        sampleContentProvided: Bool? = nil
    ) {
        self.customerConsented = customerConsented
        self.consumptionPercentage = consumptionPercentage
        self.deliveryStatus = deliveryStatus
        self.refundPreference = refundPreference
        self.sampleContentProvided = sampleContentProvided
    }
}
