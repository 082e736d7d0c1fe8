import Foundation

/// An Advanced Commerce retention offer or switch-plan suggestion, for a subscription sold with the Advanced
/// Commerce API.
///
/// [advancedCommerceInfo](https://developer.apple.com/documentation/retentionmessaging/advancedcommerceinfo)
public struct AdvancedCommerceInfo: Codable, Hashable, Sendable {
    /// The identifier of the message shown with the offer or suggestion (written in lower case).
    ///
    /// [messageIdentifier](https://developer.apple.com/documentation/retentionmessaging/messageidentifier)
    public var messageIdentifier: UUID?

    /// The base64 of a JSON object holding a JWS that describes the offer or switch-plan suggestion.
    ///
    /// [advancedCommerceData](https://developer.apple.com/documentation/retentionmessaging/advancedcommercedata)
    public var advancedCommerceData: String?

    /// Creates an Advanced Commerce retention answer.
    public init(messageIdentifier: UUID? = nil, advancedCommerceData: String? = nil) {
        self.messageIdentifier = messageIdentifier
        self.advancedCommerceData = advancedCommerceData
    }

    enum CodingKeys: String, CodingKey {
        case messageIdentifier, advancedCommerceData
    }

    /// Decodes the answer; the UUID may be in either case.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        messageIdentifier = try container.decodeUUIDIfPresent(forKey: .messageIdentifier)
        advancedCommerceData = try container.decodeIfPresent(String.self, forKey: .advancedCommerceData)
    }

    /// Encodes the present members, the identifier in lower case.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeLowercased(messageIdentifier, forKey: .messageIdentifier)
        try container.encodeIfPresent(advancedCommerceData, forKey: .advancedCommerceData)
    }
}
