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
    /// The kind recognized from the payload's keys (or the one asked for); nil, with no ``payload``, for a token
    /// a developer signs with an In-App Purchase key (a promotional offer V2, introductory offer eligibility or
    /// Advanced Commerce signature: no App Store kind) when no kind was asked for.
    public let kind: PayloadKind?
    /// The kind of JWS a developer signs with an In-App Purchase key, when no kind was asked for and the token is
    /// one (``DeveloperSignedKind/recognize(header:payload:)``); then ``kind`` and ``payload`` are nil.
    package let developerKind: DeveloperSignedKind?
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
        // A token a developer signed is recognized before the App Store kinds (an offer's `transactionId` is a
        // transaction's marker key), and only when no kind was asked for.
        let developerKind =
            kind == nil ? DeveloperSignedKind.recognize(header: jws.header, payload: jws.payloadObject) : nil
        let (recognized, payload) = developerKind == nil ? decodePayload(jws.payloadObject, as: kind) : (nil, nil)
        return UnverifiedToken(
            header: jws.header, certificates: certificates, certificateProblems: problems, kind: recognized,
            developerKind: developerKind, payload: payload, payloadJSON: Data(jws.payload))
    }

    private static func decodePayload(
        _ object: [String: JSONValue], as kind: PayloadKind?
    ) -> (kind: PayloadKind?, payload: DecodedPayload?) {
        let recognized = kind ?? PayloadKind.recognize(payload: object.keys)
        return (recognized, recognized?.decodeUnverified(object))
    }
}
