/// Checks 6 and 7, from one verdict on the whole chain:
/// - 6, **trust** (`untrustedChain`): leaf ← `x5c[1]` ← a configured root, built by OpenSSL from the
///   trust store (`x5c[2]` is never trusted); every signature good; the built chain is exactly three
///   long and passes through `x5c[1]`;
/// - 7, **validity** (`certificateExpired`): every certificate valid at the validation time,
///   notBefore ≤ t < notAfter (``ValidityInterval``, OpenSSL 3.0's `X509_cmp_time`).
///
/// The verdict is `X509_verify_cert`'s, unless check 5's leaf check accepted a new leaf under a
/// known intermediate: that answer is only ever "the full path certainly accepts it".
enum TrustAndValidityCheck {
    /// The root the chain leads to, and the interval in which the whole chain is valid.
    struct Trusted {
        let root: Certificate
        let validity: ValidityInterval
    }

    /// Decides checks 6 and 7 for `chain` at `time`, recording both steps.
    static func check(
        _ chain: ParsedChain, trustStore: TrustStore, at time: Int64, recorder: inout ReportRecorder
    ) throws(VerificationError) -> Trusted {
        if let leafValidity = chain.acceptedLeafValidity, let known = chain.known {
            let trusted = Trusted(root: known.root, validity: leafValidity.intersection(known.validity))
            recorder.passed(.trust, trustDetail(known.rootInfo))
            recorder.passed(.validity, .validAtValidationTime)
            return trusted
        }
        let verdict: TrustStore.ChainVerdict
        switch trustStore.verify(leaf: chain.leaf, intermediate: chain.intermediate, at: time) {
        case .success(let value): verdict = value
        case .failure(let error): throw error
        }
        OperationCounters.countCertificateSignatures(2)
        if let failure = verdict.trustFailure {
            throw VerificationError(
                .untrustedChain, step: .trust,
                "the chain does not lead from x5c[0] through x5c[1] to a trusted root: \(failure.reason)"
                    + " (certificate at depth \(failure.depth))",
                underlying: failure.reason)
        }
        guard verdict.passesThroughIntermediate, verdict.chainLength == 3 else {
            throw VerificationError(
                .untrustedChain, step: .trust,
                "the chain to the trusted root does not pass through x5c[1]: the leaf must be issued by the"
                    + " intermediate and the intermediate by a trusted root")
        }
        // The store found the root it built the chain to; not finding it again is an internal error,
        // reported after the validity failure, as the full verdict orders them.
        let root = chain.known?.root ?? trustStore.root(withFingerprint: verdict.rootFingerprint)
        if let root { recorder.passed(.trust, trustDetail(chain.known?.rootInfo ?? CertificateInfo(root))) }
        if let failure = verdict.timeFailure {
            let depth = min(Int(failure.depth), 2)
            throw expired(
                role: ["leaf", "intermediate", "root"][depth], [chain.leaf, chain.intermediate, root][depth],
                at: time, reason: failure.reason)
        }
        guard let root else {
            throw VerificationError(.untrustedChain, step: .trust, "internal error: the chain could not be assembled")
        }
        recorder.passed(.validity, .validAtValidationTime)
        return Trusted(root: root, validity: verdict.validity)
    }

    /// The error of check 7: which certificate (its role and CN, else O, escaped: it comes from the token),
    /// its validity window and the validation time, then OpenSSL's reason.
    ///
    /// Built here only, from the certificates themselves, so a verifier whose caches hold the chain
    /// (which revalidates in full a chain not valid at the time) says exactly what a cold one says.
    static func expired(
        role: String, _ certificate: Certificate?, at time: Int64, reason: String
    ) -> VerificationError {
        var named = "the \(role) certificate"
        if let certificate {
            let name =
                certificate.subjectCommonName.map { "CN=" + EscapedText.escaped($0) }
                ?? certificate.subjectOrganization.map { "O=" + EscapedText.escaped($0) } ?? "without a CN or O"
            named += " (\(name))"
        }
        let window =
            certificate?.validity.map {
                ", outside its validity from \(ISO8601Text.iso8601(seconds: $0.notBefore)) to"
                    + " \(ISO8601Text.iso8601(seconds: $0.notAfter))"
            } ?? ""
        return VerificationError(
            .certificateExpired, step: .validity,
            "\(named) is not valid at \(ISO8601Text.iso8601(seconds: time))\(window): \(reason)", underlying: reason)
    }

    static func trustDetail(_ root: CertificateInfo) -> VerificationReport.Detail {
        .trustedRoot(
            name: root.subjectCommonName ?? root.subjectOrganization ?? "without a CN",
            fingerprint: root.sha256Fingerprint)
    }
}
