import Foundation

/// The body of the HTTP POST that the App Store sends to a server's notification URL (App Store
/// Server Notifications V2): `{"signedPayload": "<JWS>"}`.
///
/// [responseBodyV2](https://developer.apple.com/documentation/appstoreservernotifications/responsebodyv2)
///
/// ``SignedDataVerifier/verifyAndDecodeNotification(httpBody:)`` parses and verifies it in one call.
/// Parse it yourself with ``init(httpBody:maximumTokenBytes:)``, which is strict (one JSON object,
/// no duplicate member names, a size limit), or let a framework decode it (it is `Codable`; a
/// general-purpose decoder such as `JSONDecoder` takes one of duplicate members silently). The token
/// is verified either way.
public struct NotificationRequestBody: Codable, Hashable, Sendable {
    /// The notification: a JWS to verify with
    /// ``SignedDataVerifier/verifyAndDecodeNotification(signedPayload:verifyingNestedTokens:)``.
    public var signedPayload: String

    /// Wraps a `signedPayload`.
    public init(signedPayload: String) {
        self.signedPayload = signedPayload
    }

    /// Parses the raw HTTP body.
    ///
    /// - Parameters:
    ///   - httpBody: The bytes received.
    ///   - maximumTokenBytes: The largest `signedPayload` accepted (default 64 KiB, the verifier's
    ///     default); the body may be up to 1 KiB larger.
    /// - Throws: ``VerificationError`` with code ``VerificationError/Code/malformedToken`` (check
    ///   ``VerificationError/Check/format``) when the body is larger, is not one strict JSON object
    ///   (duplicate member names and raw control characters are refused), or has no string member
    ///   `signedPayload`. Other members are ignored.
    public init(httpBody: Data, maximumTokenBytes: Int = CompactJWS.defaultMaximumBytes) throws(VerificationError) {
        self = try Self.parse(httpBody, maximumTokenBytes: maximumTokenBytes).get()
    }

    /// The body, or the failure to report for it.
    static func parse(_ httpBody: Data, maximumTokenBytes: Int) -> Result<Self, VerificationError> {
        RequestBody.signedPayload(of: httpBody, maximumTokenBytes: maximumTokenBytes, kind: "notification")
            .map(Self.init(signedPayload:))
    }
}

/// The body of the HTTP POST that the App Store sends to a Retention Messaging realtime URL:
/// `{"signedPayload": "<JWS>"}`.
///
/// ``SignedDataVerifier/verifyAndDecodeRealtimeRequest(httpBody:)`` parses and verifies it in one call;
/// or verify its ``signedPayload`` with ``SignedDataVerifier/verifyAndDecodeRealtimeRequest(signedPayload:)``.
public struct RealtimeRequestBody: Codable, Hashable, Sendable {
    /// The request: a JWS whose payload is a ``DecodedRealtimeRequestBody``.
    public var signedPayload: String

    /// Wraps a `signedPayload`.
    public init(signedPayload: String) {
        self.signedPayload = signedPayload
    }

    /// Parses the raw HTTP body, with the rules of ``NotificationRequestBody/init(httpBody:maximumTokenBytes:)``.
    public init(httpBody: Data, maximumTokenBytes: Int = CompactJWS.defaultMaximumBytes) throws(VerificationError) {
        self = try Self.parse(httpBody, maximumTokenBytes: maximumTokenBytes).get()
    }

    /// The body, or the failure to report for it.
    static func parse(_ httpBody: Data, maximumTokenBytes: Int) -> Result<Self, VerificationError> {
        RequestBody.signedPayload(of: httpBody, maximumTokenBytes: maximumTokenBytes, kind: "realtime request")
            .map(Self.init(signedPayload:))
    }
}

/// The one parser of both bodies: the strict parser, then ``InputShape/member(of:named:)``.
enum RequestBody {
    /// How much larger than its token a body may be (the braces, the member name, whitespace).
    static let allowance = 1024

    static func signedPayload(
        of httpBody: Data, maximumTokenBytes: Int, kind: String
    ) -> Result<String, VerificationError> {
        func failure(_ reason: String) -> Result<String, VerificationError> {
            .failure(
                VerificationError.malformed(
                    "the HTTP body is not Apple's \(kind) body {\"signedPayload\": \"...\"}: \(reason)"))
        }
        let limit = max(0, maximumTokenBytes).addingReportingOverflow(allowance)
        guard limit.overflow || httpBody.count <= limit.partialValue else {
            return failure("it has \(httpBody.count) bytes, more than the \(limit.partialValue) allowed")
        }
        let object: [String: JSONValue]
        do {
            object = try JSONParser.parseObject(Array(httpBody))
        } catch {
            return failure("\(EscapedText.escaped(error.reason)) at byte \(error.offset)")
        }
        // The one reading of a signed-data member, shared with the CLI's inputs (``InputShape``).
        switch InputShape.member(of: object, named: ["signedPayload"]) {
        case .success(let member): return .success(member.value)
        case .failure(.notString): return failure("signedPayload is not a string")
        case .failure: return failure("it has no member signedPayload")
        }
    }
}
