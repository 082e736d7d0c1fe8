import Foundation

/// A retention message with a promotional offer, signed either with ``PromotionalOfferV2SignatureCreator`` (a
/// JWS) or with ``PromotionalOfferSignatureCreator`` (V1).
///
/// An offer carries exactly one of the two signatures: each initializer takes one, and decoding refuses an offer
/// with both or neither.
///
/// [promotionalOffer](https://developer.apple.com/documentation/retentionmessaging/promotionaloffer)
public struct PromotionalOffer: Codable, Hashable, Sendable {
    /// The identifier of the message shown with the offer (written in lower case).
    ///
    /// [messageIdentifier](https://developer.apple.com/documentation/retentionmessaging/messageidentifier)
    public var messageIdentifier: UUID?

    private enum Signature: Hashable, Sendable {
        case v2(String)
        case v1(PromotionalOfferSignatureV1)
    }

    private var signature: Signature

    /// An offer signed with ``PromotionalOfferV2SignatureCreator``.
    ///
    /// - Parameters:
    ///   - messageIdentifier: The message to show with the offer.
    ///   - promotionalOfferSignatureV2: The JWS that `createSignature(productId:offerIdentifier:transactionId:)`
    ///     returned.
    public init(messageIdentifier: UUID? = nil, promotionalOfferSignatureV2: String) {
        self.messageIdentifier = messageIdentifier
        self.signature = .v2(promotionalOfferSignatureV2)
    }

    /// An offer signed with ``PromotionalOfferSignatureCreator`` (V1).
    ///
    /// - Parameters:
    ///   - messageIdentifier: The message to show with the offer.
    ///   - promotionalOfferSignatureV1: The V1 signature and the values it covers.
    public init(messageIdentifier: UUID? = nil, promotionalOfferSignatureV1: PromotionalOfferSignatureV1) {
        self.messageIdentifier = messageIdentifier
        self.signature = .v1(promotionalOfferSignatureV1)
    }

    /// The V2 signature (a JWS), or `nil` when the offer is signed with V1.
    ///
    /// [promotionalOfferSignatureV2](https://developer.apple.com/documentation/retentionmessaging/promotionaloffersignaturev2)
    public var promotionalOfferSignatureV2: String? {
        if case .v2(let jws) = signature { jws } else { nil }
    }

    /// The V1 signature, or `nil` when the offer is signed with V2.
    ///
    /// [promotionalOfferSignatureV1](https://developer.apple.com/documentation/retentionmessaging/promotionaloffersignaturev1)
    public var promotionalOfferSignatureV1: PromotionalOfferSignatureV1? {
        if case .v1(let values) = signature { values } else { nil }
    }

    enum CodingKeys: String, CodingKey {
        case messageIdentifier, promotionalOfferSignatureV2, promotionalOfferSignatureV1
    }

    /// Decodes an offer with exactly one signature; both or neither is a `DecodingError.dataCorrupted`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        messageIdentifier = try container.decodeUUIDIfPresent(forKey: .messageIdentifier)
        let v2 = try container.decodeIfPresent(String.self, forKey: .promotionalOfferSignatureV2)
        let v1 = try container.decodeIfPresent(PromotionalOfferSignatureV1.self, forKey: .promotionalOfferSignatureV1)
        switch (v2, v1) {
        case (let jws?, nil): signature = .v2(jws)
        case (nil, let values?): signature = .v1(values)
        default:
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: "a promotional offer has exactly one of promotionalOfferSignatureV2 and "
                        + "promotionalOfferSignatureV1"))
        }
    }

    /// Encodes the identifier (lower case) and the one signature.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeLowercased(messageIdentifier, forKey: .messageIdentifier)
        switch signature {
        case .v2(let jws): try container.encode(jws, forKey: .promotionalOfferSignatureV2)
        case .v1(let values): try container.encode(values, forKey: .promotionalOfferSignatureV1)
        }
    }
}
