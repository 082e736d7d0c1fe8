/// Receipt check 8, **signature** (`invalidSignature`): OpenSSL's `CMS_verify` of the signer's
/// signature over the content (its digest; with signed attributes, their messageDigest and their
/// signature), with the signer's certificate. A receipt whose signer the chain cache knows is checked
/// with the cached key by what `CMS_verify` computes for a SignerInfo without signed attributes
/// (``PublicKey/isValidRSASignature(_:over:digest:)``); when that fails the full path decides.
enum ReceiptSignatureCheck {
    static let passed = "the signer's RSA signature over the content verifies"

    static func check(_ cms: CMSReceipt, recorder: inout ReportRecorder) throws(VerificationError) {
        guard cms.signatureVerifies() else {
            throw VerificationError(
                .invalidSignature, step: .signature,
                "the receipt's signature does not verify with its signer's key over its content")
        }
        recorder.passed(.signature, passed)
    }
}
