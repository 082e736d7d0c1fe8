/// A token that passed check 1: its bytes, where its segments are, and the three segments decoded.
struct ParsedToken: Sendable {
    /// The token's bytes (the signature covers `bytes[segments.signingInput]`).
    let bytes: [UInt8]
    let segments: CompactJWS.Segments
    let header: JWSHeader
    /// The header's JSON; nil when the header came from the chain cache (it was not decoded again).
    let headerJSON: [UInt8]?
    let payloadJSON: [UInt8]
    let payloadObject: [String: JSONValue]
    let signature: [UInt8]
    /// The chain cache's entry for this header's exact bytes, when it has one: its header passed
    /// checks 1–4 and its chain checks 5–9 before.
    let cached: ChainCache.Entry?
    /// The header's exact bytes as the chain cache's key (nil without a chain cache).
    let cacheKey: ChainCache.Key?
    /// `header '.' payload`, the bytes the signature covers.
    var signingInput: ArraySlice<UInt8> { bytes[segments.signingInput] }
}

/// Check 1, **format** (`malformedToken`): at most `maximumTokenBytes`, exactly three segments,
/// header and payload non-empty, strict base64url in each, header and payload JSON objects (see
/// ``JSONParser`` for its limits).
///
/// The only place a token is taken apart: ``SignedDataVerifier`` and ``CompactJWS`` both parse here,
/// once per token, counted by ``OperationCounters/tokenParses``.
enum FormatCheck {
    /// What the report says of a token that passed.
    static let passed = "3 segments of strict base64url; header and payload are JSON objects"

    /// Parses `token`.
    ///
    /// - Parameters:
    ///   - token: The token's bytes.
    ///   - maximumBytes: The largest token accepted.
    ///   - chainCache: Where a header seen before is found by its exact bytes; its decoded form is
    ///     taken from there instead of being decoded again.
    /// - Throws: ``VerificationError/Code/malformedToken``.
    static func parse(
        _ token: [UInt8], maximumBytes: Int, chainCache: ChainCache? = nil
    ) throws(VerificationError) -> ParsedToken {
        OperationCounters.countTokenParse()
        let segments = try CompactJWS.Segments(token, maximumBytes: maximumBytes)
        let cacheKey = chainCache.map { _ in ChainCache.Key(token[segments.header]) }
        let cached = cacheKey.flatMap { chainCache?.entry(for: $0) }
        let header: JWSHeader
        var headerJSON: [UInt8]?
        if let cached {
            header = cached.header
        } else {
            let decoded = try CompactJWS.decodeHeader(token[segments.header])
            (headerJSON, header) = (decoded.0, decoded.1)
        }
        let (payloadJSON, payloadObject) = try CompactJWS.decodePayload(token[segments.payload])
        let signature = try CompactJWS.decodeSignature(token[segments.signature])
        return ParsedToken(
            bytes: token, segments: segments, header: header, headerJSON: headerJSON, payloadJSON: payloadJSON,
            payloadObject: payloadObject, signature: signature, cached: cached, cacheKey: cacheKey)
    }
}
