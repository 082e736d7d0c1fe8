/// What a token's chain must lead to, and so how checks 5 to 9 run.
enum TrustAnchor: Sendable {
    /// Apple's shape: leaf ← intermediate ← one of the configured roots, with Apple's marker
    /// extensions; checks 5–9 in their own files.
    case appleRoots(trustStore: TrustStore, intermediates: IntermediateCache)
    /// Xcode's StoreKit Testing: one self-signed certificate, byte-identical to the pinned one
    /// (``XcodeCertificateCheck``).
    case pinnedXcodeCertificate(Certificate)

    /// How many `x5c` entries check 4 asks for.
    var chainLength: Int {
        if case .pinnedXcodeCertificate = self { return 1 }
        return 3
    }

    /// What the report says of check 4.
    var chainLengthDetail: String {
        if case .pinnedXcodeCertificate = self { return "1 certificate (StoreKit Testing)" }
        return "3 certificates: leaf, intermediate, root"
    }

    /// Checks 5 to 9 on `x5c` (of ``chainLength`` entries) at `time` (seconds since 1970).
    ///
    /// Nothing is cached here: the chain says what may be remembered (``ValidatedChain/isRememberable``,
    /// ``ValidatedChain/intermediateEntry``), and ``remember(_:for:)`` remembers it once the token's
    /// signature verified with the chain's leaf key.
    func validate(
        _ x5c: [String], at time: Int64, recorder: inout ReportRecorder
    ) throws(VerificationError)
        -> ValidatedChain
    {
        switch self {
        case .pinnedXcodeCertificate(let pinned):
            return try XcodeCertificateCheck.check(x5c[0], pinned: pinned, recorder: &recorder)
        case .appleRoots(let trustStore, let intermediates):
            let parsed = try CertificatesCheck.check(
                x5c, at: time, trustStore: trustStore, intermediates: intermediates, recorder: &recorder)
            let trusted = try TrustAndValidityCheck.check(parsed, trustStore: trustStore, at: time, recorder: &recorder)
            try AppleExtensionsCheck.check(parsed, recorder: &recorder)
            let key = try LeafKeyCheck.check(parsed.leaf, recorder: &recorder)
            let known = parsed.known
            let isRememberable =
                FastPaths.validityRuleHolds
                && (known != nil || trustStore.hasOneChain(through: parsed.intermediate))
            let intermediateEntry =
                known == nil && isRememberable && intermediates.capacity > 0
                ? IntermediateCache.Entry(parsed.intermediate, under: trusted.root) : nil
            let certificates =
                if let known {
                    [CertificateInfo(parsed.leaf), known.intermediateInfo, known.rootInfo]
                } else {
                    [parsed.leaf, parsed.intermediate, trusted.root].map(CertificateInfo.init)
                }
            return ValidatedChain(
                leafKey: key, validity: trusted.validity, certificates: certificates,
                chain: [parsed.leaf, parsed.intermediate, trusted.root], isRememberable: isRememberable,
                intermediateEntry: intermediateEntry)
        }
    }

    /// Checks 5 to 9 alone, without a report (for tests that compare paths).
    func validate(_ x5c: [String], at time: Int64) -> Result<ValidatedChain, VerificationError> {
        var recorder = ReportRecorder()
        return Result { () throws(VerificationError) in try validate(x5c, at: time, recorder: &recorder) }
    }

    /// Remembers the intermediate of a chain whose token verified (see ``validate(_:at:recorder:)``).
    func remember(_ chain: ValidatedChain, for x5c: [String]) {
        guard case .appleRoots(_, let intermediates) = self, let entry = chain.intermediateEntry, x5c.count == 3
        else { return }
        intermediates.insert(entry, for: x5c[1])
    }

    /// The intermediate cache's hits and size (for tests and benchmarks).
    var intermediates: IntermediateCache? {
        if case .appleRoots(_, let intermediates) = self { return intermediates }
        return nil
    }
}

extension IntermediateCache.Entry {
    /// The entry for `intermediate`, which verified up to the configured `root` through a chain the
    /// store builds one way: new leaves under it may take the leaf check only when neither certificate
    /// can constrain a leaf (the leaf check itself refuses every leaf when the self-test failed).
    init?(_ intermediate: Certificate, under root: Certificate) {
        guard let intermediateKey = intermediate.publicKey, let intermediateValidity = intermediate.validity,
            let rootValidity = root.validity
        else { return nil }
        self.init(
            intermediate: intermediate, intermediateKey: intermediateKey, root: root,
            validity: intermediateValidity.intersection(rootValidity),
            checksNewLeaves: intermediate.cannotConstrainLeaves && root.cannotConstrainLeaves,
            intermediateInfo: CertificateInfo(intermediate), rootInfo: CertificateInfo(root))
    }
}
