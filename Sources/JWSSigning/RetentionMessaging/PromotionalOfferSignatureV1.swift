import Foundation

/// A promotional offer signed the earlier way (V1): the signature of ``PromotionalOfferSignatureCreator`` with the
/// values it signed.
///
/// The nonce and the app account token are written in lower case, as the signature covers them.
///
/// [promotionalOfferSignatureV1](https://developer.apple.com/documentation/retentionmessaging/promotionaloffersignaturev1)
public struct PromotionalOfferSignatureV1: Codable, Hashable, Sendable {
    /// The base64 of the DER ECDSA signature over the offer's values.
    public var encodedSignature: String

    /// The product identifier of the subscription.
    ///
    /// [productId](https://developer.apple.com/documentation/retentionmessaging/productid)
    public var productId: String

    /// The one-time UUID that the signature covers.
    public var nonce: UUID

    /// When the signature was made, in milliseconds since 1970.
    public var timestamp: Int64

    /// The identifier of the In-App Purchase key that signed.
    public var keyId: String

    /// The identifier of the promotional offer, from App Store Connect.
    public var offerIdentifier: String

    /// The UUID that links the purchase to a customer account of your service, when the signature covers one.
    public var appAccountToken: UUID?

    /// Creates a V1 signature answer from a signature and the values it covers.
    public init(
        encodedSignature: String, productId: String, nonce: UUID, timestamp: Int64, keyId: String,
        offerIdentifier: String, appAccountToken: UUID? = nil
    ) {
        self.encodedSignature = encodedSignature
        self.productId = productId
        self.nonce = nonce
        self.timestamp = timestamp
        self.keyId = keyId
        self.offerIdentifier = offerIdentifier
        self.appAccountToken = appAccountToken
    }

    enum CodingKeys: String, CodingKey {
        case encodedSignature, productId, nonce, timestamp, keyId, offerIdentifier, appAccountToken
    }

    /// Decodes the answer; the UUIDs may be in either case.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        encodedSignature = try container.decode(String.self, forKey: .encodedSignature)
        productId = try container.decode(String.self, forKey: .productId)
        nonce = try container.decodeUUID(forKey: .nonce)
        timestamp = try container.decode(Int64.self, forKey: .timestamp)
        keyId = try container.decode(String.self, forKey: .keyId)
        offerIdentifier = try container.decode(String.self, forKey: .offerIdentifier)
        appAccountToken = try container.decodeUUIDIfPresent(forKey: .appAccountToken)
    }

    /// Encodes the members, the UUIDs in lower case.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(encodedSignature, forKey: .encodedSignature)
        try container.encode(productId, forKey: .productId)
        try container.encodeLowercased(nonce, forKey: .nonce)
        try container.encode(timestamp, forKey: .timestamp)
        try container.encode(keyId, forKey: .keyId)
        try container.encode(offerIdentifier, forKey: .offerIdentifier)
        try container.encodeLowercased(appAccountToken, forKey: .appAccountToken)
    }
}
