import JWSVerify

/// New display name or description of a subscription, and when they take effect, in an in-app modification.
///
/// [SubscriptionModifyDescriptors](https://developer.apple.com/documentation/advancedcommerceapi/subscriptionmodifydescriptors)
public struct AdvancedCommerceSubscriptionModifyDescriptors: Codable, Hashable, Sendable {
    /// The new description that customers don't see; at most 45 characters.
    ///
    /// [description](https://developer.apple.com/documentation/advancedcommerceapi/description)
    public var description: String?

    /// The new name shown to customers; at most 30 characters.
    ///
    /// [displayName](https://developer.apple.com/documentation/advancedcommerceapi/displayname)
    public var displayName: String?

    /// When the new descriptors take effect.
    ///
    /// [effective](https://developer.apple.com/documentation/advancedcommerceapi/effective)
    public var effective: AdvancedCommerceEffective

    /// Creates new descriptors, checking Apple's length rules.
    ///
    /// - Throws: ``AdvancedCommerceValidationError/Code-swift.struct/stringTooLong``.
    public init(
        effective: AdvancedCommerceEffective, description: String? = nil, displayName: String? = nil
    )
        throws(AdvancedCommerceValidationError)
    {
        self.effective = effective
        self.description = description
        self.displayName = displayName
        try validate()
    }

    enum CodingKeys: String, CodingKey {
        case description, displayName, effective
    }

    /// Decodes the descriptors and checks Apple's length rules.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        description = try container.decodeIfPresent(String.self, forKey: .description)
        displayName = try container.decodeIfPresent(String.self, forKey: .displayName)
        effective = try container.decode(AdvancedCommerceEffective.self, forKey: .effective)
        try validate()
    }

    /// Checks Apple's length rules, then encodes the present members.
    public func encode(to encoder: any Encoder) throws {
        try validate()
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(description, forKey: .description)
        try container.encodeIfPresent(displayName, forKey: .displayName)
        try container.encode(effective, forKey: .effective)
    }

    private func validate() throws(AdvancedCommerceValidationError) {
        try AdvancedCommerceValidation.checkDescription(description)
        try AdvancedCommerceValidation.checkDisplayName(displayName)
    }
}
