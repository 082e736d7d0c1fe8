/// Check 9, **leaf key** (`unsupportedKey`): the leaf key is EC P-256 and a valid point of the curve,
/// never the point at infinity (`EVP_PKEY_public_check_quick`), on every path: with such a key a
/// forged signature would verify.
enum LeafKeyCheck {
    static let passed = "EC P-256"

    /// Returns the leaf's key, recording step 9.
    static func check(_ leaf: Certificate, recorder: inout ReportRecorder) throws(VerificationError) -> PublicKey {
        guard let key = leaf.publicKey, key.curve == .p256 else {
            throw VerificationError(
                .unsupportedKey, step: .leafKey,
                "the leaf key is \(CertificateInfo(leaf).keyType); ES256 needs an EC P-256 key")
        }
        guard key.isValidP256Point else {
            throw VerificationError(
                .unsupportedKey, step: .leafKey,
                "the leaf key is not a valid EC P-256 public key (the point at infinity, or not a point of"
                    + " the curve); with such a key a signature proves nothing")
        }
        recorder.passed(.leafKey, passed)
        return key
    }
}
