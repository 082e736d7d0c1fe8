import Synchronization

/// Intermediates that verified up to a configured root, keyed by their `x5c` text, so that a token
/// with a new leaf under a known intermediate costs one certificate signature check (leaf ←
/// intermediate) instead of two, and no second parse of the intermediate.
///
/// Each entry holds a trust store whose only anchor is that intermediate (OpenSSL's partial-chain
/// mode), the root it chained to, and the interval in which intermediate and root are both valid;
/// a lookup outside that interval misses. Bounded (oldest entry evicted), safe under concurrent use.
final class IntermediateCache: Sendable {
    struct Entry: Sendable {
        let intermediate: Certificate
        let root: Certificate
        let anchorStore: TrustStore
        let validFrom: Int64
        let validUntil: Int64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var order: [String] = []
        var hits = 0
    }

    private let state = Mutex(State())
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    func lookup(_ key: String, at time: Int64) -> Entry? {
        guard capacity > 0 else { return nil }
        return state.withLock { state in
            guard let entry = state.entries[key], entry.validFrom <= time, time <= entry.validUntil else { return nil }
            state.hits += 1
            return entry
        }
    }

    /// Hits and entries so far (for tests and benchmarks).
    var statistics: (hits: Int, count: Int) {
        state.withLock { ($0.hits, $0.entries.count) }
    }

    func insert(_ entry: Entry, for key: String) {
        guard capacity > 0 else { return }
        state.withLock { state in
            if state.entries.updateValue(entry, forKey: key) == nil {
                state.order.append(key)
                if state.order.count > capacity {
                    state.entries[state.order.removeFirst()] = nil
                }
            }
        }
    }
}
