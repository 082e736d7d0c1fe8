/// Receipt check 3, **signer** (`missingCertificateChain`, `invalidCertificate`): the receipt embeds
/// certificates, one of them is the certificate its SignerInfo names (issuer and serial number, as
/// `CMS_verify` picks it: the first that matches), and OpenSSL can read that certificate's key. Being
/// embedded trusts nothing: checks 4 to 7 decide.
enum ReceiptSignerCheck {
    /// The embedded certificates and the signer's place among them.
    struct Signer {
        let certificates: [Certificate?]
        let index: Int
        let certificate: Certificate
    }

    /// Finds the signer, recording its steps `certificateChain` and `certificates`.
    static func check(_ cms: CMSReceipt, recorder: inout ReportRecorder) throws(VerificationError) -> Signer {
        let certificates = cms.certificates
        guard !certificates.isEmpty else {
            throw VerificationError(
                .missingCertificateChain, step: .certificateChain, "the receipt embeds no certificate")
        }
        guard let index = cms.signerIndex else {
            throw VerificationError(
                .missingCertificateChain, step: .certificateChain,
                "none of the receipt's \(certificates.count) embedded certificates is the one its SignerInfo names")
        }
        recorder.passed(.certificateChain, "the SignerInfo names embedded certificate \(index)")
        guard let certificate = certificates[index], certificate.publicKey != nil else {
            throw VerificationError(
                .invalidCertificate, step: .certificates,
                "OpenSSL cannot read the key of the signer's certificate (embedded certificate \(index))",
                underlying: drainOpenSSLErrors())
        }
        recorder.passed(.certificates, "the signer's certificate and its key parse")
        return Signer(certificates: certificates, index: index, certificate: certificate)
    }
}
