import Foundation

/// A JWS in compact serialization (RFC 7515 §3.1, §7.1), split and decoded by a strict parser.
///
/// Parsing checks the format only (check 1 of the verification contract): size, exactly three
/// segments, strict base64url in each, header and payload JSON objects. It does not check the
/// algorithm, the chain or the signature; ``SignedDataVerifier`` does that.
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

    /// Parses a compact JWS.
    ///
    /// - Parameters:
    ///   - token: The token text, with no surrounding whitespace.
    ///   - maximumBytes: The largest token accepted (default ``defaultMaximumBytes``).
    /// - Throws: ``VerificationError`` with code ``VerificationError/Code/malformedToken``.
    public init(parsing token: String, maximumBytes: Int = CompactJWS.defaultMaximumBytes) throws(VerificationError) {
        var token = token
        let parsed = token.withUTF8 { bytes in
            Result { () throws(VerificationError) in
                try Self.split(bytes, maximumBytes: maximumBytes, requireJSONPayload: true)
            }
        }
        self = try parsed.get()
    }

    /// Parses a compact JWS from its bytes.
    public init(parsing token: [UInt8], maximumBytes: Int = CompactJWS.defaultMaximumBytes) throws(VerificationError) {
        let parsed = token.withUnsafeBufferPointer { bytes in
            Result { () throws(VerificationError) in
                try Self.split(bytes, maximumBytes: maximumBytes, requireJSONPayload: true)
            }
        }
        self = try parsed.get()
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

    /// The parser. `requireJSONPayload: false` accepts any payload bytes (for generic JWS test
    /// vectors whose payload is not JSON); App Store verification always requires an object.
    package static func split(
        _ bytes: UnsafeBufferPointer<UInt8>, maximumBytes: Int, requireJSONPayload: Bool
    ) throws(VerificationError) -> CompactJWS {
        let segments = try Segments(bytes, maximumBytes: maximumBytes)
        let (headerJSON, header) = try decodeHeader(segments.header)
        let payload: [UInt8]
        var payloadObject: [String: JSONValue] = [:]
        if requireJSONPayload {
            (payload, payloadObject) = try decodePayload(segments.payload)
        } else {
            guard let bytes = Base64.decodeURL(segments.payload) else {
                throw .malformed(
                    "the payload segment is not strict base64url (RFC 7515 §2)\(describeOffender(segments.payload))")
            }
            payload = bytes
        }
        return CompactJWS(
            header: header, headerJSON: headerJSON, payload: payload, payloadObject: payloadObject,
            signature: try decodeSignature(segments.signature), signingInput: Array(segments.signingInput))
    }

    /// The three segments of a compact JWS, located without copying (format check, first part).
    package struct Segments {
        package let header: UnsafeBufferPointer<UInt8>
        package let payload: UnsafeBufferPointer<UInt8>
        package let signature: UnsafeBufferPointer<UInt8>
        /// `header '.' payload`, the bytes the signature covers.
        package let signingInput: UnsafeBufferPointer<UInt8>

        /// Checks the size, the count of segments and that header and payload are not empty.
        package init(_ bytes: UnsafeBufferPointer<UInt8>, maximumBytes: Int) throws(VerificationError) {
            guard bytes.count <= maximumBytes else {
                throw .malformed("the token is \(bytes.count) bytes, over the limit of \(maximumBytes)")
            }
            guard !bytes.isEmpty else { throw .malformed("the token is empty") }
            // memchr: the token is scanned for '.' at memory speed, not byte by byte.
            guard let base = bytes.baseAddress else { throw .malformed("the token is empty") }
            func dot(after start: Int) -> Int? {
                guard start < bytes.count,
                    let found = memchr(base + start, Int32(UInt8(ascii: ".")), bytes.count - start)
                else { return nil }
                return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            }
            guard let first = dot(after: 0), let second = dot(after: first + 1), dot(after: second + 1) == nil else {
                var count = 0
                var next = dot(after: 0)
                while let found = next {
                    count += 1
                    next = dot(after: found + 1)
                }
                throw .malformed("a compact JWS has 3 segments separated by '.', this token has \(count + 1)")
            }
            header = UnsafeBufferPointer(rebasing: bytes[0..<first])
            payload = UnsafeBufferPointer(rebasing: bytes[(first + 1)..<second])
            signature = UnsafeBufferPointer(rebasing: bytes[(second + 1)...])
            signingInput = UnsafeBufferPointer(rebasing: bytes[0..<second])
            guard !header.isEmpty else { throw .malformed("the header segment is empty") }
            guard !payload.isEmpty else { throw .malformed("the payload segment is empty") }
        }
    }

    /// Decodes the header segment: strict base64url of one JSON object.
    package static func decodeHeader(
        _ segment: UnsafeBufferPointer<UInt8>
    ) throws(VerificationError) -> ([UInt8], JWSHeader) {
        guard let json = Base64.decodeURL(segment) else {
            throw .malformed("the header segment is not strict base64url (RFC 7515 §2)\(describeOffender(segment))")
        }
        do {
            return (json, JWSHeader(members: try JSONParser.parseObject(json)))
        } catch {
            throw .malformed("the header is not a JSON object: \(error.reason) at byte \(error.offset)")
        }
    }

    /// Decodes the payload segment: strict base64url of one JSON object.
    package static func decodePayload(
        _ segment: UnsafeBufferPointer<UInt8>
    ) throws(VerificationError) -> ([UInt8], [String: JSONValue]) {
        guard let json = Base64.decodeURL(segment) else {
            throw .malformed("the payload segment is not strict base64url (RFC 7515 §2)\(describeOffender(segment))")
        }
        do {
            return (json, try JSONParser.parseObject(json))
        } catch {
            throw .malformed("the payload is not a JSON object: \(error.reason) at byte \(error.offset)")
        }
    }

    /// Decodes the signature segment: strict base64url (of any length; the signature check wants 64 bytes).
    package static func decodeSignature(_ segment: UnsafeBufferPointer<UInt8>) throws(VerificationError) -> [UInt8] {
        guard let signature = Base64.decodeURL(segment) else {
            throw .malformed("the signature segment is not strict base64url (RFC 7515 §2)\(describeOffender(segment))")
        }
        return signature
    }

    /// Names the first character that is not base64url, or says the problem is padding or length.
    private static func describeOffender(_ segment: UnsafeBufferPointer<UInt8>) -> String {
        guard let offset = Base64.firstNonURLCharacter(segment) else {
            return segment.count % 4 == 1 ? ": impossible length" : ": non-zero unused bits in the last character"
        }
        let byte = segment[offset]
        switch byte {
        case UInt8(ascii: "="): return ": padding '=' at offset \(offset)"
        case 0x21...0x7E: return ": character '\(Character(Unicode.Scalar(byte)))' at offset \(offset)"
        default: return ": byte 0x\(String(byte, radix: 16)) at offset \(offset)"
        }
    }
}
