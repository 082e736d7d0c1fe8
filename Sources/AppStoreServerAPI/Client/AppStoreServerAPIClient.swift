import Foundation
import JWSSigning
import JWSVerify

/// Apple's spelling of ``AppStoreServerAPIClient/GetTransactionHistoryVersion``: Apple's App Store Server Library
/// declares the enumeration at the top level, so code written for it compiles here, with a warning that names the
/// nested type.
@available(*, deprecated, renamed: "AppStoreServerAPIClient.GetTransactionHistoryVersion")
public typealias GetTransactionHistoryVersion = AppStoreServerAPIClient.GetTransactionHistoryVersion

/// A client of the App Store Server API, with the method names and labels of Apple's App Store Server Library.
///
/// Each method makes one call (retrying when ``Configuration/retryPolicy`` says so) and returns the decoded
/// response, or throws an ``APIError``. The signed members of a response (transactions, renewal information,
/// notifications) are returned as they came; to verify every one of them, call the same method on
/// ``verifying(with:pagingLimits:)``, which returns each item with its own verification result.
///
/// HTTP goes through an ``APITransport`` (``URLSessionTransport`` by default). The bearer token is an ES256 JWT
/// signed with your In-App Purchase key and reused until shortly before it expires.
public final class AppStoreServerAPIClient: Sendable {
    /// Which version of Get Transaction History to call.
    public enum GetTransactionHistoryVersion: String, Sendable, Hashable {
        /// `/inApps/v1/history` (deprecated by Apple).
        case v1
        /// `/inApps/v2/history`.
        case v2
    }

    /// Timeouts, bounds, retries and the token's lifetime.
    public struct Configuration: Sendable {
        /// How long one attempt may take, in total.
        public var timeout: Duration
        /// The longest response body accepted.
        public var maximumResponseBytes: Int
        /// Whether to retry what the API says to retry (off by default).
        public var retryPolicy: RetryPolicy
        /// How long a bearer token lives (at most 60 minutes; default 30).
        public var tokenLifetime: Duration
        /// The `User-Agent` header.
        public var userAgent: String
        /// The clock: the bearer token's `iat` and `Retry-After` dates (a test sets it).
        public var now: @Sendable () -> Date

        /// Creates a configuration; every value has a default.
        public init(
            timeout: Duration = .seconds(30), maximumResponseBytes: Int = APIRequest.defaultMaximumResponseBytes,
            retryPolicy: RetryPolicy = .none, tokenLifetime: Duration = .seconds(30 * 60),
            userAgent: String = "jwsverify-app-store-server-api/1", now: @escaping @Sendable () -> Date = { Date() }
        ) {
            self.timeout = timeout
            self.maximumResponseBytes = maximumResponseBytes
            self.retryPolicy = retryPolicy
            self.tokenLifetime = tokenLifetime
            self.userAgent = userAgent
            self.now = now
        }
    }

    /// `https://api.storekit.apple.com`.
    public static let productionURL = constantURL("https://api.storekit.apple.com")
    /// `https://api.storekit-sandbox.apple.com`.
    public static let sandboxURL = constantURL("https://api.storekit-sandbox.apple.com")
    /// The local-testing base URL of Apple's library (`https://local-testing-base-url`); pass your own with
    /// ``init(signingKey:keyId:issuerId:bundleId:baseURL:transport:configuration:)``.
    public static let localTestingURL = constantURL("https://local-testing-base-url")

    /// A URL from a literal of this file (each is valid; the test suite checks them), without a force unwrap.
    private static func constantURL(_ text: String) -> URL {
        URL(string: text) ?? URL(fileURLWithPath: "/")
    }

    /// The base URL of an environment: Production, Sandbox or LocalTesting; `nil` for Xcode, which has none.
    public static func baseURL(for environment: AppStoreEnvironment) -> URL? {
        switch environment {
        case .production: return productionURL
        case .sandbox: return sandboxURL
        case .localTesting: return localTestingURL
        default: return nil
        }
    }

    /// The base URL every path is appended to.
    public let baseURL: URL
    /// The bundle id the bearer token names.
    public let bundleId: String
    /// The configuration.
    public let configuration: Configuration
    let transport: any APITransport
    let tokens: BearerTokenSource
    /// Why ``baseURL`` is refused (``validateBaseURL(_:)``), thrown by every call; `nil` for a good one.
    let baseURLProblem: APIError?

    /// Creates a client for an environment, with the key as App Store Connect issues it (PEM, PKCS #8), as Apple's
    /// `AppStoreServerAPIClient(signingKey:keyId:issuerId:bundleId:environment:)`.
    ///
    /// - Throws: ``APIError`` of kind `invalidRequest` for an environment with no base URL (Xcode), `authentication`
    ///   for a key that is not a P-256 private key.
    public convenience init(
        signingKey: String, keyId: String, issuerId: String, bundleId: String, environment: AppStoreEnvironment
    ) throws(APIError) {
        let key: ES256SigningKey
        do {
            key = try ES256SigningKey(pemRepresentation: signingKey)
        } catch {
            throw APIError(kind: .authentication, message: "the signing key is not usable: \(error.message)")
        }
        try self.init(signingKey: key, keyId: keyId, issuerId: issuerId, bundleId: bundleId, environment: environment)
    }

    /// Creates a client for an environment.
    ///
    /// - Throws: ``APIError`` of kind `invalidRequest` for an environment with no base URL (Xcode).
    public convenience init(
        signingKey: ES256SigningKey, keyId: String, issuerId: String, bundleId: String,
        environment: AppStoreEnvironment, transport: any APITransport = URLSessionTransport(),
        configuration: Configuration = Configuration()
    ) throws(APIError) {
        guard let url = Self.baseURL(for: environment) else {
            throw APIError(kind: .invalidRequest, message: "the \(environment) environment has no App Store Server API")
        }
        self.init(
            signingKey: signingKey, keyId: keyId, issuerId: issuerId, bundleId: bundleId, baseURL: url,
            transport: transport, configuration: configuration)
    }

    /// Creates a client for any base URL: local testing, an emulator, a proxy.
    ///
    /// The base URL must pass ``validateBaseURL(_:)`` (`https`, or `http` to a loopback host; no user info, query
    /// or fragment). When it does not, every call throws that ``APIError`` (kind `invalidRequest`) before any token
    /// is signed or any byte is sent; call ``validateBaseURL(_:)`` first to report it early.
    public init(
        signingKey: ES256SigningKey, keyId: String, issuerId: String, bundleId: String, baseURL: URL,
        transport: any APITransport = URLSessionTransport(), configuration: Configuration = Configuration()
    ) {
        self.baseURL = baseURL
        do {
            try AppStoreServerAPIClient.validateBaseURL(baseURL)
            self.baseURLProblem = nil
        } catch {
            self.baseURLProblem = error
        }
        self.bundleId = bundleId
        self.configuration = configuration
        self.transport = transport
        self.tokens = BearerTokenSource(
            signingKey: signingKey, keyId: keyId, issuerId: issuerId, bundleId: bundleId,
            lifetime: configuration.tokenLifetime, now: configuration.now)
    }

    // MARK: - Transactions

    /// Get Transaction Info: `GET /inApps/v1/transactions/{transactionId}`.
    public func getTransactionInfo(transactionId: String) async throws(APIError) -> TransactionInfoResponse {
        try await call(.get, ["inApps", "v1", "transactions", transactionId])
    }

    /// Get Transaction History (v2): `GET /inApps/v2/history/{anyTransactionId}`, one page.
    ///
    /// - Parameters:
    ///   - anyTransactionId: A transaction, original transaction or app transaction id.
    ///   - revision: The previous page's `revision`; `nil` for the first page.
    ///   - transactionHistoryRequest: Filters and sort order.
    public func getTransactionHistory(
        anyTransactionId: String, revision: String?, transactionHistoryRequest: TransactionHistoryRequest
    ) async throws(APIError) -> HistoryResponse {
        try await getTransactionHistory(
            anyTransactionId: anyTransactionId, revision: revision,
            transactionHistoryRequest: transactionHistoryRequest, version: .v2)
    }

    /// Get Transaction History: `GET /inApps/{version}/history/{anyTransactionId}`, one page.
    public func getTransactionHistory(
        anyTransactionId: String, revision: String?, transactionHistoryRequest: TransactionHistoryRequest,
        version: GetTransactionHistoryVersion
    ) async throws(APIError) -> HistoryResponse {
        try await call(
            .get, ["inApps", version.rawValue, "history", anyTransactionId],
            query: Self.historyQuery(revision: revision, transactionHistoryRequest))
    }

    /// Get App Transaction Info: `GET /inApps/v1/transactions/appTransactions/{anyTransactionId}`.
    public func getAppTransactionInfo(anyTransactionId: String) async throws(APIError) -> AppTransactionInfoResponse {
        try await call(.get, ["inApps", "v1", "transactions", "appTransactions", anyTransactionId])
    }

    /// Look Up Order ID: `GET /inApps/v1/lookup/{orderId}`.
    public func lookUpOrderId(orderId: String) async throws(APIError) -> OrderLookupResponse {
        try await call(.get, ["inApps", "v1", "lookup", orderId])
    }

    /// Get Refund History: `GET /inApps/v2/refund/lookup/{anyTransactionId}`, one page.
    public func getRefundHistory(
        anyTransactionId: String, revision: String?
    ) async throws(APIError)
        -> RefundHistoryResponse
    {
        try await call(
            .get, ["inApps", "v2", "refund", "lookup", anyTransactionId],
            query: revision.map { [("revision", $0)] } ?? [])
    }

    /// Send Consumption Information (v1): `PUT /inApps/v1/transactions/consumption/{transactionId}`.
    public func sendConsumptionData(
        transactionId: String, consumptionRequest: ConsumptionRequestV1
    )
        async throws(APIError)
    {
        try await callWithoutResponse(
            .put, ["inApps", "v1", "transactions", "consumption", transactionId], body: consumptionRequest)
    }

    /// Send Consumption Information (v2): `PUT /inApps/v2/transactions/consumption/{transactionId}`.
    public func sendConsumptionInformation(
        transactionId: String, consumptionRequest: ConsumptionRequest
    )
        async throws(APIError)
    {
        try await callWithoutResponse(
            .put, ["inApps", "v2", "transactions", "consumption", transactionId], body: consumptionRequest)
    }

    /// Set App Account Token: `PUT /inApps/v1/transactions/{originalTransactionId}/appAccountToken`.
    public func setAppAccountToken(
        originalTransactionId: String, updateAppAccountTokenRequest: UpdateAppAccountTokenRequest
    ) async throws(APIError) {
        try await callWithoutResponse(
            .put, ["inApps", "v1", "transactions", originalTransactionId, "appAccountToken"],
            body: updateAppAccountTokenRequest)
    }

    /// Finish Transaction: `POST /inApps/v1/transactions/{transactionId}/finish`.
    public func finishTransaction(transactionId: String) async throws(APIError) {
        try await callWithoutResponse(.post, ["inApps", "v1", "transactions", transactionId, "finish"])
    }

    // MARK: - Subscriptions

    /// Get All Subscription Statuses: `GET /inApps/v1/subscriptions/{anyTransactionId}`.
    ///
    /// - Parameters:
    ///   - anyTransactionId: A transaction, original transaction or app transaction id.
    ///   - status: Only subscriptions in these statuses; all when `nil`.
    public func getAllSubscriptionStatuses(
        anyTransactionId: String, status: [Status]? = nil
    ) async throws(APIError)
        -> StatusResponse
    {
        try await call(
            .get, ["inApps", "v1", "subscriptions", anyTransactionId],
            query: (status ?? []).map { ("status", String($0.rawValue)) })
    }

    /// Extend a Subscription Renewal Date: `PUT /inApps/v1/subscriptions/extend/{originalTransactionId}`.
    public func extendSubscriptionRenewalDate(
        originalTransactionId: String, extendRenewalDateRequest: ExtendRenewalDateRequest
    ) async throws(APIError) -> ExtendRenewalDateResponse {
        try await call(
            .put, ["inApps", "v1", "subscriptions", "extend", originalTransactionId], body: extendRenewalDateRequest)
    }

    /// Extend Subscription Renewal Dates for All Active Subscribers: `POST /inApps/v1/subscriptions/extend/mass`.
    public func extendRenewalDateForAllActiveSubscribers(
        massExtendRenewalDateRequest: MassExtendRenewalDateRequest
    )
        async throws(APIError) -> MassExtendRenewalDateResponse
    {
        try await call(.post, ["inApps", "v1", "subscriptions", "extend", "mass"], body: massExtendRenewalDateRequest)
    }

    /// Get Status of Subscription Renewal Date Extensions:
    /// `GET /inApps/v1/subscriptions/extend/mass/{productId}/{requestIdentifier}`.
    public func getStatusOfSubscriptionRenewalDateExtensions(
        requestIdentifier: String, productId: String
    )
        async throws(APIError) -> MassExtendRenewalDateStatusResponse
    {
        try await call(.get, ["inApps", "v1", "subscriptions", "extend", "mass", productId, requestIdentifier])
    }

    // MARK: - Notifications

    /// Get Notification History: `POST /inApps/v1/notifications/history`, one page.
    ///
    /// - Parameters:
    ///   - paginationToken: The previous page's `paginationToken`; `nil` for the first page.
    ///   - notificationHistoryRequest: The time range and filters.
    public func getNotificationHistory(
        paginationToken: String?, notificationHistoryRequest: NotificationHistoryRequest
    ) async throws(APIError) -> NotificationHistoryResponse {
        try await call(
            .post, ["inApps", "v1", "notifications", "history"],
            query: paginationToken.map { [("paginationToken", $0)] } ?? [], body: notificationHistoryRequest)
    }

    /// Request a Test Notification: `POST /inApps/v1/notifications/test`.
    public func requestTestNotification() async throws(APIError) -> SendTestNotificationResponse {
        try await call(.post, ["inApps", "v1", "notifications", "test"])
    }

    /// Get Test Notification Status: `GET /inApps/v1/notifications/test/{testNotificationToken}`.
    public func getTestNotificationStatus(
        testNotificationToken: String
    ) async throws(APIError)
        -> CheckTestNotificationResponse
    {
        try await call(.get, ["inApps", "v1", "notifications", "test", testNotificationToken])
    }

    // MARK: - Retention Messaging

    /// Upload Image: `PUT /inApps/v1/messaging/image/{imageIdentifier}` with a PNG body.
    public func uploadImage(imageIdentifier: UUID, image: Data, imageSize: ImageSize? = nil) async throws(APIError) {
        _ = try await send(
            .put, ["inApps", "v1", "messaging", "image", imageIdentifier.uuidString.lowercased()],
            query: imageSize.map { [("imageSize", $0.rawValue)] } ?? [], body: image, contentType: "image/png")
    }

    /// Delete Image: `DELETE /inApps/v1/messaging/image/{imageIdentifier}`.
    public func deleteImage(imageIdentifier: UUID) async throws(APIError) {
        try await callWithoutResponse(
            .delete, ["inApps", "v1", "messaging", "image", imageIdentifier.uuidString.lowercased()])
    }

    /// Get Image List: `GET /inApps/v1/messaging/image/list`.
    public func getImageList() async throws(APIError) -> GetImageListResponse {
        try await call(.get, ["inApps", "v1", "messaging", "image", "list"])
    }

    /// Upload Message: `PUT /inApps/v1/messaging/message/{messageIdentifier}`.
    public func uploadMessage(
        messageIdentifier: UUID, uploadMessageRequestBody: UploadMessageRequestBody
    )
        async throws(APIError)
    {
        try await callWithoutResponse(
            .put, ["inApps", "v1", "messaging", "message", messageIdentifier.uuidString.lowercased()],
            body: uploadMessageRequestBody)
    }

    /// Delete Message: `DELETE /inApps/v1/messaging/message/{messageIdentifier}`.
    public func deleteMessage(messageIdentifier: UUID) async throws(APIError) {
        try await callWithoutResponse(
            .delete, ["inApps", "v1", "messaging", "message", messageIdentifier.uuidString.lowercased()])
    }

    /// Get Message List: `GET /inApps/v1/messaging/message/list`.
    public func getMessageList() async throws(APIError) -> GetMessageListResponse {
        try await call(.get, ["inApps", "v1", "messaging", "message", "list"])
    }

    /// Configure Default Message: `PUT /inApps/v1/messaging/default/{productId}/{locale}`.
    public func configureDefaultMessage(
        productId: String, locale: String, defaultConfigurationRequest: DefaultConfigurationRequest
    ) async throws(APIError) {
        try await callWithoutResponse(
            .put, ["inApps", "v1", "messaging", "default", productId, locale], body: defaultConfigurationRequest)
    }

    /// Delete Default Message: `DELETE /inApps/v1/messaging/default/{productId}/{locale}`.
    public func deleteDefaultMessage(productId: String, locale: String) async throws(APIError) {
        try await callWithoutResponse(.delete, ["inApps", "v1", "messaging", "default", productId, locale])
    }

    /// Get Default Message: `GET /inApps/v1/messaging/default/{productId}/{locale}`.
    public func getDefaultMessage(
        productId: String, locale: String
    ) async throws(APIError)
        -> DefaultConfigurationResponse
    {
        try await call(.get, ["inApps", "v1", "messaging", "default", productId, locale])
    }

    /// Configure Realtime URL: `PUT /inApps/v1/messaging/realtime/url`.
    public func configureRealtimeURL(realtimeUrlRequest: RealtimeUrlRequest) async throws(APIError) {
        try await callWithoutResponse(.put, ["inApps", "v1", "messaging", "realtime", "url"], body: realtimeUrlRequest)
    }

    /// Delete Realtime URL: `DELETE /inApps/v1/messaging/realtime/url`.
    public func deleteRealtimeURL() async throws(APIError) {
        try await callWithoutResponse(.delete, ["inApps", "v1", "messaging", "realtime", "url"])
    }

    /// Get Realtime URL: `GET /inApps/v1/messaging/realtime/url`.
    public func getRealtimeURL() async throws(APIError) -> RealtimeUrlResponse {
        try await call(.get, ["inApps", "v1", "messaging", "realtime", "url"])
    }

    /// Initiate Performance Test: `POST /inApps/v1/messaging/performanceTest`.
    public func initiatePerformanceTest(
        performanceTestRequest: PerformanceTestRequest
    ) async throws(APIError)
        -> PerformanceTestResponse
    {
        try await call(.post, ["inApps", "v1", "messaging", "performanceTest"], body: performanceTestRequest)
    }

    /// Get Performance Test Results: `GET /inApps/v1/messaging/performanceTest/result/{requestId}`.
    public func getPerformanceTestResults(requestId: String) async throws(APIError) -> PerformanceTestResultResponse {
        try await call(.get, ["inApps", "v1", "messaging", "performanceTest", "result", requestId])
    }

    // MARK: - Verified responses

    /// The same endpoints, each signed item of their responses verified by `verifier`.
    ///
    /// - Parameters:
    ///   - verifier: The verifier of every signed item.
    ///   - pagingLimits: The bounds of every paged call (``PagingLimits/default`` unless given).
    /// - Returns: the verifying client.
    public func verifying(
        with verifier: SignedDataVerifier, pagingLimits: PagingLimits = .default
    ) -> VerifyingAPIClient {
        VerifyingAPIClient(client: self, verifier: verifier, pagingLimits: pagingLimits)
    }
}
