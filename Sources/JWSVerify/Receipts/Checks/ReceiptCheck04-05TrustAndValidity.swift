/// Receipt checks 4 and 5, from one verdict of `X509_verify_cert` on the chain it builds from the
/// signer's certificate with every embedded certificate offered as untrusted:
/// - 4, **trust** (`untrustedChain`): signer ← an embedded intermediate ← a configured root, every
///   signature good, exactly three certificates; for Xcode, the signer is byte-identical to the pinned
///   StoreKit Testing certificate (``PinnedCertificateCheck``, shared with tokens);
/// - 5, **validity** (`certificateExpired`): every certificate of that chain valid at the validation
///   time (``ValidityInterval``); not enforced for Xcode's certificate, as Xcode does not.
enum ReceiptTrustAndValidityCheck {
    /// The chain that passed: signer, intermediate, root (the signer alone for Xcode).
    struct Trusted {
        let chain: [Certificate]
        let validity: ValidityInterval
        /// Whether OpenSSL builds this same chain from these embedded certificates at every time (the
        /// chain cache may then remember it).
        let isRememberable: Bool
    }

    static func check(
        _ signer: ReceiptSignerCheck.Signer, receipt cms: CMSReceipt, anchor: TrustAnchor, at time: Int64,
        recorder: inout ReportRecorder
    ) throws(VerificationError) -> Trusted {
        switch anchor {
        case .pinnedXcodeCertificate(let pinned):
            try PinnedCertificateCheck.check(signer.certificate.der, in: .cms, pinned: pinned, recorder: &recorder)
            return Trusted(chain: [pinned], validity: .always, isRememberable: false)
        case .appleRoots(let trustStore, _):
            return try checkAppleChain(signer, receipt: cms, trustStore: trustStore, at: time, recorder: &recorder)
        }
    }

    private static func checkAppleChain(
        _ signer: ReceiptSignerCheck.Signer, receipt cms: CMSReceipt, trustStore: TrustStore, at time: Int64,
        recorder: inout ReportRecorder
    ) throws(VerificationError) -> Trusted {
        let outcome: TrustStore.ReceiptChainVerdict
        switch trustStore.verify(receipt: cms, signerIndex: signer.index, at: time) {
        case .success(let value): outcome = value
        case .failure(let error): throw error
        }
        let verdict = outcome.verdict
        if let failure = verdict.trustFailure {
            throw VerificationError(
                .untrustedChain, step: .trust,
                "the chain from the receipt's signer does not lead to a trusted root: \(failure.reason)"
                    + " (certificate at depth \(failure.depth))",
                underlying: failure.reason)
        }
        guard verdict.chainLength == 3, let issuerIndex = outcome.issuerIndex,
            let intermediate = signer.certificates[issuerIndex]
        else {
            throw VerificationError(
                .untrustedChain, step: .trust,
                "the chain from the receipt's signer is not signer ← embedded intermediate ← trusted root:"
                    + " the signer must be issued by an embedded intermediate that a trusted root issued")
        }
        let root = trustStore.root(withFingerprint: verdict.rootFingerprint)
        if let root { recorder.passed(.trust, TrustAndValidityCheck.trustDetail(CertificateInfo(root))) }
        if let failure = verdict.timeFailure {
            let depth = min(Int(failure.depth), 2)
            throw TrustAndValidityCheck.expired(
                role: ["receipt signer", "intermediate", "root"][depth],
                [signer.certificate, intermediate, root][depth],
                at: time, reason: failure.reason)
        }
        guard let root else {
            throw VerificationError(.untrustedChain, step: .trust, "internal error: the chain could not be assembled")
        }
        recorder.passed(.validity, .validAtValidationTime)
        return Trusted(
            chain: [signer.certificate, intermediate, root], validity: verdict.validity,
            isRememberable: FastPaths.validityRuleHolds
                && hasOneChain(signer, intermediate: intermediate, trustStore: trustStore))
    }

    /// Whether OpenSSL, given these embedded certificates and roots, builds [signer, intermediate, root]
    /// at every validation time: the signer is not self-issued; its issuer name is the subject of the
    /// intermediate alone among the embedded certificates and of no root; the intermediate has one
    /// chain through the roots (``TrustStore/hasOneChain(through:)``); and every other embedded
    /// certificate that could issue the intermediate is byte-identical to a root. With several
    /// candidates OpenSSL prefers one valid at the validation time, so the chain could change with it.
    private static func hasOneChain(
        _ signer: ReceiptSignerCheck.Signer, intermediate: Certificate, trustStore: TrustStore
    ) -> Bool {
        let leaf = signer.certificate
        guard !leaf.subjectIsName(of: leaf, issuer: true), trustStore.hasOneChain(through: intermediate),
            !trustStore.roots.contains(where: { $0.subjectIsName(of: leaf, issuer: true) })
        else { return false }
        var issuers = 0
        for case let certificate? in signer.certificates {
            if certificate.subjectIsName(of: leaf, issuer: true) { issuers += 1 }
            if certificate.subjectIsName(of: intermediate, issuer: true), !trustStore.containsRoot(der: certificate.der)
            {
                return false
            }
        }
        return issuers == 1 && signer.certificates.allSatisfy { $0 != nil }
    }
}
