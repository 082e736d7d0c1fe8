/// Intermediates that verified up to a configured root, keyed by their `x5c` text, so that a token
/// with a new leaf under a known intermediate skips the intermediate's parse and, when the leaf
/// check may answer (`leaf.c`), costs one certificate signature check (leaf ← intermediate) instead
/// of two.
///
/// A memo of the full path, never a second opinion: an entry is made only from a chain that
/// `X509_verify_cert` accepted whole and whose token's signature then verified, only when the trust
/// store offers that intermediate exactly one chain (``TrustStore/hasOneChain(through:)``), and it is
/// used only inside the ``ValidityInterval`` in which intermediate and root are both valid. A leaf the
/// check cannot accept goes through `X509_verify_cert` on the full chain with the configured roots.
/// Bounded (oldest entry evicted) and safe under concurrent use: the ``BoundedCache`` under every cache.
final class IntermediateCache: Sendable {
    struct Entry: Sendable {
        let intermediate: Certificate
        /// The intermediate's key, made once: it checks every new leaf's signature and, once hot,
        /// does so with its fixed-base table (`ec_key.c`).
        let intermediateKey: PublicKey
        let root: Certificate
        /// Intermediate and root are both valid in this interval.
        let validity: ValidityInterval
        /// Whether new leaves under this intermediate may take the leaf check: neither intermediate
        /// nor root carries an extension that could constrain a leaf (``Certificate/cannotConstrainLeaves``).
        let checksNewLeaves: Bool
        /// The descriptions of intermediate and root, made once (each new leaf's chain reports them).
        let intermediateInfo: CertificateInfo
        let rootInfo: CertificateInfo
    }

    /// Entries by the exact UTF-8 bytes of their `x5c[1]` text (``ExactBytesKey``): never by `String`
    /// equality, so that text which is not the cached base64 byte for byte never finds the entry.
    private let cache: BoundedCache<ExactBytesKey, Entry>
    var capacity: Int { cache.capacity }

    init(capacity: Int) {
        cache = BoundedCache(capacity: capacity)
    }

    /// The entry for the intermediate whose `x5c` text is `text`, when intermediate and root are both
    /// valid at `time` (seconds since 1970). Counts a hit when it answers.
    func lookup(_ text: String, at time: Int64) -> Entry? {
        guard capacity > 0, let entry = cache.value(for: ExactBytesKey(utf8: text)), entry.validity.contains(time)
        else { return nil }
        cache.countHit()
        return entry
    }

    /// Hits and entries so far (for tests and benchmarks).
    var statistics: (hits: Int, count: Int) {
        let statistics = cache.statistics
        return (statistics.hits, statistics.count)
    }

    /// Entries whose intermediate key verifies with its fixed-base table.
    var keysWithFixedBaseTable: Int {
        cache.count { $0.intermediateKey.hasFixedBaseTable }
    }

    /// Remembers `entry` for the intermediate's `x5c` text, replacing an entry there is (made from the
    /// same intermediate bytes).
    func insert(_ entry: Entry, for text: String) {
        cache.insert(entry, for: ExactBytesKey(utf8: text), admission: .replace)
    }
}
