/// Receipt check 1, **format** (`malformedReceipt`): at most ``AppReceiptVerifier/maximumReceiptBytes``;
/// the bytes of a receipt file (DER, or BER from Xcode), or standard base64 of them (ASCII spaces and
/// line breaks ignored); a CMS SignedData (OpenSSL's parse, all bytes) whose content is present, of type
/// id-data, with exactly one SignerInfo (step `format`); and that content the strict DER of a receipt's
/// attributes (``AppReceipt``), read now because its creation date is the validation time (step `content`).
///
/// A receipt whose envelope is strict DER (``ReceiptEnvelope``) and whose signer the chain cache knows
/// is not parsed by OpenSSL again: everything but its content and signature is byte-identical to a
/// receipt OpenSSL parsed and verified, so OpenSSL's parse would find the same content.
enum ReceiptFormatCheck {
    static let passed = "a CMS SignedData with one signer over id-data content"
    static let contentPassed = "the content decoded as an app receipt (its creation date is the validation time)"

    /// A receipt that passed check 1.
    struct Parsed {
        /// The receipt file's bytes (base64 decoded).
        let bytes: [UInt8]
        /// The strict-DER view of the envelope, when it is one.
        let envelope: ReceiptEnvelope?
        /// The chain cache's entry for the envelope, when it has one.
        let cached: ReceiptChainCache.Entry?
        /// OpenSSL's parse; nil when the cache answered for the envelope (parse it with ``openSSL()``).
        let cms: CMSReceipt?
        /// The decoded content.
        let receipt: AppReceipt

        /// OpenSSL's parse of the bytes (already done unless the cache answered).
        func openSSL() throws(VerificationError) -> CMSReceipt {
            if let cms { return cms }
            switch CMSReceipt.parse(bytes) {
            case .success(let cms): return cms
            case .failure(let refusal): throw ReceiptFormatCheck.error(refusal, bytes: bytes)
            }
        }
    }

    /// Checks `input`, parsing it, recording the steps `format` and `content`.
    static func parse(
        _ input: [UInt8], maximumBytes: Int, chainCache: ReceiptChainCache, recorder: inout ReportRecorder
    ) throws(VerificationError) -> Parsed {
        guard !input.isEmpty else { throw malformed("the receipt is empty") }
        guard input.count <= maximumBytes else {
            throw malformed("the receipt is \(input.count) bytes, more than the limit of \(maximumBytes)")
        }
        let bytes = try fileBytes(input)
        // The lookup scans without walking the certificates: the cache knows only certificates that were walked,
        // byte for byte. A miss scans again with the walk, for the cache to remember the envelope if it verifies.
        var envelope = ReceiptEnvelope.scan(bytes, validatingCertificates: false)
        let cached = envelope.flatMap { chainCache.entry(for: $0) }
        if envelope != nil, cached == nil { envelope = ReceiptEnvelope.scan(bytes) }
        let cms: CMSReceipt?
        let content: [UInt8]
        if let envelope, cached != nil {
            cms = nil
            content = envelope.content
        } else {
            switch CMSReceipt.parse(bytes) {
            case .success(let parsed):
                cms = parsed
                content = parsed.content
            case .failure(let refusal):
                throw error(refusal, bytes: bytes)
            }
        }
        recorder.passed(.format, passed)
        let receipt: AppReceipt
        do {
            receipt = try AppReceipt(content: content)
        } catch {
            throw VerificationError(
                .malformedReceipt, step: .content, "the signed content is not a receipt's attributes: \(error.message)")
        }
        recorder.passed(.content, contentPassed)
        return Parsed(bytes: bytes, envelope: envelope, cached: cached, cms: cms, receipt: receipt)
    }

    /// The receipt file's bytes, as ``InputShape/receiptFileBytes(_:)`` (the one place that decides "DER or
    /// base64") reads them; `malformedReceipt` when they are neither.
    private static func fileBytes(_ input: [UInt8]) throws(VerificationError) -> [UInt8] {
        guard let bytes = InputShape.receiptFileBytes(input) else {
            let what = ReceiptInputDescription.describeNonReceipt(input).map { ": \($0)" } ?? ""
            throw malformed(
                "the receipt is neither the bytes of a receipt file (DER) nor standard base64 of them"
                    + " (A-Z, a-z, 0-9, +, /, = padding)\(what)")
        }
        return bytes
    }

    /// The error for bytes OpenSSL refused, saying what they are when they are something else known.
    static func error(_ refusal: CMSReceipt.Refusal, bytes: [UInt8]) -> VerificationError {
        switch refusal {
        case .notCMS:
            if let other = ReceiptInputDescription.describeNonReceipt(bytes) {
                return malformed("not an app receipt: \(other)")
            }
            return malformed("the receipt is not a CMS / PKCS #7 ContentInfo (DER or BER)")
        case .trailingBytes: return malformed("bytes follow the receipt's CMS ContentInfo")
        case .notSignedData: return malformed("the receipt's ContentInfo is not a SignedData")
        case .notData: return malformed("the receipt's signed content is not of type id-data (1.2.840.113549.1.7.1)")
        case .detached:
            return malformed("the receipt's signed content is absent (a detached signature): there is nothing to read")
        case .signerCount: return malformed("the receipt does not have exactly one SignerInfo")
        case .internalError:
            return malformed("OpenSSL could not parse the receipt: \(drainOpenSSLErrors())")
        }
    }

    static func malformed(_ message: String) -> VerificationError {
        VerificationError(.malformedReceipt, step: .format, message)
    }
}
