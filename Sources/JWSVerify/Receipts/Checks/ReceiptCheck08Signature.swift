/// Receipt check 8, **signature** (`invalidSignature`): OpenSSL's `CMS_verify` of the signer's
/// signature over the content (its digest; with signed attributes, their messageDigest and their
/// signature), with the signer's certificate. A receipt whose signer the chain cache knows is checked
/// with the cached key by what `CMS_verify` computes for a SignerInfo without signed attributes
/// (``PublicKey/isValidRSASignature(_:over:digest:)``); when that fails the full path decides. OpenSSL's
/// reason for a refusal is the error's `underlying`. A `digestAlgorithms` set that does not give
/// `CMS_verify` the signer's digest never gets here: check 2 refuses it.
enum ReceiptSignatureCheck {
    static let passed = "the signer's RSA signature over the content verifies"

    static func check(_ cms: CMSReceipt, recorder: inout ReportRecorder) throws(VerificationError) {
        if let reason = cms.signatureRefusal() {
            throw VerificationError(
                .invalidSignature, step: .signature,
                "the receipt's signature does not verify with its signer's key over its content",
                underlying: reason.isEmpty ? "CMS_verify refused the receipt without a reason" : reason)
        }
        recorder.passed(.signature, passed)
    }
}
