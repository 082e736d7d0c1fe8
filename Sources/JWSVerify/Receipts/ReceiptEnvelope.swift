/// The parts of an app receipt's PKCS#7 envelope, found by a strict DER scan: the allow-list of a fast path.
///
/// ``scan(_:)`` returns the parts only when the whole input is exactly DER in the one shape App Store receipts
/// have (RFC 2315 §9.1, RFC 5652 §5), and `nil` for anything else:
///
/// ```
/// ContentInfo ::= SEQUENCE {                       -- nothing after it
///   contentType  OBJECT IDENTIFIER,                -- signedData, 1.2.840.113549.1.7.2
///   content  [0] EXPLICIT SignedData }
/// SignedData ::= SEQUENCE {
///   version  INTEGER,                              -- 1
///   digestAlgorithms  SET OF AlgorithmIdentifier,  -- 1 to 8, parameters NULL or absent
///   encapContentInfo  SEQUENCE {
///     eContentType  OBJECT IDENTIFIER,             -- data, 1.2.840.113549.1.7.1
///     eContent  [0] EXPLICIT OCTET STRING },       -- present (not detached), primitive
///   certificates  [0] IMPLICIT SET OF Certificate, -- present, 1 to 16, each a SEQUENCE
///                                                  -- no crls [1]
///   signerInfos  SET OF SignerInfo }               -- exactly one
/// SignerInfo ::= SEQUENCE {
///   version  INTEGER,                              -- 1
///   sid  IssuerAndSerialNumber ::= SEQUENCE { issuer Name, serialNumber INTEGER },
///   digestAlgorithm  AlgorithmIdentifier,
///   signedAttrs  [0] IMPLICIT SET OF Attribute OPTIONAL, -- each SEQUENCE { OBJECT IDENTIFIER, SET }
///   signatureAlgorithm  AlgorithmIdentifier,
///   signature  OCTET STRING }                      -- no unsignedAttrs [1]
/// ```
///
/// Every TLV is read by ``DERReader`` (definite minimal lengths, nothing left over in any container), and the
/// certificates, the issuer Name and the signed attributes are walked to their leaves
/// (``DERReader/validateTree(_:)``). BER (the indefinite lengths of Xcode's receipts), a second signer, CRLs,
/// unsigned attributes, another version or content type: `nil`. The scan decides nothing about trust; whatever it
/// returns must be what OpenSSL's full parse of the same bytes finds, so when in doubt it returns `nil` and the
/// caller takes the full path.
package struct ReceiptEnvelope: Hashable, Sendable {
    /// An AlgorithmIdentifier: an OID and parameters that are NULL or absent (no other parameters are accepted).
    package struct Algorithm: Hashable, Sendable {
        /// The contents octets of the OBJECT IDENTIFIER (`60 86 48 01 65 03 04 02 01` for SHA-256).
        package let oid: [UInt8]
        /// Whether the parameters are an explicit NULL (`false`: absent).
        package let hasNullParameters: Bool

        /// Creates an algorithm identifier.
        package init(oid: [UInt8], hasNullParameters: Bool) {
            self.oid = oid
            self.hasNullParameters = hasNullParameters
        }
    }

    /// The input the ranges index.
    package let bytes: [UInt8]
    /// SignedData's `digestAlgorithms`, in order.
    package let digestAlgorithms: [Algorithm]
    /// The contents of the eContent OCTET STRING: the receipt's content.
    package let contentRange: Range<Int>
    /// The whole `certificates [0] IMPLICIT` field (tag, length and contents).
    package let certificatesFieldRange: Range<Int>
    /// Each embedded certificate's DER (a whole SEQUENCE TLV), in order.
    package let certificateRanges: [Range<Int>]
    /// SignerInfo `version` (always 1 here).
    package let signerVersion: Int64
    /// The signer's issuer Name, the whole SEQUENCE TLV, as in its certificate.
    package let signerIssuerRange: Range<Int>
    /// The signer's serial number, the whole INTEGER TLV, as in its certificate.
    package let signerSerialNumberRange: Range<Int>
    /// SignerInfo `digestAlgorithm`.
    package let signerDigestAlgorithm: Algorithm
    /// SignerInfo `signedAttrs`, the whole `[0] IMPLICIT` TLV, when present (for a signature, its tag is replaced by
    /// SET's 0x31, RFC 5652 §5.4).
    package let signedAttributesRange: Range<Int>?
    /// SignerInfo `signatureAlgorithm`.
    package let signatureAlgorithm: Algorithm
    /// The contents of SignerInfo `signature`.
    package let signatureRange: Range<Int>
    /// Whether each embedded certificate's tree was walked (``scan(_:validatingCertificates:)``); only such an
    /// envelope enters the chain cache.
    package let certificatesAreValidated: Bool

    /// The receipt's content (eContent).
    package var content: [UInt8] { Array(bytes[contentRange]) }
    /// Each embedded certificate's DER, in order.
    package var certificates: [[UInt8]] { certificateRanges.map { Array(bytes[$0]) } }
    /// The signature bytes.
    package var signature: [UInt8] { Array(bytes[signatureRange]) }

    /// `1.2.840.113549.1.7.2`, signedData.
    package static let signedDataOID: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
    /// `1.2.840.113549.1.7.1`, data.
    package static let dataOID: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]
    /// At most this many digest algorithms.
    package static let maximumDigestAlgorithms = 8
    /// At most this many embedded certificates.
    package static let maximumCertificates = 16

    /// The parts of `bytes` when they are exactly the DER shape of the type's discussion, else `nil`.
    ///
    /// - Parameters:
    ///   - bytes: The receipt file.
    ///   - validatingCertificates: `false` leaves out the walk of each embedded certificate's tree
    ///     (``DERReader/validateTree(_:)``), for a lookup in the chain cache: an entry is found only for
    ///     certificates byte-identical to those of an envelope that was scanned with the walk
    ///     (``certificatesAreValidated``), so on a hit the walk would pass, and on a miss the caller scans again
    ///     with it.
    package static func scan(_ bytes: [UInt8], validatingCertificates: Bool = true) -> ReceiptEnvelope? {
        try? parse(bytes, validatingCertificates: validatingCertificates)
    }

    /// The parts of `bytes` when they are exactly the DER shape of the type's discussion.
    ///
    /// - Parameters:
    ///   - bytes: The receipt file.
    ///   - validatingCertificates: Whether each embedded certificate's tree is walked (see ``scan(_:validatingCertificates:)``).
    /// - Throws: ``DERError`` saying the first thing that is not that shape (the reason ``scan(_:)`` returned
    ///   `nil`, for tests and diagnostics).
    package static func parse(
        _ bytes: [UInt8], validatingCertificates: Bool = true
    ) throws(DERError) -> ReceiptEnvelope {
        var root = DERReader(bytes, limits: DERReader.Limits(maximumDepth: 24, maximumElements: 10_000))
        var contentInfo = try root.readSequence()
        try root.finish()
        try expect(contentInfo.readObjectIdentifier(), signedDataOID, "a content type other than signedData", root)
        var explicit = try contentInfo.nested(in: contentInfo.readContext(0, constructed: true))
        try contentInfo.finish()
        var signedData = try explicit.readSequence()
        try explicit.finish()

        let versionStart = signedData.position
        guard try signedData.readInteger() == 1 else {
            throw DERError("a SignedData version other than 1", at: versionStart)
        }
        var digestSet = try signedData.readSet()
        var digestAlgorithms: [Algorithm] = []
        while !digestSet.isAtEnd {
            guard digestAlgorithms.count < maximumDigestAlgorithms else {
                throw DERError("more than \(maximumDigestAlgorithms) digest algorithms", at: digestSet.position)
            }
            digestAlgorithms.append(try algorithm(&digestSet))
        }
        guard !digestAlgorithms.isEmpty else { throw DERError("no digest algorithm", at: digestSet.end) }

        var encapsulated = try signedData.readSequence()
        try expect(encapsulated.readObjectIdentifier(), dataOID, "an eContentType other than data", root)
        guard encapsulated.nextTag == DERReader.contextTag(0, constructed: true) else {
            throw DERError("no eContent (detached content)", at: encapsulated.position)
        }
        var eContent = try encapsulated.nested(in: encapsulated.readContext(0, constructed: true))
        try encapsulated.finish()
        let content = try eContent.readOctetString()
        try eContent.finish()

        let certificatesField = try signedData.readContext(0, constructed: true)
        var certificateSet = try signedData.nested(in: certificatesField)
        var certificateRanges: [Range<Int>] = []
        while !certificateSet.isAtEnd {
            guard certificateRanges.count < maximumCertificates else {
                throw DERError("more than \(maximumCertificates) certificates", at: certificateSet.position)
            }
            let certificate = try certificateSet.readElement(tag: 0x30)
            if validatingCertificates { try certificateSet.validateTree(certificate) }
            certificateRanges.append(certificate.encoded)
        }
        guard !certificateRanges.isEmpty else { throw DERError("no certificate", at: certificatesField.start) }
        if signedData.nextTag == DERReader.contextTag(1, constructed: true) {
            throw DERError("CRLs, which receipts do not carry", at: signedData.position)
        }
        var signerInfos = try signedData.readSet()
        try signedData.finish()
        var signerInfo = try signerInfos.readSequence()
        guard signerInfos.isAtEnd else { throw DERError("more than one SignerInfo", at: signerInfos.position) }
        return try signer(
            &signerInfo, bytes: bytes, digestAlgorithms: digestAlgorithms, content: content.contents,
            certificatesField: certificatesField.encoded, certificates: certificateRanges,
            certificatesAreValidated: validatingCertificates)
    }

    /// Reads the SignerInfo and assembles the envelope.
    private static func signer(
        _ signerInfo: inout DERReader, bytes: [UInt8], digestAlgorithms: [Algorithm], content: Range<Int>,
        certificatesField: Range<Int>, certificates: [Range<Int>], certificatesAreValidated: Bool
    ) throws(DERError) -> ReceiptEnvelope {
        let versionStart = signerInfo.position
        let version = try signerInfo.readInteger()
        guard version == 1 else { throw DERError("a SignerInfo version other than 1", at: versionStart) }
        var sid = try signerInfo.readSequence()
        let issuer = try sid.readElement(tag: 0x30)
        try sid.validateTree(issuer)
        let serialNumber = try sid.readIntegerElement()
        try sid.finish()
        let digestAlgorithm = try algorithm(&signerInfo)
        let signedAttributes = try signerInfo.readOptionalElement(tag: DERReader.contextTag(0, constructed: true))
        if let signedAttributes { try checkAttributes(signedAttributes, in: signerInfo) }
        let signatureAlgorithm = try algorithm(&signerInfo)
        let signature = try signerInfo.readOctetString()
        guard signature.length > 0 else { throw DERError("an empty signature", at: signature.start) }
        if signerInfo.nextTag == DERReader.contextTag(1, constructed: true) {
            throw DERError("unsigned attributes, which receipts do not carry", at: signerInfo.position)
        }
        try signerInfo.finish()
        return ReceiptEnvelope(
            bytes: bytes, digestAlgorithms: digestAlgorithms, contentRange: content,
            certificatesFieldRange: certificatesField, certificateRanges: certificates, signerVersion: version,
            signerIssuerRange: issuer.encoded, signerSerialNumberRange: serialNumber.encoded,
            signerDigestAlgorithm: digestAlgorithm, signedAttributesRange: signedAttributes?.encoded,
            signatureAlgorithm: signatureAlgorithm, signatureRange: signature.contents,
            certificatesAreValidated: certificatesAreValidated)
    }

    /// Checks `signedAttrs`: strict DER all through, and a SET OF `Attribute ::= SEQUENCE { attrType OBJECT
    /// IDENTIFIER, attrValues SET OF AttributeValue }` (RFC 5652 §5.3), as OpenSSL's parse requires.
    private static func checkAttributes(_ element: DERElement, in signerInfo: DERReader) throws(DERError) {
        try signerInfo.validateTree(element)
        var attributes = try signerInfo.nested(in: element)
        while !attributes.isAtEnd {
            var attribute = try attributes.readSequence()
            _ = try attribute.readObjectIdentifier()
            _ = try attribute.readSet()
            try attribute.finish()
        }
    }

    /// Reads `SEQUENCE { algorithm OBJECT IDENTIFIER, parameters NULL OPTIONAL }`.
    private static func algorithm(_ reader: inout DERReader) throws(DERError) -> Algorithm {
        var sequence = try reader.readSequence()
        let oid = try sequence.readObjectIdentifier()
        var hasNull = false
        if !sequence.isAtEnd {
            try sequence.readNull()
            hasNull = true
        }
        try sequence.finish()
        return Algorithm(oid: Array(sequence.slice(oid.contents)), hasNullParameters: hasNull)
    }

    private static func expect(
        _ oid: DERElement, _ expected: [UInt8], _ reason: String, _ reader: DERReader
    ) throws(DERError) {
        guard ByteScanning.equal(reader.slice(oid.contents), expected) else { throw DERError(reason, at: oid.start) }
    }
}
