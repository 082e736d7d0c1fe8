import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The default transport: Foundation's `URLSession`, with the request's timeout, task cancellation, a bound on the
/// response body, and no redirects.
///
/// A redirect is never followed: the request carries the bearer token, and a 3xx answer would send it to another
/// URL. The 3xx response is returned as it came, and the client reports it as an ``APIError`` of kind
/// ``APIError/Kind-swift.struct/httpError`` with its status.
///
/// Each request runs in a session of its own with the configuration of the transport's session (FoundationNetworking
/// hands a task's body only to its session's delegate, and the body must be read through a delegate to stop at the
/// bound); that session is invalidated when the exchange ends, however it ends. The delegate of the session you
/// pass is not used.
public struct URLSessionTransport: APITransport {
    private let session: URLSession
    let probe: ExchangeProbe?

    /// Creates a transport with the configuration of `session` (by default an ephemeral session: no cookies, no
    /// cache).
    public init(session: URLSession = URLSession(configuration: .ephemeral)) {
        self.init(session: session, probe: nil)
    }

    /// A transport whose exchanges are counted by `probe` (tests).
    init(session: URLSession = URLSession(configuration: .ephemeral), probe: ExchangeProbe?) {
        self.session = session
        self.probe = probe
    }

    /// Sends `request` and returns its response, whatever its status (a 3xx included: redirects are not followed).
    ///
    /// - Throws: An ``APIError`` of kind `timedOut`, `cancelled`, `responseTooLarge` or `network`.
    public func send(_ request: APIRequest) async throws -> APIResponse {
        try Task.checkCancellation()
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers {
            urlRequest.addValue(value, forHTTPHeaderField: name)
        }
        urlRequest.httpBody = request.body
        let seconds =
            Double(request.timeout.components.seconds)
            + Double(request.timeout.components.attoseconds) / 1e18
        urlRequest.timeoutInterval = seconds
        return try await URLSessionExchange.run(
            urlRequest, like: session, timeout: request.timeout, limit: request.maximumResponseBytes, probe: probe)
    }
}
