import Foundation

/// Checks 5 to 9 of the verification contract: the `x5c` certificates, the chain to a trusted root,
/// validity at the validation time, Apple's marker extensions and the leaf key type.
struct ChainValidator: Sendable {
    let trustStore: TrustStore
    let intermediates: IntermediateCache

    /// Validates `x5c` (exactly three entries, already counted) at `time` (seconds since 1970).
    ///
    /// Nothing is cached here: the chain says what may be remembered (``ValidatedChain/isRememberable``,
    /// ``ValidatedChain/intermediateEntry``) and the caller remembers it once the token's signature
    /// verified with the chain's leaf key.
    func validate(_ x5c: [String], at time: Int64) -> Result<ValidatedChain, VerificationError> {
        // 5. Every entry is one DER certificate. x5c[2] is never used for trust; when it is byte-identical
        // to a configured root it is not parsed again.
        let known = intermediates.lookup(x5c[1], at: time)
        guard let leafDER = Base64.decodeStandard(x5c[0]) else { return .failure(Self.notBase64(0)) }
        // Under a known intermediate whose chain cannot constrain its leaves, the leaf is first parsed
        // without decoding its key and checked on its own (leaf.c), which only ever answers "the full
        // path certainly accepts it". Any other leaf is parsed the usual way and goes through OpenSSL's
        // verification of the full chain below, which decides and names the error.
        var quick: (leaf: Certificate, validity: ValidityInterval)?
        if let known, known.checksNewLeaves, let candidate = Self.parseP256Leaf(leafDER) {
            let answer = candidate.check(under: known.intermediate, key: known.intermediateKey, at: time)
            if answer.checkedSignature { OperationCounters.countCertificateSignatures(1) }
            if answer == .accepted, let validity = candidate.validity { quick = (candidate, validity) }
        }
        let leaf: Certificate
        if let quick {
            leaf = quick.leaf
        } else {
            guard let parsed = Self.parseCertificate(leafDER) else { return .failure(Self.notCertificate(0)) }
            leaf = parsed
        }
        var intermediate = known?.intermediate
        if intermediate == nil {
            switch parse(x5c[1], index: 1) {
            case .success(let value): intermediate = value
            case .failure(let error): return .failure(error)
            }
        }
        guard let intermediate else { return .failure(Self.internalError) }
        guard let rootDER = Base64.decodeStandard(x5c[2]) else { return .failure(Self.notBase64(2)) }
        if !trustStore.containsRoot(der: rootDER) && Self.parseCertificate(rootDER) == nil {
            return .failure(Self.notCertificate(2))
        }

        // 6–7. Trust and dates: the leaf accepted by the leaf check under the known intermediate, or
        // the whole chain against the configured roots.
        let root: Certificate?
        let validity: ValidityInterval
        if let quick, let known {
            root = known.root
            validity = quick.validity.intersection(known.validity)
        } else {
            let verdict: TrustStore.ChainVerdict
            switch trustStore.verify(leaf: leaf, intermediate: intermediate, at: time) {
            case .success(let value): verdict = value
            case .failure(let error): return .failure(error)
            }
            OperationCounters.countCertificateSignatures(2)
            if let error = Self.chainError(verdict, at: time) { return .failure(error) }
            root = known?.root ?? trustStore.root(withFingerprint: verdict.rootFingerprint)
            validity = verdict.validity
        }

        // 8. Apple's marker extensions (the intermediate's was checked when it was cached).
        guard known != nil || intermediate.hasExtension(AppleOID.intermediateMarker) else {
            return .failure(
                VerificationError(
                    .missingAppleExtension, check: .chain,
                    "the intermediate certificate lacks Apple's marker extension \(AppleOID.intermediateMarker)"))
        }
        guard leaf.hasExtension(AppleOID.leafMarker) else {
            return .failure(
                VerificationError(
                    .missingAppleExtension, check: .chain,
                    "the leaf certificate lacks Apple's marker extension \(AppleOID.leafMarker)"))
        }

        // 9. The leaf key: EC P-256, and a valid point of the group (never the point at infinity).
        guard let key = leaf.publicKey, key.curve == .p256 else {
            return .failure(
                VerificationError(
                    .unsupportedKey, check: .chain,
                    "the leaf key is \(CertificateInfo(leaf).keyType); ES256 needs an EC P-256 key"))
        }
        guard key.isValidP256Point else {
            return .failure(
                VerificationError(
                    .unsupportedKey, check: .chain,
                    "the leaf key is not a valid EC P-256 public key (the point at infinity, or not a point of"
                        + " the curve); with such a key a signature proves nothing"))
        }

        guard let root else { return .failure(Self.internalError) }
        let isRememberable =
            FastPaths.validityRuleHolds && (known != nil || trustStore.hasOneChain(through: intermediate))
        let intermediateEntry =
            known == nil && isRememberable && intermediates.capacity > 0
            ? Self.intermediateEntry(intermediate, under: root) : nil
        let chain = [leaf, intermediate, root]
        let certificates =
            if let known {
                [CertificateInfo(leaf), known.intermediateInfo, known.rootInfo]
            } else {
                chain.map(CertificateInfo.init)
            }
        return .success(
            ValidatedChain(
                leafKey: key, validity: validity, certificates: certificates, chain: chain,
                isRememberable: isRememberable, intermediateEntry: intermediateEntry))
    }

    /// The intermediate-cache entry for `intermediate`, which verified up to the configured `root`
    /// through a chain the store builds one way: new leaves under it may take the leaf check only when
    /// neither certificate can constrain a leaf (the leaf check itself refuses every leaf when the
    /// self-test failed).
    static func intermediateEntry(_ intermediate: Certificate, under root: Certificate) -> IntermediateCache.Entry? {
        guard let intermediateKey = intermediate.publicKey, let intermediateValidity = intermediate.validity,
            let rootValidity = root.validity
        else { return nil }
        return IntermediateCache.Entry(
            intermediate: intermediate, intermediateKey: intermediateKey, root: root,
            validity: intermediateValidity.intersection(rootValidity),
            checksNewLeaves: intermediate.cannotConstrainLeaves && root.cannotConstrainLeaves,
            intermediateInfo: CertificateInfo(intermediate), rootInfo: CertificateInfo(root))
    }

    /// Remembers the intermediate of a chain whose token verified (see ``validate(_:at:)``).
    func remember(_ chain: ValidatedChain, for x5c: [String]) {
        guard let entry = chain.intermediateEntry, x5c.count == 3 else { return }
        intermediates.insert(entry, for: x5c[1])
    }

    /// Checks 6 and 7 from OpenSSL's verdict on the full chain: a trust failure first, then a chain that
    /// does not run leaf ← x5c[1] ← root, then a validity failure.
    private static func chainError(_ verdict: TrustStore.ChainVerdict, at time: Int64) -> VerificationError? {
        if let failure = verdict.trustFailure {
            return VerificationError(
                .untrustedChain, check: .chain,
                "the chain does not lead from x5c[0] through x5c[1] to a trusted root: \(failure.reason)"
                    + " (certificate at depth \(failure.depth))",
                underlying: failure.reason)
        }
        guard verdict.passesThroughIntermediate, verdict.chainLength == 3 else {
            return VerificationError(
                .untrustedChain, check: .chain,
                "the chain to the trusted root does not pass through x5c[1]: the leaf must be issued by the"
                    + " intermediate and the intermediate by a trusted root")
        }
        if let failure = verdict.timeFailure {
            let role = ["leaf", "intermediate", "root"][min(Int(failure.depth), 2)]
            return VerificationError(
                .certificateExpired, check: .chain,
                "the \(role) certificate is not valid at \(iso8601(time)): \(failure.reason)",
                underlying: failure.reason)
        }
        return nil
    }

    private func parse(_ entry: String, index: Int) -> Result<Certificate, VerificationError> {
        guard let der = Base64.decodeStandard(entry) else { return .failure(Self.notBase64(index)) }
        guard let certificate = Self.parseCertificate(der) else { return .failure(Self.notCertificate(index)) }
        return .success(certificate)
    }

    private static func parseCertificate(_ der: [UInt8]) -> Certificate? {
        OperationCounters.countParse()
        return Certificate(der: der)
    }

    private static func parseP256Leaf(_ der: [UInt8]) -> Certificate? {
        OperationCounters.countParse()
        return Certificate(p256LeafDER: der)
    }

    private static func notBase64(_ index: Int) -> VerificationError {
        VerificationError(
            .invalidCertificate, check: .chain,
            "x5c[\(index)] is not strict standard base64 (RFC 7515 §4.1.6: base64, not base64url)")
    }

    private static func notCertificate(_ index: Int) -> VerificationError {
        VerificationError(
            .invalidCertificate, check: .chain, "x5c[\(index)] is not exactly one DER X.509 certificate",
            underlying: drainOpenSSLErrors())
    }

    private static let internalError = VerificationError(
        .untrustedChain, check: .chain, "internal error: the chain could not be assembled")

    static func iso8601(_ seconds: Int64) -> String {
        ISO8601Text.iso8601(milliseconds: Double(seconds) * 1000)
    }
}
