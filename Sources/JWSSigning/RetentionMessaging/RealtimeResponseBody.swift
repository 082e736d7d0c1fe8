import Foundation

/// A server's answer to a Retention Messaging real-time request: the one retention message the App Store shows.
///
/// The answer holds exactly one of a ``Message``, an ``AlternateProduct``, a ``PromotionalOffer`` or an
/// ``AdvancedCommerceInfo``: each initializer takes one, the four properties read it back (the others are `nil`),
/// and decoding refuses a body with none or several. ``jsonData()`` writes the HTTP response body.
///
/// [RealtimeResponseBody](https://developer.apple.com/documentation/retentionmessaging/realtimeresponsebody)
public struct RealtimeResponseBody: Codable, Hashable, Sendable {
    private enum Content: Hashable, Sendable {
        case message(Message)
        case alternateProduct(AlternateProduct)
        case promotionalOffer(PromotionalOffer)
        case advancedCommerceInfo(AdvancedCommerceInfo)
    }

    private let content: Content

    /// Answers with a text message, with an optional image.
    public init(message: Message) {
        content = .message(message)
    }

    /// Answers with a switch-plan message.
    public init(alternateProduct: AlternateProduct) {
        content = .alternateProduct(alternateProduct)
    }

    /// Answers with a promotional offer.
    public init(promotionalOffer: PromotionalOffer) {
        content = .promotionalOffer(promotionalOffer)
    }

    /// Answers with an Advanced Commerce offer or switch-plan suggestion.
    public init(advancedCommerceInfo: AdvancedCommerceInfo) {
        content = .advancedCommerceInfo(advancedCommerceInfo)
    }

    /// The text message, when the answer is one.
    ///
    /// [message](https://developer.apple.com/documentation/retentionmessaging/message)
    public var message: Message? {
        if case .message(let value) = content { value } else { nil }
    }

    /// The switch-plan message, when the answer is one.
    ///
    /// [alternateProduct](https://developer.apple.com/documentation/retentionmessaging/alternateproduct)
    public var alternateProduct: AlternateProduct? {
        if case .alternateProduct(let value) = content { value } else { nil }
    }

    /// The promotional offer, when the answer is one.
    ///
    /// [promotionalOffer](https://developer.apple.com/documentation/retentionmessaging/promotionaloffer)
    public var promotionalOffer: PromotionalOffer? {
        if case .promotionalOffer(let value) = content { value } else { nil }
    }

    /// The Advanced Commerce offer or switch-plan suggestion, when the answer is one.
    ///
    /// [advancedCommerceInfo](https://developer.apple.com/documentation/retentionmessaging/advancedcommerceinfo)
    public var advancedCommerceInfo: AdvancedCommerceInfo? {
        if case .advancedCommerceInfo(let value) = content { value } else { nil }
    }

    /// The HTTP response body: compact JSON, keys sorted, UUIDs in lower case, slashes unescaped (`application/json`).
    ///
    /// - Throws: the `EncodingError` of `JSONEncoder` (none for the values this type holds).
    public func jsonData() throws -> Data {
        try AppStoreJSON.encode(self)
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case message, alternateProduct, promotionalOffer, advancedCommerceInfo
    }

    /// Decodes a body with exactly one of the four members (a `null` member counts as absent); none or several is a
    /// `DecodingError.dataCorrupted`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let present = try CodingKeys.allCases.filter { try container.contains($0) && !container.decodeNil(forKey: $0) }
        guard present.count == 1, let key = present.first else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: "a realtime response body has exactly one of message, alternateProduct, "
                        + "promotionalOffer and advancedCommerceInfo; this one has \(present.count)"))
        }
        switch key {
        case .message: content = .message(try container.decode(Message.self, forKey: key))
        case .alternateProduct: content = .alternateProduct(try container.decode(AlternateProduct.self, forKey: key))
        case .promotionalOffer: content = .promotionalOffer(try container.decode(PromotionalOffer.self, forKey: key))
        case .advancedCommerceInfo:
            content = .advancedCommerceInfo(try container.decode(AdvancedCommerceInfo.self, forKey: key))
        }
    }

    /// Encodes the one member.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch content {
        case .message(let value): try container.encode(value, forKey: .message)
        case .alternateProduct(let value): try container.encode(value, forKey: .alternateProduct)
        case .promotionalOffer(let value): try container.encode(value, forKey: .promotionalOffer)
        case .advancedCommerceInfo(let value): try container.encode(value, forKey: .advancedCommerceInfo)
        }
    }
}
