import Synchronization

/// Chains that verified, keyed by their `x5c` text, so that a later token with the same chain costs
/// one ES256 verification instead of two P-384 verifications and three certificate parses.
///
/// An entry records the interval in which every certificate of the chain is valid; a lookup at a
/// validation time outside it misses, and the full check then reports the expiry. Bounded: when
/// full, the oldest entry goes. Safe under concurrent use (one short critical section per lookup).
final class ChainCache: Sendable {
    private struct State {
        var entries: [String: ValidatedChain] = [:]
        var order: [String] = []
        var hits = 0
        var misses = 0
    }

    private let state = Mutex(State())
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// The cached chain for `key` when it is valid at `time` (seconds since 1970).
    func lookup(_ key: String, at time: Int64) -> ValidatedChain? {
        guard capacity > 0 else { return nil }
        return state.withLock { state in
            guard let chain = state.entries[key], chain.validFrom <= time, time <= chain.validUntil else {
                state.misses += 1
                return nil
            }
            state.hits += 1
            return chain
        }
    }

    func insert(_ chain: ValidatedChain, for key: String) {
        guard capacity > 0 else { return }
        state.withLock { state in
            if state.entries.updateValue(chain, forKey: key) == nil {
                state.order.append(key)
                if state.order.count > capacity {
                    let evicted = state.order.removeFirst()
                    state.entries[evicted] = nil
                }
            }
        }
    }

    /// Hits, misses and entries so far (for tests and benchmarks).
    var statistics: (hits: Int, misses: Int, count: Int) {
        state.withLock { ($0.hits, $0.misses, $0.entries.count) }
    }
}

/// A chain that passed checks 5 to 9 of the contract.
struct ValidatedChain: Sendable {
    let leafKey: PublicKey
    /// Every certificate of the chain is valid in [validFrom, validUntil] (seconds since 1970).
    let validFrom: Int64
    let validUntil: Int64
    /// Leaf, intermediate and the trusted root that matched, described for display.
    let certificates: [CertificateInfo]
    /// Leaf, intermediate and the trusted root that matched (for OCSP); empty for an Xcode certificate.
    let chain: [Certificate]
}
