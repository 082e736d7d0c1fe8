import Foundation
import JWSVerify

/// Why a call to the App Store Server API did not return a response: a stable ``kind``, the HTTP status and
/// Apple's error code when the server answered, and a message safe to print.
///
/// A server branches on ``kind``, ``statusCode``, ``apiError`` (Apple's documented codes, by name) or
/// ``rawAPIError`` (any code, documented or not), and on ``isRetryable`` and ``retryAfter``. ``errorMessage`` and
/// ``message`` carry text from the response with control characters and non-ASCII escaped
/// (`EscapedText`), so that a hostile server cannot write to a terminal through a log line.
///
/// Two errors are equal when their kinds, statuses and raw Apple codes are equal.
public struct APIError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The stable identifier of a failure, as Docs/ErrorCodes.md lists it.
    public struct Kind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The stable string.
        public let rawValue: String
        /// Wraps a string; prefer the static constants.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The raw value.
        public var description: String { rawValue }

        /// The server answered with a status that is not 2xx; ``APIError/statusCode`` says which and
        /// ``APIError/apiError`` Apple's code when the body was Apple's error JSON.
        public static let httpError = Kind(rawValue: "httpError")
        /// A 2xx response whose body is not the JSON the endpoint documents (not JSON, truncated, wrong shape).
        public static let malformedResponse = Kind(rawValue: "malformedResponse")
        /// The response body is longer than the request's bound.
        public static let responseTooLarge = Kind(rawValue: "responseTooLarge")
        /// No response within the request's timeout.
        public static let timedOut = Kind(rawValue: "timedOut")
        /// The task that made the call was cancelled.
        public static let cancelled = Kind(rawValue: "cancelled")
        /// The transport failed: no connection, TLS, reset.
        public static let network = Kind(rawValue: "network")
        /// The bearer token could not be signed.
        public static let authentication = Kind(rawValue: "authentication")
        /// The request could not be made: an identifier that does not fit in a URL path, an unencodable body,
        /// an environment with no base URL (Xcode).
        public static let invalidRequest = Kind(rawValue: "invalidRequest")
        /// A paged call reached one of its ``PagingLimits`` (pages, items, or empty pages in a row); the message
        /// names which. The pages before were delivered.
        public static let pagingLimitReached = Kind(rawValue: "pagingLimitReached")

        /// Every kind, in the order above.
        public static let all: [Kind] = [
            .httpError, .malformedResponse, .responseTooLarge, .timedOut, .cancelled, .network, .authentication,
            .invalidRequest, .pagingLimitReached,
        ]
    }

    /// What went wrong.
    public let kind: Kind
    /// The HTTP status, when the server answered.
    public let statusCode: Int?
    /// Apple's numeric error code from the body `{"errorCode": ..., "errorMessage": ...}`, documented or not.
    public let rawAPIError: Int64?
    /// Apple's error message from the body, escaped for a terminal.
    public let errorMessage: String?
    /// How long the server asked to wait before retrying (`Retry-After`, in seconds or as an HTTP date).
    public let retryAfter: Duration?
    /// A human description, escaped for a terminal.
    public let message: String

    /// Apple's error code as a named constant (``APIErrorCode/transactionIdNotFound``, ...); an undocumented code
    /// is an ``APIErrorCode`` whose ``APIErrorCode/name`` is `nil`.
    public var apiError: APIErrorCode? { rawAPIError.map(APIErrorCode.init(rawValue:)) }

    /// Whether the same call may succeed later: HTTP 429 and 5xx, Apple's `…Retryable` codes, timeouts and
    /// network failures.
    public var isRetryable: Bool {
        if let code = apiError, code.isRetryable { return true }
        if let statusCode { return statusCode == 429 || (500...599).contains(statusCode) }
        return kind == .timedOut || kind == .network
    }

    /// Creates an error; `message` and `errorMessage` are escaped here.
    public init(
        kind: Kind, statusCode: Int? = nil, rawAPIError: Int64? = nil, errorMessage: String? = nil,
        retryAfter: Duration? = nil, message: String
    ) {
        self.kind = kind
        self.statusCode = statusCode
        self.rawAPIError = rawAPIError
        self.errorMessage = errorMessage.map(EscapedText.escaped)
        self.retryAfter = retryAfter
        self.message = EscapedText.escaped(message)
    }

    /// `timedOut`, with the timeout in its message.
    static func timedOut(after timeout: Duration) -> APIError {
        APIError(kind: .timedOut, message: "no response within \(timeout)")
    }

    /// `kind: message`.
    public var description: String { "\(kind.rawValue): \(message)" }

    /// Whether the kinds, statuses and raw Apple codes are equal (messages are not compared).
    public static func == (lhs: APIError, rhs: APIError) -> Bool {
        lhs.kind == rhs.kind && lhs.statusCode == rhs.statusCode && lhs.rawAPIError == rhs.rawAPIError
    }

    /// Hashes what ``==(_:_:)`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(statusCode)
        hasher.combine(rawAPIError)
    }
}
