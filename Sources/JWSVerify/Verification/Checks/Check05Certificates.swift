/// The three certificates of an Apple-shaped `x5c` after check 5.
struct ParsedChain {
    let leaf: Certificate
    let intermediate: Certificate
    /// The intermediate cache's entry for `x5c[1]`, valid at the validation time, when it has one:
    /// the intermediate was not parsed again and passed checks 6–8 before.
    let known: IntermediateCache.Entry?
    /// Set when the leaf check (`leaf.c`) accepted the leaf under the known intermediate: the
    /// interval in which the leaf is valid. Checks 6 and 7 then hold without `X509_verify_cert`.
    let acceptedLeafValidity: ValidityInterval?
}

/// Check 5, **certificates** (`invalidCertificate`): each `x5c` entry is strict standard base64 of
/// exactly one DER X.509 certificate. `x5c[2]` is never used for trust; when it is byte-identical to
/// a configured root it is not parsed again.
///
/// Under a known intermediate whose chain cannot constrain its leaves, the leaf is parsed without
/// decoding its key and put to the leaf check (the fast path of checks 6–7), which only ever answers
/// "the full path certainly accepts it"; any other leaf is parsed the usual way and goes through
/// OpenSSL's verification of the full chain in ``TrustAndValidityCheck``.
enum CertificatesCheck {
    static let passed = "each entry is base64 of one DER X.509 certificate"

    /// Parses `x5c` (three entries) at `time` (seconds since 1970), recording step 5.
    static func check(
        _ x5c: [String], at time: Int64, trustStore: TrustStore, intermediates: IntermediateCache,
        recorder: inout ReportRecorder
    ) throws(VerificationError) -> ParsedChain {
        let known = intermediates.lookup(x5c[1], at: time)
        guard let leafDER = Base64.decodeStandard(x5c[0]) else { throw notBase64(0) }
        var accepted: (leaf: Certificate, validity: ValidityInterval)?
        if let known, known.checksNewLeaves, let candidate = parseP256Leaf(leafDER) {
            let answer = candidate.check(under: known.intermediate, key: known.intermediateKey, at: time)
            if answer.checkedSignature { OperationCounters.countCertificateSignatures(1) }
            if answer == .accepted, let validity = candidate.validity { accepted = (candidate, validity) }
        }
        let leaf: Certificate
        if let accepted {
            leaf = accepted.leaf
        } else {
            guard let parsed = parseCertificate(leafDER) else { throw notCertificate(0) }
            leaf = parsed
        }
        let intermediate: Certificate
        if let known {
            intermediate = known.intermediate
        } else {
            guard let der = Base64.decodeStandard(x5c[1]) else { throw notBase64(1) }
            guard let parsed = parseCertificate(der) else { throw notCertificate(1) }
            intermediate = parsed
        }
        guard let rootDER = Base64.decodeStandard(x5c[2]) else { throw notBase64(2) }
        if !trustStore.containsRoot(der: rootDER) && parseCertificate(rootDER) == nil {
            throw notCertificate(2)
        }
        recorder.passed(.certificates, passed)
        return ParsedChain(
            leaf: leaf, intermediate: intermediate, known: known, acceptedLeafValidity: accepted?.validity)
    }

    private static func parseCertificate(_ der: [UInt8]) -> Certificate? {
        OperationCounters.countParse()
        return Certificate(der: der)
    }

    private static func parseP256Leaf(_ der: [UInt8]) -> Certificate? {
        OperationCounters.countParse()
        return Certificate(p256LeafDER: der)
    }

    static func notBase64(_ index: Int) -> VerificationError {
        VerificationError(
            .invalidCertificate, step: .certificates,
            "x5c[\(index)] is not strict standard base64 (RFC 7515 §4.1.6: base64, not base64url)")
    }

    static func notCertificate(_ index: Int) -> VerificationError {
        VerificationError(
            .invalidCertificate, step: .certificates, "x5c[\(index)] is not exactly one DER X.509 certificate",
            underlying: drainOpenSSLErrors())
    }
}
