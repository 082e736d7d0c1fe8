import Foundation

/// The outcome of one attempt to send a notification to your server.
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct SendAttemptResult: APIEnumeration {
    /// The raw JSON value.
    public let rawValue: String
    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `SUCCESS`: Your server answered 200.
    public static let success = SendAttemptResult(rawValue: "SUCCESS")
    /// `TIMED_OUT`: Your server did not answer in time.
    public static let timedOut = SendAttemptResult(rawValue: "TIMED_OUT")
    /// `TLS_ISSUE`: The TLS handshake failed.
    public static let tlsIssue = SendAttemptResult(rawValue: "TLS_ISSUE")
    /// `CIRCULAR_REDIRECT`: Redirects looped.
    public static let circularRedirect = SendAttemptResult(rawValue: "CIRCULAR_REDIRECT")
    /// `NO_RESPONSE`: No response.
    public static let noResponse = SendAttemptResult(rawValue: "NO_RESPONSE")
    /// `SOCKET_ISSUE`: A socket error.
    public static let socketIssue = SendAttemptResult(rawValue: "SOCKET_ISSUE")
    /// `UNSUPPORTED_CHARSET`: The response used an unsupported character set.
    public static let unsupportedCharset = SendAttemptResult(rawValue: "UNSUPPORTED_CHARSET")
    /// `INVALID_RESPONSE`: The response was invalid.
    public static let invalidResponse = SendAttemptResult(rawValue: "INVALID_RESPONSE")
    /// `PREMATURE_CLOSE`: The connection closed early.
    public static let prematureClose = SendAttemptResult(rawValue: "PREMATURE_CLOSE")
    /// `UNSUCCESSFUL_HTTP_RESPONSE_CODE`: Your server answered with a status other than 200.
    public static let unsuccessfulHttpResponseCode = SendAttemptResult(rawValue: "UNSUCCESSFUL_HTTP_RESPONSE_CODE")
    /// `OTHER`: Another failure.
    public static let other = SendAttemptResult(rawValue: "OTHER")

    static let constantNames: [String: String] = [
        "SUCCESS": "success",
        "TIMED_OUT": "timedOut",
        "TLS_ISSUE": "tlsIssue",
        "CIRCULAR_REDIRECT": "circularRedirect",
        "NO_RESPONSE": "noResponse",
        "SOCKET_ISSUE": "socketIssue",
        "UNSUPPORTED_CHARSET": "unsupportedCharset",
        "INVALID_RESPONSE": "invalidResponse",
        "PREMATURE_CLOSE": "prematureClose",
        "UNSUCCESSFUL_HTTP_RESPONSE_CODE": "unsuccessfulHttpResponseCode",
        "OTHER": "other",
    ]
}
