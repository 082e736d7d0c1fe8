import Foundation

/// A JWS in compact serialization (RFC 7515 §3.1, §7.1), split and decoded by a strict parser.
///
/// Parsing checks the format only (check 1 of the verification contract, `FormatCheck`): size,
/// exactly three segments, strict base64url in each, header and payload JSON objects. It does not
/// check the algorithm, the chain or the signature; ``SignedDataVerifier`` does that.
///
/// - Warning: A parsed token is not verified. Nothing in it may be trusted until a verifier says so.
public struct CompactJWS: Sendable {
    /// The default limit on a token's length: 64 KiB. Real App Store tokens are 2–10 KiB.
    public static let defaultMaximumBytes = 64 * 1024

    /// The decoded header.
    public let header: JWSHeader
    /// The header's JSON bytes (decoded from base64url).
    public let headerJSON: [UInt8]
    /// The payload's JSON bytes (decoded from base64url).
    public let payload: [UInt8]
    /// The payload's members, parsed (empty when parsed without requiring a JSON payload).
    public let payloadObject: [String: JSONValue]
    /// The signature bytes (decoded from base64url); 64 bytes for a well-formed ES256 token.
    public let signature: [UInt8]
    /// The exact ASCII bytes `BASE64URL(header) '.' BASE64URL(payload)` that the signature covers.
    public let signingInput: [UInt8]

    /// Parses a compact JWS: check 1 of the verification contract, as ``SignedDataVerifier`` runs it.
    ///
    /// - Parameters:
    ///   - token: The token text, with no surrounding whitespace.
    ///   - maximumBytes: The largest token accepted (default ``defaultMaximumBytes``).
    /// - Throws: ``VerificationError`` with code ``VerificationError/Code/malformedToken``.
    public init(parsing token: String, maximumBytes: Int = CompactJWS.defaultMaximumBytes) throws(VerificationError) {
        try self.init(parsing: Array(token.utf8), maximumBytes: maximumBytes)
    }

    /// Parses a compact JWS from its bytes (see ``init(parsing:maximumBytes:)-(String,_)``).
    public init(parsing token: [UInt8], maximumBytes: Int = CompactJWS.defaultMaximumBytes) throws(VerificationError) {
        let parsed = try FormatCheck.parse(token, maximumBytes: maximumBytes)
        self.init(
            header: parsed.header, headerJSON: parsed.headerJSON ?? [], payload: parsed.payloadJSON,
            payloadObject: parsed.payloadObject, signature: parsed.signature,
            signingInput: Array(token[parsed.segments.signingInput]))
    }

    private init(
        header: JWSHeader, headerJSON: [UInt8], payload: [UInt8], payloadObject: [String: JSONValue],
        signature: [UInt8], signingInput: [UInt8]
    ) {
        self.header = header
        self.headerJSON = headerJSON
        self.payload = payload
        self.payloadObject = payloadObject
        self.signature = signature
        self.signingInput = signingInput
    }

    /// Check 1 with any payload bytes (for generic JWS test vectors whose payload is not JSON); App
    /// Store verification always requires an object and goes through ``init(parsing:maximumBytes:)-(String,_)``.
    package static func split(
        _ bytes: [UInt8], maximumBytes: Int, requireJSONPayload: Bool
    ) throws(VerificationError) -> CompactJWS {
        if requireJSONPayload { return try CompactJWS(parsing: bytes, maximumBytes: maximumBytes) }
        let segments = try Segments(bytes, maximumBytes: maximumBytes)
        let (headerJSON, header) = try decodeHeader(bytes[segments.header])
        guard let payload = Base64.decodeURL(bytes[segments.payload]) else {
            throw .malformed(
                "the payload segment is not strict base64url (RFC 7515 §2)\(describeOffender(bytes[segments.payload]))")
        }
        return CompactJWS(
            header: header, headerJSON: headerJSON, payload: payload, payloadObject: [:],
            signature: try decodeSignature(bytes[segments.signature]), signingInput: Array(bytes[segments.signingInput])
        )
    }

    /// Where the three segments of a compact JWS are in its bytes (format check, first part).
    package struct Segments: Sendable {
        package let header: Range<Int>
        package let payload: Range<Int>
        package let signature: Range<Int>
        /// `header '.' payload`, the bytes the signature covers.
        package var signingInput: Range<Int> { header.lowerBound..<payload.upperBound }

        /// Checks the size, the count of segments and that header and payload are not empty.
        package init(_ bytes: [UInt8], maximumBytes: Int) throws(VerificationError) {
            guard bytes.count <= maximumBytes else {
                throw .malformed("the token is \(bytes.count) bytes, over the limit of \(maximumBytes)")
            }
            guard !bytes.isEmpty else { throw .malformed("the token is empty") }
            func dot(after start: Int) -> Int? {
                ByteScanning.firstIndex(of: UInt8(ascii: "."), in: bytes, from: start)
            }
            guard let first = dot(after: 0), let second = dot(after: first + 1), dot(after: second + 1) == nil else {
                let count = bytes.reduce(0) { $0 + ($1 == UInt8(ascii: ".") ? 1 : 0) }
                throw .malformed("a compact JWS has 3 segments separated by '.', this token has \(count + 1)")
            }
            header = 0..<first
            payload = (first + 1)..<second
            signature = (second + 1)..<bytes.count
            guard !header.isEmpty else { throw .malformed("the header segment is empty") }
            guard !payload.isEmpty else { throw .malformed("the payload segment is empty") }
        }
    }

    /// Decodes the header segment: strict base64url of one JSON object.
    package static func decodeHeader(
        _ segment: ArraySlice<UInt8>
    ) throws(VerificationError) -> ([UInt8], JWSHeader) {
        guard let json = Base64.decodeURL(segment) else {
            throw .malformed("the header segment is not strict base64url (RFC 7515 §2)\(describeOffender(segment))")
        }
        do {
            return (json, JWSHeader(members: try JSONParser.parseObject(json)))
        } catch {
            throw .malformed(
                "the header is not a JSON object: \(EscapedText.escaped(error.reason)) at byte \(error.offset)")
        }
    }

    /// Decodes the payload segment: strict base64url of one JSON object.
    package static func decodePayload(
        _ segment: ArraySlice<UInt8>
    ) throws(VerificationError) -> ([UInt8], [String: JSONValue]) {
        guard let json = Base64.decodeURL(segment) else {
            throw .malformed("the payload segment is not strict base64url (RFC 7515 §2)\(describeOffender(segment))")
        }
        do {
            return (json, try JSONParser.parseObject(json))
        } catch {
            throw .malformed(
                "the payload is not a JSON object: \(EscapedText.escaped(error.reason)) at byte \(error.offset)")
        }
    }

    /// Decodes the signature segment: strict base64url (of any length; the signature check wants 64 bytes).
    package static func decodeSignature(_ segment: ArraySlice<UInt8>) throws(VerificationError) -> [UInt8] {
        guard let signature = Base64.decodeURL(segment) else {
            throw .malformed("the signature segment is not strict base64url (RFC 7515 §2)\(describeOffender(segment))")
        }
        return signature
    }

    /// Names the first character that is not base64url, or says the problem is padding or length.
    private static func describeOffender(_ segment: ArraySlice<UInt8>) -> String {
        guard let offset = Base64.firstNonURLCharacter(segment) else {
            return segment.count % 4 == 1 ? ": impossible length" : ": non-zero unused bits in the last character"
        }
        let byte = segment[segment.startIndex + offset]
        switch byte {
        case UInt8(ascii: "="): return ": padding '=' at offset \(offset)"
        case 0x21...0x7E: return ": character '\(Character(Unicode.Scalar(byte)))' at offset \(offset)"
        default: return ": byte 0x\(String(byte, radix: 16)) at offset \(offset)"
        }
    }
}
