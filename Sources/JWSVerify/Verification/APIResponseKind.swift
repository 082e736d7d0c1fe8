import Foundation

/// The App Store Server API responses that carry signed data, and where: the API-response counterpart of the
/// payload kind table (`PayloadKindTable.swift`).
///
/// For each response, the members that hold tokens and the ``PayloadKind`` each holds, and whether its envelope
/// states the app (`bundleId`, `appAppleId`, `environment`). The API client reads this table to find, verify and
/// report every signed item of a response; adding a response that carries signed data is one case and its
/// members here.
public enum APIResponseKind: String, Sendable, Hashable, CaseIterable {
    /// Get Transaction Info (`TransactionInfoResponse`).
    case transactionInfo
    /// Get Transaction History (`HistoryResponse`), paged by `revision`.
    case transactionHistory
    /// Get All Subscription Statuses (`StatusResponse`).
    case subscriptionStatuses
    /// Get Refund History (`RefundHistoryResponse`), paged by `revision`.
    case refundHistory
    /// Look Up Order ID (`OrderLookupResponse`).
    case orderLookup
    /// Get Notification History (`NotificationHistoryResponse`), paged by `paginationToken`.
    case notificationHistory
    /// Get Test Notification Status (`CheckTestNotificationResponse`).
    case testNotificationStatus
    /// Get App Transaction Info (`AppTransactionInfoResponse`).
    case appTransactionInfo

    /// A member of a response that holds tokens: its path, where `[]` steps into every element of an array
    /// (`data[].lastTransactions[].signedRenewalInfo`), and the kind of token it holds.
    public struct SignedMember: Sendable, Hashable {
        /// The path from the response's top.
        public let path: String
        /// The kind of the tokens there.
        public let kind: PayloadKind
    }

    /// The members that hold tokens, in the order their items are reported.
    public var signedMembers: [SignedMember] {
        switch self {
        case .transactionInfo: return [SignedMember(path: "signedTransactionInfo", kind: .transaction)]
        case .transactionHistory, .refundHistory, .orderLookup:
            return [SignedMember(path: "signedTransactions[]", kind: .transaction)]
        case .subscriptionStatuses:
            return [
                SignedMember(path: "data[].lastTransactions[].signedTransactionInfo", kind: .transaction),
                SignedMember(path: "data[].lastTransactions[].signedRenewalInfo", kind: .renewalInfo),
            ]
        case .notificationHistory:
            return [SignedMember(path: "notificationHistory[].signedPayload", kind: .notification)]
        case .testNotificationStatus: return [SignedMember(path: "signedPayload", kind: .notification)]
        case .appTransactionInfo: return [SignedMember(path: "signedAppTransactionInfo", kind: .appTransaction)]
        }
    }

    /// Whether the response's envelope states the app (`bundleId`, `appAppleId`, `environment`), to be checked
    /// against the verifier's configuration and each item's claims.
    public var envelopeStatesApp: Bool {
        self == .transactionHistory || self == .subscriptionStatuses
    }

    /// Whether the response answers for one transaction, the one whose id the call named (Get Transaction Info):
    /// its item's `transactionId` must be that id.
    ///
    /// Apple's documentation of Get Transaction Info: the path's `transactionId` is "the identifier of a transaction
    /// that belongs to the customer, and which may be an original transaction identifier", and the endpoint gets
    /// "information about a single transaction". An original transaction identifier is the `transactionId` of the
    /// purchase that started the subscription ("when a user first purchases a subscription, the transaction
    /// identifier always matches the original transaction identifier"), so asked for one, the answer is that
    /// first transaction: a renewal whose `originalTransactionId` is the id asked for is another transaction.
    public var itemIsRequestedTransaction: Bool { self == .transactionInfo }

    /// Whether the signed items of one entry belong together (Get All Subscription Statuses: an entry of
    /// `lastTransactions` holds one subscription's transaction and renewal info, inside its group's element of
    /// `data`): the transaction's and the renewal info's `originalTransactionId` must be the same, and the
    /// transaction's `subscriptionGroupIdentifier` the group's.
    public var pairsEntryItems: Bool { self == .subscriptionStatuses }

    /// One token found in a response.
    public struct SignedItem: Sendable, Hashable {
        /// Its place: `signedTransactions[3]`, `data[0].lastTransactions[1].signedRenewalInfo`.
        public let path: String
        /// The kind of token the member holds.
        public let kind: PayloadKind
        /// The token; `nil` when the member is present but not a string (reported, never dropped).
        public let token: String?
        /// The `originalTransactionId` that the object holding the token states beside it, when it does (an entry
        /// of `lastTransactions`): the item's own must be the same.
        public let statedOriginalTransactionId: String?
        /// The `subscriptionGroupIdentifier` that an object enclosing the token states, when one does (an element
        /// of a statuses response's `data`): a transaction's own must be the same.
        public let statedSubscriptionGroupIdentifier: String?

        /// The path of the object that holds the token (`data[0].lastTransactions[1]`); empty for a token at the
        /// response's top or in an array there. Items of one entry share it.
        public var entryPath: String {
            guard let dot = path.lastIndex(of: ".") else { return "" }
            return String(path[..<dot])
        }

        /// Creates an item.
        public init(
            path: String, kind: PayloadKind, token: String?, statedOriginalTransactionId: String? = nil,
            statedSubscriptionGroupIdentifier: String? = nil
        ) {
            self.path = path
            self.kind = kind
            self.token = token
            self.statedOriginalTransactionId = statedOriginalTransactionId
            self.statedSubscriptionGroupIdentifier = statedSubscriptionGroupIdentifier
        }
    }

    /// Every token of a response, in the order of ``signedMembers`` and, within a member, of the arrays.
    ///
    /// A token member that is missing from its object, `null` or not a string, and an element of a token array
    /// that is not a string, are returned with a `nil` token, so that the caller reports them (an empty response
    /// never reads as "every item verified"); a missing or `null` array holds no item.
    ///
    /// - Parameter response: The response's JSON object.
    /// - Returns: each token with its path and kind.
    public func signedItems(in response: [String: JSONValue]) -> [SignedItem] {
        var items: [SignedItem] = []
        for member in signedMembers {
            collect(
                .object(response), steps: member.path.split(separator: ".").map(String.init)[...], path: "",
                kind: member.kind, group: nil, into: &items)
        }
        return items
    }

    /// Collects the tokens under `value`; `group` is the `subscriptionGroupIdentifier` an enclosing object states.
    private func collect(
        _ value: JSONValue, steps: ArraySlice<String>, path: String, kind: PayloadKind, group: String?,
        into items: inout [SignedItem]
    ) {
        guard let step = steps.first else {
            switch value {
            case .string(let token):
                items.append(SignedItem(path: path, kind: kind, token: token, statedSubscriptionGroupIdentifier: group))
            default:
                items.append(SignedItem(path: path, kind: kind, token: nil, statedSubscriptionGroupIdentifier: group))
            }
            return
        }
        let isArray = step.hasSuffix("[]")
        let name = isArray ? String(step.dropLast(2)) : step
        guard case .object(let members) = value else { return }
        var group = group
        if case .string(let value)? = members["subscriptionGroupIdentifier"] { group = value }
        let memberPath = path.isEmpty ? name : path + "." + name
        guard !isArray, steps.count == 1 else {
            guard let member = members[name] else { return }
            guard isArray else {
                collect(member, steps: steps.dropFirst(), path: memberPath, kind: kind, group: group, into: &items)
                return
            }
            collectElements(
                of: member, steps: steps.dropFirst(), path: memberPath, kind: kind, group: group, into: &items)
            return
        }
        // The token's own member. One missing, `null` or not a string is an item without a token (it fails
        // check 1), so that `{}` never reads as "every item verified".
        var stated: String?
        if case .string(let value)? = members["originalTransactionId"] { stated = value }
        var token: String?
        if case .string(let value)? = members[name] { token = value }
        items.append(
            SignedItem(
                path: memberPath, kind: kind, token: token, statedOriginalTransactionId: stated,
                statedSubscriptionGroupIdentifier: group))
    }

    private func collectElements(
        of member: JSONValue, steps: ArraySlice<String>, path memberPath: String, kind: PayloadKind, group: String?,
        into items: inout [SignedItem]
    ) {
        guard case .array(let elements) = member else {
            if member != .null {
                items.append(
                    SignedItem(path: memberPath, kind: kind, token: nil, statedSubscriptionGroupIdentifier: group))
            }
            return
        }
        for (index, element) in elements.enumerated() {
            collect(element, steps: steps, path: "\(memberPath)[\(index)]", kind: kind, group: group, into: &items)
        }
    }
}

extension DecodedPayload {
    /// The bundle id the payload states, when its kind carries one that is checked (claims table).
    package var claimedBundleId: String? {
        let claims = payload.claims
        return claims.checksBundleId ? claims.bundleId : nil
    }

    /// The app Apple id the payload states, when its kind carries one.
    package var claimedAppAppleId: Int64? { payload.claims.appAppleId }

    /// The transaction's id, for a transaction.
    package var transactionId: String? {
        if case .transaction(let transaction) = self { return transaction.transactionId }
        return nil
    }

    /// The subscription group's id, for a transaction.
    package var subscriptionGroupIdentifier: String? {
        if case .transaction(let transaction) = self { return transaction.subscriptionGroupIdentifier }
        return nil
    }

    /// The original transaction's id, for a transaction or a renewal information.
    package var originalTransactionId: String? {
        switch self {
        case .transaction(let transaction): return transaction.originalTransactionId
        case .renewalInfo(let renewalInfo): return renewalInfo.originalTransactionId
        default: return nil
        }
    }
}
