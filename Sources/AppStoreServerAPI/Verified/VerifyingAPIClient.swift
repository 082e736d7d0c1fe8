import Foundation
import JWSVerify

/// The App Store Server API endpoints that return signed data, with Apple's method names and labels, each
/// returning every signed item verified (``VerifiedResponse``), and the paged endpoints as `AsyncSequence`s that
/// fetch and verify page after page.
///
/// Made by ``AppStoreServerAPIClient/verifying(with:pagingLimits:)``.
public struct VerifyingAPIClient: Sendable {
    /// The client that makes the calls.
    public let client: AppStoreServerAPIClient
    /// The verifier of every item.
    public var verifier: SignedDataVerifier { responses.verifier }
    /// The bounds of every paged call (``transactionHistory(anyTransactionId:transactionHistoryRequest:version:revision:)``,
    /// ``refundHistory(anyTransactionId:)``, ``notificationHistory(notificationHistoryRequest:paginationToken:)``): pages, items and
    /// empty pages in a row; ``PagingLimits/default`` unless set.
    public var pagingLimits: PagingLimits
    let responses: APIResponseVerifier

    init(client: AppStoreServerAPIClient, verifier: SignedDataVerifier, pagingLimits: PagingLimits = .default) {
        self.client = client
        self.responses = APIResponseVerifier(verifier: verifier)
        self.pagingLimits = pagingLimits
    }

    /// Get Transaction Info, its transaction verified.
    public func getTransactionInfo(
        transactionId: String
    ) async throws(APIError)
        -> VerifiedResponse<TransactionInfoResponse>
    {
        try await fetch(
            .get, ["inApps", "v1", "transactions", transactionId], kind: .transactionInfo,
            requestedTransactionId: transactionId)
    }

    /// Get Transaction History, one page, every transaction verified and the envelope checked.
    public func getTransactionHistory(
        anyTransactionId: String, revision: String?, transactionHistoryRequest: TransactionHistoryRequest,
        version: AppStoreServerAPIClient.GetTransactionHistoryVersion = .v2, page: Int = 0
    ) async throws(APIError) -> VerifiedResponse<HistoryResponse> {
        try await fetch(
            .get, ["inApps", version.rawValue, "history", anyTransactionId],
            query: AppStoreServerAPIClient.historyQuery(revision: revision, transactionHistoryRequest),
            kind: .transactionHistory, page: page)
    }

    /// Every page of Get Transaction History, fetched and verified one after the other (by `revision`, while
    /// `hasMore`).
    ///
    /// - Parameters:
    ///   - anyTransactionId: Any transaction id of the customer.
    ///   - transactionHistoryRequest: The filters and sort (the same on every page, and on a later sync).
    ///   - version: The endpoint's version.
    ///   - revision: Where to start: a `revision` an earlier response gave (an incremental sync; pass the same
    ///     request as then), or nil for the first page.
    public func transactionHistory(
        anyTransactionId: String, transactionHistoryRequest: TransactionHistoryRequest = TransactionHistoryRequest(),
        version: AppStoreServerAPIClient.GetTransactionHistoryVersion = .v2, revision: String? = nil
    ) -> VerifiedPages<HistoryResponse> {
        VerifiedPages(limits: pagingLimits, start: revision) { cursor, page throws(APIError) in
            let response = try await getTransactionHistory(
                anyTransactionId: anyTransactionId, revision: cursor,
                transactionHistoryRequest: transactionHistoryRequest, version: version, page: page)
            return (
                response, response.response.hasMore == true ? response.response.revision : nil,
                response.response.hasMore == true
            )
        }
    }

    /// Get All Subscription Statuses, every transaction and renewal information verified and the envelope
    /// checked.
    public func getAllSubscriptionStatuses(
        anyTransactionId: String, status: [Status]? = nil
    ) async throws(APIError)
        -> VerifiedResponse<StatusResponse>
    {
        try await fetch(
            .get, ["inApps", "v1", "subscriptions", anyTransactionId],
            query: (status ?? []).map { ("status", String($0.rawValue)) }, kind: .subscriptionStatuses)
    }

    /// Get Refund History, one page, every transaction verified.
    public func getRefundHistory(
        anyTransactionId: String, revision: String?, page: Int = 0
    ) async throws(APIError)
        -> VerifiedResponse<RefundHistoryResponse>
    {
        try await fetch(
            .get, ["inApps", "v2", "refund", "lookup", anyTransactionId],
            query: revision.map { [("revision", $0)] } ?? [], kind: .refundHistory, page: page)
    }

    /// Every page of Get Refund History, fetched and verified one after the other.
    public func refundHistory(anyTransactionId: String) -> VerifiedPages<RefundHistoryResponse> {
        VerifiedPages(limits: pagingLimits) { cursor, page throws(APIError) in
            let response = try await getRefundHistory(anyTransactionId: anyTransactionId, revision: cursor, page: page)
            return (
                response, response.response.hasMore == true ? response.response.revision : nil,
                response.response.hasMore == true
            )
        }
    }

    /// Look Up Order ID, every transaction verified.
    public func lookUpOrderId(orderId: String) async throws(APIError) -> VerifiedResponse<OrderLookupResponse> {
        try await fetch(.get, ["inApps", "v1", "lookup", orderId], kind: .orderLookup)
    }

    /// Get Notification History, one page, every notification verified.
    public func getNotificationHistory(
        paginationToken: String?, notificationHistoryRequest: NotificationHistoryRequest, page: Int = 0
    ) async throws(APIError) -> VerifiedResponse<NotificationHistoryResponse> {
        let body: Data
        do {
            body = try APIJSON.encoder().encode(notificationHistoryRequest)
        } catch {
            throw APIError(kind: .invalidRequest, message: "the request body could not be encoded: \(error)")
        }
        return try await fetch(
            .post, ["inApps", "v1", "notifications", "history"],
            query: paginationToken.map { [("paginationToken", $0)] } ?? [], body: body, kind: .notificationHistory,
            page: page)
    }

    /// Every page of Get Notification History, fetched and verified one after the other (by `paginationToken`,
    /// while `hasMore`).
    ///
    /// - Parameters:
    ///   - notificationHistoryRequest: The window and filters (the same on every page).
    ///   - paginationToken: Where to resume: the token an earlier page of the same request gave, or nil for the
    ///     first page.
    public func notificationHistory(
        notificationHistoryRequest: NotificationHistoryRequest, paginationToken: String? = nil
    )
        -> VerifiedPages<NotificationHistoryResponse>
    {
        VerifiedPages(limits: pagingLimits, start: paginationToken) { cursor, page throws(APIError) in
            let response = try await getNotificationHistory(
                paginationToken: cursor, notificationHistoryRequest: notificationHistoryRequest, page: page)
            return (
                response, response.response.hasMore == true ? response.response.paginationToken : nil,
                response.response.hasMore == true
            )
        }
    }

    /// Get Test Notification Status, its notification verified.
    public func getTestNotificationStatus(
        testNotificationToken: String
    ) async throws(APIError)
        -> VerifiedResponse<CheckTestNotificationResponse>
    {
        try await fetch(
            .get, ["inApps", "v1", "notifications", "test", testNotificationToken], kind: .testNotificationStatus)
    }

    /// Get App Transaction Info, its app transaction verified.
    public func getAppTransactionInfo(
        anyTransactionId: String
    ) async throws(APIError)
        -> VerifiedResponse<AppTransactionInfoResponse>
    {
        try await fetch(
            .get, ["inApps", "v1", "transactions", "appTransactions", anyTransactionId], kind: .appTransactionInfo)
    }

    private func fetch<Response: Decodable & Sendable>(
        _ method: AppStoreServerAPIClient.Method, _ path: [String], query: [(String, String)] = [], body: Data? = nil,
        kind: APIResponseKind, page: Int = 0, requestedTransactionId: String? = nil
    ) async throws(APIError) -> VerifiedResponse<Response> {
        let response = try await client.send(method, path, query: query, body: body, contentType: "application/json")
        return try await responses.verify(
            body: response.body, as: Response.self, kind: kind, page: page,
            requestedTransactionId: requestedTransactionId)
    }
}
