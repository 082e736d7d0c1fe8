import Foundation

/// One HTTP request to the App Store Server API, as the client hands it to a transport.
public struct APIRequest: Sendable, Hashable {
    /// The HTTP method: `GET`, `POST`, `PUT` or `DELETE`.
    public var method: String
    /// The full URL: base URL, path and query.
    public var url: URL
    /// The header fields, in order (`Authorization`, `Accept`, `User-Agent`, `Content-Type`).
    public var headers: [(name: String, value: String)] {
        get { headerFields.map { ($0.name, $0.value) } }
        set { headerFields = newValue.map { HeaderField(name: $0.name, value: $0.value) } }
    }
    /// The body, when the endpoint takes one (JSON, or a PNG for Upload Image).
    public var body: Data?
    /// How long the whole exchange may take; the transport fails with ``APIError/Kind-swift.struct/timedOut``
    /// after it.
    public var timeout: Duration
    /// The most response body bytes the transport may read; a longer body fails with
    /// ``APIError/Kind-swift.struct/responseTooLarge``.
    public var maximumResponseBytes: Int
    /// Whether the request may be sent again when an attempt's outcome is unknown (a timeout, a network failure,
    /// a 5xx): whether doing it twice is the same as doing it once.
    ///
    /// True for GET, PUT and DELETE (idempotent, RFC 9110 §9.2.2; Apple's PUTs set a value) and for Get
    /// Notification History (a query sent as POST); false for every other POST (Request a Test Notification,
    /// Extend for All Active Subscribers, Finish Transaction, Initiate Performance Test). ``RetryPolicy`` reads it.
    public var isSafeToRepeat: Bool

    private var headerFields: [HeaderField]

    private struct HeaderField: Sendable, Hashable {
        var name: String
        var value: String
    }

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - url: The full URL.
    ///   - headers: The header fields, in order.
    ///   - body: The body, if any.
    ///   - timeout: How long the whole exchange may take.
    ///   - maximumResponseBytes: The most response body bytes the transport may read.
    ///   - isSafeToRepeat: Whether the request may be repeated when an attempt's outcome is unknown; `nil` says so
    ///     for the idempotent methods (GET, HEAD, PUT, DELETE, OPTIONS) only.
    public init(
        method: String, url: URL, headers: [(name: String, value: String)] = [], body: Data? = nil,
        timeout: Duration = .seconds(30), maximumResponseBytes: Int = APIRequest.defaultMaximumResponseBytes,
        isSafeToRepeat: Bool? = nil
    ) {
        self.method = method
        self.url = url
        self.headerFields = headers.map { HeaderField(name: $0.name, value: $0.value) }
        self.body = body
        self.timeout = timeout
        self.maximumResponseBytes = maximumResponseBytes
        self.isSafeToRepeat =
            isSafeToRepeat ?? ["GET", "HEAD", "PUT", "DELETE", "OPTIONS"].contains(method.uppercased())
    }

    /// The value of the first header field named `name` (case-insensitive).
    public func value(forHeader name: String) -> String? {
        headerFields.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// 4 MiB: a history page holds at most 20 transactions of a few KiB each; four MiB leaves room for any page
    /// Apple documents and bounds what a hostile server can make the client hold.
    public static let defaultMaximumResponseBytes = 4 << 20
}

/// One HTTP response, as a transport returns it: the status, the header fields and the body, at most the
/// request's ``APIRequest/maximumResponseBytes``.
public struct APIResponse: Sendable, Hashable {
    /// The HTTP status code.
    public var status: Int
    /// The header fields, names as received.
    public var headers: [String: String]
    /// The body.
    public var body: Data

    /// Creates a response.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of the header field named `name` (case-insensitive).
    public func value(forHeader name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// What the client sends its HTTP through: a request in, a response out.
///
/// The default is ``URLSessionTransport``. A server with its own HTTP client (AsyncHTTPClient, ...) conforms a
/// small adapter (Docs/Calling-the-API.md shows one). A transport must:
/// - honour ``APIRequest/timeout`` and throw an ``APIError`` of kind ``APIError/Kind-swift.struct/timedOut``
///   after it;
/// - honour task cancellation (throw `CancellationError` or an ``APIError`` of kind
///   ``APIError/Kind-swift.struct/cancelled``);
/// - read at most ``APIRequest/maximumResponseBytes`` of body and throw an ``APIError`` of kind
///   ``APIError/Kind-swift.struct/responseTooLarge`` beyond;
/// - return every status as a response (4xx and 5xx are not transport errors);
/// - never follow a redirect: return the 3xx response as it came (the request carries the bearer token, which
///   must reach no other URL).
public protocol APITransport: Sendable {
    /// Sends one request and returns its response.
    ///
    /// - Parameter request: The request, with its timeout and response bound.
    /// - Returns: The response, whatever its status.
    /// - Throws: An ``APIError`` (timed out, cancelled, too large, network) or `CancellationError`.
    func send(_ request: APIRequest) async throws -> APIResponse
}
