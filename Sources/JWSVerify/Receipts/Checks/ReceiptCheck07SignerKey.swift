/// Receipt check 7, **signer key** (`unsupportedKey`): the signer's key is RSA (not RSA-PSS) of at
/// least 2048 bits.
enum ReceiptSignerKeyCheck {
    static let minimumBits = 2048

    /// Returns the signer's key, recording the step `signerKey`.
    static func check(_ signer: Certificate, recorder: inout ReportRecorder) throws(VerificationError) -> PublicKey {
        guard let key = signer.publicKey, key.rsaBits > 0 else {
            throw VerificationError(
                .unsupportedKey, step: .signerKey,
                "the receipt signer's key is \(CertificateInfo(signer).keyType); app receipts are signed with RSA")
        }
        guard key.rsaBits >= minimumBits else {
            throw VerificationError(
                .unsupportedKey, step: .signerKey,
                "the receipt signer's RSA key has \(key.rsaBits) bits, fewer than \(minimumBits)")
        }
        recorder.passed(.signerKey, "RSA \(key.rsaBits) bits")
        return key
    }
}
