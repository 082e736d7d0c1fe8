import Foundation

/// The metadata of an Advanced Commerce request: its reference identifier, and optionally the app account token
/// and the consistency token of the subscription it changes.
///
/// UUIDs are written in lower case.
///
/// [RequestInfo](https://developer.apple.com/documentation/advancedcommerceapi/requestinfo)
public struct AdvancedCommerceRequestInfo: Codable, Hashable, Sendable {
    /// A UUID that identifies this request; a retry after a timeout repeats it, any other request has a new one.
    public var requestReferenceId: UUID

    /// A UUID that links the transaction to a customer account of your service.
    public var appAccountToken: UUID?

    /// The `advancedCommerceConsistencyToken` of the subscription's latest renewal information; never generated.
    ///
    /// [advancedCommerceConsistencyToken](https://developer.apple.com/documentation/AppStoreServerAPI/advancedCommerceConsistencyToken)
    public var consistencyToken: String?

    /// Creates the metadata of a request.
    public init(requestReferenceId: UUID, appAccountToken: UUID? = nil, consistencyToken: String? = nil) {
        self.requestReferenceId = requestReferenceId
        self.appAccountToken = appAccountToken
        self.consistencyToken = consistencyToken
    }

    enum CodingKeys: String, CodingKey {
        case requestReferenceId, appAccountToken, consistencyToken
    }

    /// Decodes the metadata; the UUIDs may be in either case.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        requestReferenceId = try container.decodeUUID(forKey: .requestReferenceId)
        appAccountToken = try container.decodeUUIDIfPresent(forKey: .appAccountToken)
        consistencyToken = try container.decodeIfPresent(String.self, forKey: .consistencyToken)
    }

    /// Encodes the present members, UUIDs in lower case.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeLowercased(requestReferenceId, forKey: .requestReferenceId)
        try container.encodeLowercased(appAccountToken, forKey: .appAccountToken)
        try container.encodeIfPresent(consistencyToken, forKey: .consistencyToken)
    }
}
