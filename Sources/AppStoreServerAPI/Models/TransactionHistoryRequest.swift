import Foundation
import JWSVerify

/// The query of Get Transaction History: filters and sort order.
public struct TransactionHistoryRequest: Codable, Hashable, Sendable {
    /// Transactions purchased at or after this time.
    public var startDate: Date?

    /// Transactions purchased before this time.
    public var endDate: Date?

    /// Only these products.
    public var productIds: [String]?

    /// Only these product types.
    public var productTypes: [HistoryProductType]?

    /// The order of the transactions.
    public var sort: HistoryOrder?

    /// Only these subscription groups.
    public var subscriptionGroupIdentifiers: [String]?

    /// Only purchased or only family-shared transactions.
    public var inAppOwnershipType: InAppOwnershipType?

    /// Only revoked (true) or only not revoked (false) transactions.
    public var revoked: Bool?

    /// Creates a value from its fields; every field defaults to absent.
    public init(
        startDate: Date? = nil,
        endDate: Date? = nil,
        productIds: [String]? = nil,
        productTypes: [HistoryProductType]? = nil,
        sort: HistoryOrder? = nil,
        subscriptionGroupIdentifiers: [String]? = nil,
        inAppOwnershipType: InAppOwnershipType? = nil,
        revoked: Bool? = nil
    ) {
        self.startDate = startDate
        self.endDate = endDate
        self.productIds = productIds
        self.productTypes = productTypes
        self.sort = sort
        self.subscriptionGroupIdentifiers = subscriptionGroupIdentifiers
        self.inAppOwnershipType = inAppOwnershipType
        self.revoked = revoked
    }
}
