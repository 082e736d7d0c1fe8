import Foundation

/// Checks 5 to 9 of the verification contract: the `x5c` certificates, the chain to a trusted root,
/// validity at the validation time, Apple's marker extensions and the leaf key type.
struct ChainValidator: Sendable {
    let trustStore: TrustStore

    /// Validates `x5c` (exactly three entries, already counted) at `time` (seconds since 1970).
    func validate(_ x5c: [String], at time: Int64) -> Result<ValidatedChain, VerificationError> {
        var certificates: [Certificate] = []
        for (index, entry) in x5c.enumerated() {
            guard let der = Base64.decodeStandard(entry) else {
                return .failure(
                    VerificationError(
                        .invalidCertificate, check: .chain,
                        "x5c[\(index)] is not strict standard base64 (RFC 7515 §4.1.6: base64, not base64url)"))
            }
            guard let certificate = Certificate(der: der) else {
                return .failure(
                    VerificationError(
                        .invalidCertificate, check: .chain, "x5c[\(index)] is not exactly one DER X.509 certificate",
                        underlying: drainOpenSSLErrors()))
            }
            certificates.append(certificate)
        }
        let leaf = certificates[0]
        let intermediate = certificates[1]
        let verdict: TrustStore.ChainVerdict
        switch trustStore.verify(leaf: leaf, intermediate: intermediate, at: time) {
        case .success(let value): verdict = value
        case .failure(let error): return .failure(error)
        }
        if let failure = verdict.trustFailure {
            return .failure(
                VerificationError(
                    .untrustedChain, check: .chain,
                    "the chain does not lead from x5c[0] through x5c[1] to a trusted root: \(failure.reason)"
                        + " (certificate at depth \(failure.depth))",
                    underlying: failure.reason))
        }
        guard verdict.isThreeCertificateChain else {
            return .failure(
                VerificationError(
                    .untrustedChain, check: .chain,
                    "the chain to the trusted root does not pass through x5c[1]: the leaf must be issued by the"
                        + " intermediate and the intermediate by a trusted root"))
        }
        if let failure = verdict.timeFailure {
            let role = ["leaf", "intermediate", "root"][min(Int(failure.depth), 2)]
            return .failure(
                VerificationError(
                    .certificateExpired, check: .chain,
                    "the \(role) certificate is not valid at \(Self.iso8601(time)): \(failure.reason)",
                    underlying: failure.reason))
        }
        guard intermediate.hasExtension(AppleOID.intermediateMarker) else {
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
        guard let key = leaf.publicKey, key.curve == .p256 else {
            return .failure(
                VerificationError(
                    .unsupportedKey, check: .chain,
                    "the leaf key is \(CertificateInfo(leaf).keyType); ES256 needs an EC P-256 key"))
        }
        let root = trustStore.root(withFingerprint: verdict.rootFingerprint)
        let chain = [leaf, intermediate] + (root.map { [$0] } ?? [])
        return .success(
            ValidatedChain(
                leafKey: key, validFrom: verdict.validFrom, validUntil: verdict.validUntil,
                certificates: chain.map(CertificateInfo.init), chain: chain))
    }

    static func iso8601(_ seconds: Int64) -> String {
        Date(timeIntervalSince1970: TimeInterval(seconds)).formatted(.iso8601)
    }
}
