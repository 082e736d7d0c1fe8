import Synchronization

/// Good OCSP answers, keyed by the DER of the OCSP `CertID` (issuer name hash, issuer key hash,
/// serial), so that a certificate checked a moment ago is not asked about again.
///
/// Only `good` is ever stored: a revoked, unknown or missing answer is asked again each time, and
/// a revoked answer removes a good entry. An entry lasts until the expiry given at insertion
/// (at most 15 minutes by default, never past the answer's `nextUpdate`); a lookup at or after it
/// misses and drops it. Bounded: when full, the entry inserted longest ago goes. Safe under
/// concurrent use: lookups share a read lock (`ReadWriteLocked`), so threads verifying tokens of
/// the same chain never wait for each other; inserting and dropping take it alone. Times are
/// seconds since 1970 from the verifier's clock.
final class RevocationCache: Sendable {
    private struct State {
        var expiries: [[UInt8]: Int64] = [:]
        /// Keys, oldest insertion first.
        var order: [[UInt8]] = []
    }

    private let state = ReadWriteLocked(State())
    private let hits = Atomic<Int>(0)
    private let misses = Atomic<Int>(0)
    /// The largest number of entries; 0 disables the cache.
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// Whether `certificateID` has a good answer that is still valid at `time`.
    func isGood(_ certificateID: [UInt8], at time: Int64) -> Bool {
        guard capacity > 0 else { return false }
        let expiry = state.read { $0.expiries[certificateID] }
        guard let expiry else {
            misses.add(1, ordering: .relaxed)
            return false
        }
        guard time < expiry else {
            // Expired: dropped, unless another thread replaced it with a fresh answer meanwhile.
            state.write { state in
                if let current = state.expiries[certificateID], current <= time {
                    Self.remove(certificateID, from: &state)
                }
            }
            misses.add(1, ordering: .relaxed)
            return false
        }
        hits.add(1, ordering: .relaxed)
        return true
    }

    /// Remembers a good answer for `certificateID` until `expiry` (exclusive). Ignored when the
    /// expiry is not after `time`.
    func insertGood(_ certificateID: [UInt8], until expiry: Int64, at time: Int64) {
        guard capacity > 0, expiry > time else { return }
        state.write { state in
            if state.expiries.updateValue(expiry, forKey: certificateID) != nil {
                state.order.removeAll { $0 == certificateID }
            }
            state.order.append(certificateID)
            while state.order.count > capacity {
                let evicted = state.order.removeFirst()
                state.expiries[evicted] = nil
            }
        }
    }

    /// Forgets `certificateID` (after a revoked answer).
    func remove(_ certificateID: [UInt8]) {
        state.write { Self.remove(certificateID, from: &$0) }
    }

    private static func remove(_ certificateID: [UInt8], from state: inout State) {
        if state.expiries.removeValue(forKey: certificateID) != nil {
            state.order.removeAll { $0 == certificateID }
        }
    }

    /// Hits, misses and entries so far (for tests).
    var statistics: (hits: Int, misses: Int, count: Int) {
        (hits.load(ordering: .relaxed), misses.load(ordering: .relaxed), state.read { $0.expiries.count })
    }
}
