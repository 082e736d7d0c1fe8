/// Check 10, **signature** (`invalidSignature`): ES256 over the token's own ASCII bytes
/// `header.payload` with the leaf key, a 64-byte R‖S (RFC 7518 §3.4, not DER); high S is accepted.
enum SignatureCheck {
    /// Verifies the token's signature with `key`, recording step 10.
    static func check(_ token: ParsedToken, key: PublicKey, recorder: inout ReportRecorder) throws(VerificationError) {
        let signature = token.signature
        guard signature.count == 64 else {
            throw VerificationError(
                .invalidSignature, step: .signature,
                "an ES256 signature is 64 bytes of R‖S (RFC 7518 §3.4), this one is \(signature.count) bytes"
                    + (signature.first == 0x30 ? " and looks like DER" : ""))
        }
        OperationCounters.countES256()
        guard key.isValidES256Signature(signature, for: token.signingInput) else {
            throw VerificationError(
                .invalidSignature, step: .signature, "the ES256 signature does not verify with the leaf key")
        }
        recorder.passed(.signature, "ES256 signature verified with the leaf key")
    }
}
