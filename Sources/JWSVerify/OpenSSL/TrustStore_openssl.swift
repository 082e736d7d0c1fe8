internal import CJWSOpenSSL
import Foundation

/// A set of trusted roots (`X509_STORE`), owned, built once per verifier.
///
/// `@unchecked Sendable`: the store is filled in `init` and only read afterwards; OpenSSL locks
/// its internal lookups, and each verification uses its own `X509_STORE_CTX`.
final class TrustStore: @unchecked Sendable {
    private let store: OpaquePointer
    /// The roots, in the order given.
    let roots: [Certificate]
    private let rootFingerprints: [[UInt8]]
    /// The roots without repeats (the store keeps one copy of a root given twice).
    private let distinctRoots: [Certificate]

    /// What OpenSSL concluded about leaf ← intermediate ← root.
    struct ChainVerdict: Sendable {
        /// The first failure that is not about dates, with OpenSSL's reason.
        var trustFailure: (code: Int32, depth: Int32, reason: String)?
        /// The first failure about validity dates.
        var timeFailure: (code: Int32, depth: Int32, reason: String)?
        /// The number of certificates in the chain OpenSSL built.
        var chainLength: Int
        /// The chain's second certificate is the given intermediate.
        var passesThroughIntermediate: Bool
        /// SHA-256 of the root that ended the chain.
        var rootFingerprint: [UInt8]
        /// Every certificate of the chain is valid in this interval.
        var validity: ValidityInterval
    }

    /// - Parameter roots: The trust anchors.
    init?(roots: [Certificate]) {
        guard let store = cjws_store_new() else { return nil }
        self.store = store
        self.roots = roots
        let fingerprints = roots.map(\.openSSLFingerprint)
        self.rootFingerprints = fingerprints
        self.distinctRoots = roots.indices.filter { fingerprints.firstIndex(of: fingerprints[$0]) == $0 }.map {
            roots[$0]
        }
        for root in roots where cjws_store_add_root(store, root.pointer) != 1 {
            cjws_clear_errors()
            return nil
        }
    }

    deinit {
        cjws_store_free(store)
    }

    /// Whether `der` is byte-identical to one of the roots.
    func containsRoot(der: [UInt8]) -> Bool {
        roots.contains { $0.der == der }
    }

    /// Whether `intermediate` has exactly one candidate issuer among the roots (one root whose subject
    /// is its issuer name) and no root could stand in for it (none has its subject name): then OpenSSL
    /// builds the same chain [leaf, intermediate, that root] at every validation time, and a verdict
    /// on that chain may be remembered. With several candidates OpenSSL prefers one valid at the
    /// validation time, so the chain it builds could change with the time.
    func hasOneChain(through intermediate: Certificate) -> Bool {
        var issuers = 0
        for root in distinctRoots {
            if root.subjectIsName(of: intermediate, issuer: false) { return false }
            if root.subjectIsName(of: intermediate, issuer: true) { issuers += 1 }
        }
        return issuers == 1
    }

    /// The configured root with this fingerprint (``Certificate/openSSLFingerprint``, as
    /// ``ChainVerdict/rootFingerprint`` gives it).
    func root(withFingerprint fingerprint: [UInt8]) -> Certificate? {
        rootFingerprints.firstIndex(of: fingerprint).map { roots[$0] }
    }

    /// Builds and verifies the chain at `time` (seconds since 1970), with `intermediate` as the
    /// only untrusted certificate offered. Nil on an internal OpenSSL failure (then `error` says why).
    func verify(leaf: Certificate, intermediate: Certificate, at time: Int64) -> Result<ChainVerdict, VerificationError>
    {
        var result = cjws_chain_result()
        guard cjws_verify_chain(store, leaf.pointer, intermediate.pointer, time, &result) == 1 else {
            return .failure(
                VerificationError(
                    .untrustedChain, step: .trust, "OpenSSL could not run the chain verification",
                    underlying: drainOpenSSLErrors()))
        }
        cjws_clear_errors()
        return .success(Self.verdict(result))
    }

    /// The store itself, for the C functions that verify other shapes of chain (app receipts).
    func withStore<T>(_ body: (OpaquePointer) -> T) -> T { body(store) }

    /// The verdict `cjws_verify_chain` (or the receipt's chain verification) wrote.
    static func verdict(_ result: cjws_chain_result) -> ChainVerdict {
        func reason(_ code: Int32) -> String { String(cString: cjws_verify_error_string(code)) }
        let fingerprint = withUnsafeBytes(of: result.root_sha256) { Array($0) }
        return ChainVerdict(
            trustFailure: result.trust_error != 0
                ? (result.trust_error, result.trust_error_depth, reason(result.trust_error)) : nil,
            timeFailure: result.time_error != 0
                ? (result.time_error, result.time_error_depth, reason(result.time_error)) : nil,
            chainLength: Int(result.chain_length), passesThroughIntermediate: result.intermediate_in_chain == 1,
            rootFingerprint: fingerprint,
            validity: ValidityInterval(notBefore: result.chain_not_before, notAfter: result.chain_not_after))
    }
}
