import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The default transport: Foundation's `URLSession`, with the request's timeout, task cancellation and a bound on
/// the response body.
public struct URLSessionTransport: APITransport {
    private let session: URLSession

    /// Creates a transport over `session` (by default an ephemeral session: no cookies, no cache).
    public init(session: URLSession = URLSession(configuration: .ephemeral)) {
        self.session = session
    }

    /// Sends `request` and returns its response, whatever its status.
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
            urlRequest, session: session, timeout: request.timeout, limit: request.maximumResponseBytes)
    }
}
