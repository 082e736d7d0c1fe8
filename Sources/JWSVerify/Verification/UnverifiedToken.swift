import Foundation

/// A token decoded without any verification: header, certificates and payload as they claim to be.
///
/// - Warning: Nothing here is verified. Anybody can make a token that decodes to anything. Use it to
///   look at a token (the CLI's `inspect`), or for `LocalTesting` tokens, which nobody signs; never
///   to grant anything.
public struct UnverifiedToken: Sendable {
    /// The header.
    public let header: JWSHeader
    /// The `x5c` certificates that parse, in order (an entry that does not parse is left out and
    /// named in ``certificateProblems``).
    public let certificates: [CertificateInfo]
    /// What was wrong with `x5c` entries that did not parse.
    public let certificateProblems: [String]
    /// The kind recognized from the payload's keys (or the one asked for).
    public let kind: PayloadKind?
    /// The payload decoded as ``kind``, or nil when it does not decode as that kind.
    public let payload: DecodedPayload?
    /// The payload's JSON, as in the token.
    public let payloadJSON: Data

    /// The `x5c` certificates of `header` that parse, and what was wrong with those that do not,
    /// without verifying anything.
    package static func certificates(of header: JWSHeader) -> (parsed: [CertificateInfo], problems: [String]) {
        var certificates: [CertificateInfo] = []
        var problems: [String] = []
        for (index, entry) in (header.x5c ?? []).enumerated() {
            guard let der = Base64.decodeStandard(entry) else {
                problems.append("x5c[\(index)] is not strict standard base64")
                continue
            }
            guard let certificate = Certificate(der: der) else {
                problems.append("x5c[\(index)] is not one DER X.509 certificate")
                continue
            }
            certificates.append(CertificateInfo(certificate))
        }
        return (certificates, problems)
    }
}

extension SignedDataVerifier {
    /// Decodes a token without verifying anything.
    ///
    /// - Parameters:
    ///   - token: A compact JWS.
    ///   - kind: The kind to decode the payload as, or nil to recognize it from the payload's keys.
    /// - Returns: the unverified header, certificates and payload.
    /// - Throws: ``VerificationError`` with ``VerificationError/Code/malformedToken`` when the token is
    ///   not a compact JWS with JSON header and payload.
    /// - Warning: The result is not verified. See ``UnverifiedToken``.
    public static func decodeUnverified(
        _ token: String, as kind: PayloadKind? = nil
    ) throws(VerificationError)
        -> UnverifiedToken
    {
        let jws = try CompactJWS(parsing: token)
        let (certificates, problems) = UnverifiedToken.certificates(of: jws.header)
        let (recognized, payload) = decodePayload(jws.payloadObject, as: kind)
        return UnverifiedToken(
            header: jws.header, certificates: certificates, certificateProblems: problems, kind: recognized,
            payload: payload, payloadJSON: Data(jws.payload))
    }

    private static func decodePayload(
        _ object: [String: JSONValue], as kind: PayloadKind?
    ) -> (kind: PayloadKind?, payload: DecodedPayload?) {
        let recognized = kind ?? PayloadKind.recognize(payload: object.keys)
        return (recognized, recognized?.decodeUnverified(object))
    }
}
