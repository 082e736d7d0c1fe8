/// A request that an app sends to the Advanced Commerce API from the device, signed by the server with
/// ``AdvancedCommerceInAppSignatureCreator``.
///
/// The signature's `request` claim is the base64 of this value's JSON. The conforming types are Apple's
/// in-app request types (a one-time charge, a subscription's creation, modification or reactivation).
public protocol AdvancedCommerceInAppRequest: Encodable, Sendable {}
