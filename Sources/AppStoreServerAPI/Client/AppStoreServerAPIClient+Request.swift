import Foundation
import JWSVerify

extension AppStoreServerAPIClient {
    /// The HTTP methods the API uses.
    enum Method: String, Sendable {
        case get = "GET", post = "POST", put = "PUT", delete = "DELETE"
    }

    /// A body the client never sends: the `Encodable` of calls without one.
    struct NoBody: Encodable, Sendable {}

    /// Makes a call and decodes its response as `Response`.
    func call<Response: Decodable>(
        _ method: Method, _ path: [String], query: [(String, String)] = [],
        body: (some Encodable & Sendable)? = NoBody?.none
    ) async throws(APIError) -> Response {
        let response = try await send(
            method, path, query: query, body: try encode(body), contentType: "application/json")
        return try Self.decode(Response.self, from: response.body)
    }

    /// Makes a call whose response has no body worth reading.
    func callWithoutResponse(
        _ method: Method, _ path: [String], query: [(String, String)] = [],
        body: (some Encodable & Sendable)? = NoBody?.none
    ) async throws(APIError) {
        _ = try await send(method, path, query: query, body: try encode(body), contentType: "application/json")
    }

    /// Decodes a 2xx body as `Response`; a body that is not the endpoint's JSON is `malformedResponse`.
    static func decode<Response: Decodable>(_ type: Response.Type, from body: Data) throws(APIError) -> Response {
        try decode(Response.self, from: try object(of: body, expected: String(describing: Response.self)))
    }

    /// Reads a response body once, with the library's strict parser (RFC 8259, bounded nesting, no duplicate
    /// member names): the model and the signed members are then both read from this tree.
    static func object(of body: Data, expected: String) throws(APIError) -> [String: JSONValue] {
        do {
            return try JSONParser.parseObject(Array(body))
        } catch {
            throw malformedBody(body, expected: expected)
        }
    }

    /// Decodes `Response` from a body's tree; a tree of another shape is `malformedResponse`, naming where.
    static func decode<Response: Decodable>(
        _ type: Response.Type, from object: [String: JSONValue]
    ) throws(APIError) -> Response {
        do {
            return try JSONTreeDecoder.decode(Response.self, from: .object(object))
        } catch {
            let expected = String(describing: Response.self)
            throw APIError(
                kind: .malformedResponse,
                message: "the response is not a \(expected): the JSON does not have the shape of \(expected)"
                    + JSONTreeDecoder.where(error))
        }
    }

    /// Says why a body is not the expected JSON: empty, not JSON at some offset (truncated), or the wrong shape.
    static func malformedBody(_ body: Data, expected: String) -> APIError {
        let reason: String
        if body.isEmpty {
            reason = "the body is empty"
        } else {
            do {
                _ = try JSONParser.parseValue(Array(body))
                reason = "the JSON does not have the shape of \(expected)"
            } catch {
                let endsEarly =
                    error.offset >= body.count || error.reason.hasPrefix("truncated")
                    || error.reason.hasPrefix("unterminated") || error.reason == "unexpected end"
                reason =
                    endsEarly
                    ? "the body is not complete JSON (truncated after \(body.count) bytes: \(error.reason))"
                    : "the body is not JSON (\(error.reason) at byte \(error.offset))"
            }
        }
        return APIError(kind: .malformedResponse, message: "the response is not a \(expected): \(reason)")
    }

    private func encode(_ body: (some Encodable & Sendable)?) throws(APIError) -> Data? {
        guard let body, !(body is NoBody) else { return nil }
        do {
            return try APIJSON.encoder().encode(body)
        } catch {
            throw APIError(kind: .invalidRequest, message: "the request body could not be encoded: \(error)")
        }
    }

    /// The query of Get Transaction History: the revision, then each filter as Apple's library writes it.
    static func historyQuery(revision: String?, _ request: TransactionHistoryRequest) -> [(String, String)] {
        var query: [(String, String)] = []
        if let revision { query.append(("revision", revision)) }
        func milliseconds(_ date: Date) -> String {
            APIJSON.milliseconds(date).map(String.init) ?? String(date.timeIntervalSince1970 * 1000)
        }
        if let startDate = request.startDate { query.append(("startDate", milliseconds(startDate))) }
        if let endDate = request.endDate { query.append(("endDate", milliseconds(endDate))) }
        for productId in request.productIds ?? [] { query.append(("productId", productId)) }
        for productType in request.productTypes ?? [] { query.append(("productType", productType.rawValue)) }
        if let sort = request.sort { query.append(("sort", sort.rawValue)) }
        for group in request.subscriptionGroupIdentifiers ?? [] {
            query.append(("subscriptionGroupIdentifier", group))
        }
        if let ownership = request.inAppOwnershipType { query.append(("inAppOwnershipType", ownership.rawValue)) }
        if let revoked = request.revoked { query.append(("revoked", revoked ? "true" : "false")) }
        return query
    }

    /// The URL of a call: the base URL, the path segments percent-encoded (an identifier cannot add a segment,
    /// a query or a fragment), the query; a refused base URL throws (``validateBaseURL(_:)``).
    func url(_ path: [String], query: [(String, String)]) throws(APIError) -> URL {
        if let baseURLProblem { throw baseURLProblem }
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/;?#%")
        var text = baseURL.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        for segment in path {
            guard !segment.isEmpty, segment != ".", segment != "..",
                let escaped = segment.addingPercentEncoding(withAllowedCharacters: allowed)
            else {
                throw APIError(kind: .invalidRequest, message: "the path segment \"\(segment)\" is not usable in a URL")
            }
            text += "/" + escaped
        }
        if !query.isEmpty {
            var allowedQuery = CharacterSet.urlQueryAllowed
            allowedQuery.remove(charactersIn: "&=+;#%")
            let pairs = query.map { name, value in
                name + "=" + (value.addingPercentEncoding(withAllowedCharacters: allowedQuery) ?? "")
            }
            text += "?" + pairs.joined(separator: "&")
        }
        guard let url = URL(string: text) else {
            throw APIError(kind: .invalidRequest, message: "the URL \(text) is not valid")
        }
        return url
    }

    /// Whether a call may be sent again when an attempt's outcome is unknown (``APIRequest/isSafeToRepeat``): the
    /// one place that decides it. GET, PUT and DELETE are idempotent (RFC 9110 §9.2.2; Apple's PUTs set a value);
    /// of the POSTs, only Get Notification History, a query, is. Request a Test Notification, Extend for All
    /// Active Subscribers, Finish Transaction and Initiate Performance Test are not.
    static func isSafeToRepeat(_ method: Method, _ path: [String]) -> Bool {
        switch method {
        case .get, .put, .delete: return true
        case .post: return path == ["inApps", "v1", "notifications", "history"]
        }
    }

    /// Sends a call, retrying as ``Configuration/retryPolicy`` says, and returns its 2xx response.
    ///
    /// - Throws: ``APIError``: the server's error (status, Apple's code and message, `Retry-After`), or the
    ///   transport's.
    func send(
        _ method: Method, _ path: [String], query: [(String, String)], body: Data?, contentType: String
    )
        async throws(APIError) -> APIResponse
    {
        let url = try url(path, query: query)
        let safeToRepeat = Self.isSafeToRepeat(method, path)
        var attempt = 0
        while true {
            do {
                return try await sendOnce(
                    method, url: url, body: body, contentType: contentType, safeToRepeat: safeToRepeat)
            } catch {
                guard
                    let delay = configuration.retryPolicy.delay(
                        beforeRetry: attempt, after: error, safeToRepeat: safeToRepeat,
                        random: Double.random(in: 0..<1))
                else { throw error }
                attempt += 1
                do {
                    try await Task.sleep(for: delay)
                } catch {
                    throw APIError(kind: .cancelled, message: "the task was cancelled while waiting to retry")
                }
            }
        }
    }

    private func sendOnce(
        _ method: Method, url: URL, body: Data?, contentType: String, safeToRepeat: Bool
    ) async throws(APIError)
        -> APIResponse
    {
        if Task.isCancelled { throw APIError(kind: .cancelled, message: "the task was cancelled") }
        var headers: [(name: String, value: String)] = [
            ("Authorization", "Bearer " + (try tokens.token())),
            ("Accept", "application/json"),
            ("User-Agent", configuration.userAgent),
        ]
        if body != nil { headers.append(("Content-Type", contentType)) }
        let request = APIRequest(
            method: method.rawValue, url: url, headers: headers, body: body, timeout: configuration.timeout,
            maximumResponseBytes: configuration.maximumResponseBytes, isSafeToRepeat: safeToRepeat)
        let response: APIResponse
        do {
            response = try await transport.send(request)
        } catch let error as APIError {
            throw error
        } catch is CancellationError {
            throw APIError(kind: .cancelled, message: "the task was cancelled")
        } catch {
            throw APIError(kind: .network, message: "the transport failed: \(error)")
        }
        guard response.body.count <= configuration.maximumResponseBytes else {
            throw APIError(
                kind: .responseTooLarge,
                message: "the response body is longer than the limit of \(configuration.maximumResponseBytes) bytes")
        }
        guard (200...299).contains(response.status) else { throw error(of: response) }
        return response
    }

    /// The error a non-2xx response stands for: its status, Apple's code and message when the body is Apple's
    /// error JSON, and `Retry-After`.
    func error(of response: APIResponse) -> APIError {
        let retryAfter = RetryAfter.parse(response.value(forHeader: "Retry-After"), now: configuration.now())
        let payload = try? Self.decode(ErrorPayload.self, from: response.body)
        if let payload, let code = payload.errorCode {
            let name = APIErrorCode(rawValue: code).description
            return APIError(
                kind: .httpError, statusCode: response.status, rawAPIError: code, errorMessage: payload.errorMessage,
                retryAfter: retryAfter,
                message: "HTTP \(response.status), error \(code) (\(name)): \(payload.errorMessage ?? "no message")")
        }
        var detail = response.body.isEmpty ? "an empty body" : "a body that is not Apple's error JSON"
        if (300...399).contains(response.status) {
            // The transport does not follow redirects: the bearer token must reach no other URL.
            detail += ", a redirect to \(response.value(forHeader: "Location") ?? "nowhere") that was not followed"
        }
        return APIError(
            kind: .httpError, statusCode: response.status, retryAfter: retryAfter,
            message: "HTTP \(response.status) with \(detail)")
    }
}
