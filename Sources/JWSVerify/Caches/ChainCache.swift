import Foundation

/// Chains that verified, keyed by the exact bytes of the header that carried them (its `x5c`), so
/// that a later token with the same header costs one ES256 verification: no header decoding, no
/// certificate parse, no P-384 verification.
///
/// A memo of the full path, never a second opinion: an entry is inserted only after the token that
/// brought its chain verified with that chain's leaf key (check 10), only for a chain the trust store
/// builds the same way at every time (``ValidatedChain/isRememberable``), and it is used only inside
/// the ``ValidityInterval`` in which every certificate of the chain is valid; at any other validation
/// time the full check runs and reports the expiry. Bounded and safe under concurrent use: the
/// ``BoundedCache`` under every cache of the library (look-ups share a read lock; when full, the oldest
/// entry goes).
final class ChainCache: Sendable {
    /// A header that passed checks 1–4 and the chain it carries, which passed checks 5–9, with the
    /// report steps those checks recorded: a token that uses the entry reports exactly what the full
    /// checks reported (its validity step at its own validation time).
    ///
    /// A class: a look-up hands out one reference, not a copy of every field.
    final class Entry: Sendable {
        let header: JWSHeader
        let chain: ValidatedChain
        /// Steps 2–4 as the header check recorded them.
        let headerSteps: [VerificationReport.Step]
        /// Steps 5–9 as the chain checks recorded them.
        let chainSteps: [VerificationReport.Step]

        init(
            header: JWSHeader, chain: ValidatedChain, headerSteps: [VerificationReport.Step],
            chainSteps: [VerificationReport.Step]
        ) {
            self.header = header
            self.chain = chain
            self.headerSteps = headerSteps
            self.chainSteps = chainSteps
        }
    }

    /// The header's exact bytes, borrowed from the token (never copied for a look-up).
    typealias Key = ExactBytesKey

    private let cache: BoundedCache<Key, Entry>
    var capacity: Int { cache.capacity }

    init(capacity: Int) {
        cache = BoundedCache(capacity: capacity)
    }

    /// The entry for a header's bytes, whatever the validation time.
    func entry(for key: Key) -> Entry? {
        cache.value(for: key)
    }

    /// Whether the entry's chain may stand for a full check at `time` (seconds since 1970): every
    /// certificate is valid then. Counts a hit or a miss.
    func isUsable(_ entry: Entry, at time: Int64) -> Bool {
        let usable = entry.chain.validity.contains(time)
        if usable { cache.countHit() } else { cache.countMiss() }
        return usable
    }

    /// Remembers `entry` for the header `key` (the first entry of a header stays: every entry of one
    /// header holds the same verdict).
    func insert(_ entry: Entry, for key: Key) {
        cache.insert(entry, for: key, admission: .keepExisting)
    }

    /// Hits, misses and entries so far (for tests and benchmarks).
    var statistics: (hits: Int, misses: Int, count: Int) { cache.statistics }

    /// Cached chains whose leaf key verifies with its own fixed-base table (`PublicKey`), for tests
    /// and benchmarks.
    var leafKeysWithFixedBaseTable: Int {
        cache.count { $0.chain.leafKey.hasFixedBaseTable }
    }
}

/// A chain that passed checks 5 to 9 of the contract.
///
/// A class: the chain cache hands out one reference per warm token, not a copy of every field.
final class ValidatedChain: Sendable {
    let leafKey: PublicKey
    /// Every certificate of the chain is valid in this interval.
    let validity: ValidityInterval
    /// Leaf, intermediate and the trusted root that matched, described for display.
    let certificates: [CertificateInfo]
    /// Leaf, intermediate and the trusted root that matched (for OCSP); empty for an Xcode certificate.
    let chain: [Certificate]
    /// Whether the full path would build this same chain at every validation time, so that its
    /// verdict may be remembered (the chain cache) once the token's signature verified.
    let isRememberable: Bool
    /// The intermediate's entry to remember once the token's signature verified, when the
    /// intermediate was not known yet and may be remembered.
    let intermediateEntry: IntermediateCache.Entry?

    init(
        leafKey: PublicKey, validity: ValidityInterval, certificates: [CertificateInfo], chain: [Certificate],
        isRememberable: Bool, intermediateEntry: IntermediateCache.Entry?
    ) {
        self.leafKey = leafKey
        self.validity = validity
        self.certificates = certificates
        self.chain = chain
        self.isRememberable = isRememberable
        self.intermediateEntry = intermediateEntry
    }
}
