import Synchronization

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
/// Bounded (oldest entry evicted), safe under concurrent use: lookups share a read lock
/// (`ReadWriteLocked`), as the chain cache's do.
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

    /// Entries by the exact UTF-8 bytes of their `x5c[1]` text: never by `String` equality, which is
    /// Unicode canonical equivalence (a KELVIN SIGN U+212A equals "K"), so that text which is not the
    /// cached base64 byte for byte never finds the entry.
    private struct State {
        var entries: [[UInt8]: Entry] = [:]
        var order: [[UInt8]] = []
    }

    private let state = ReadWriteLocked(State())
    private let hits = Atomic<Int>(0)
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    func lookup(_ text: String, at time: Int64) -> Entry? {
        guard capacity > 0 else { return nil }
        let key = Array(text.utf8)
        let found = state.read { state -> Entry? in
            guard let entry = state.entries[key], entry.validity.contains(time) else { return nil }
            return entry
        }
        if found != nil { hits.add(1, ordering: .relaxed) }
        return found
    }

    /// Hits and entries so far (for tests and benchmarks).
    var statistics: (hits: Int, count: Int) {
        (hits.load(ordering: .relaxed), state.read { $0.entries.count })
    }

    /// Entries whose intermediate key verifies with its fixed-base table.
    var keysWithFixedBaseTable: Int {
        state.read { $0.entries.values.count(where: { $0.intermediateKey.hasFixedBaseTable }) }
    }

    func insert(_ entry: Entry, for text: String) {
        guard capacity > 0 else { return }
        let key = Array(text.utf8)
        state.write { state in
            if state.entries.updateValue(entry, forKey: key) == nil {
                state.order.append(key)
                if state.order.count > capacity {
                    state.entries[state.order.removeFirst()] = nil
                }
            }
        }
    }
}
