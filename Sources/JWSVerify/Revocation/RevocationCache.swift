/// Good OCSP answers, keyed by the DER of the OCSP `CertID` (issuer name hash, issuer key hash,
/// serial), so that a certificate checked a moment ago is not asked about again.
///
/// Only `good` is ever stored: a revoked, unknown or missing answer is asked again each time, and
/// a revoked answer removes a good entry. An entry lasts until the expiry given at insertion
/// (at most 15 minutes by default, never past the answer's `nextUpdate`); a lookup at or after it
/// misses and drops it. Bounded (when full, the entry inserted longest ago goes) and safe under
/// concurrent use: the ``BoundedCache`` under every cache. Times are seconds since 1970 from the
/// verifier's clock.
final class RevocationCache: Sendable {
    /// Expiries (seconds since 1970, exclusive) by the exact bytes of the certificate id.
    private let cache: BoundedCache<ExactBytesKey, Int64>
    /// The largest number of entries; 0 disables the cache.
    var capacity: Int { cache.capacity }

    init(capacity: Int) {
        cache = BoundedCache(capacity: capacity)
    }

    /// Whether `certificateID` has a good answer that is still valid at `time`.
    func isGood(_ certificateID: [UInt8], at time: Int64) -> Bool {
        guard capacity > 0 else { return false }
        let key = ExactBytesKey(certificateID)
        guard let expiry = cache.value(for: key) else {
            cache.countMiss()
            return false
        }
        guard time < expiry else {
            // Expired: dropped, unless another thread replaced it with a fresh answer meanwhile.
            cache.remove(key) { $0 <= time }
            cache.countMiss()
            return false
        }
        cache.countHit()
        return true
    }

    /// Remembers a good answer for `certificateID` until `expiry` (exclusive), as the newest entry.
    /// Ignored when the expiry is not after `time`.
    func insertGood(_ certificateID: [UInt8], until expiry: Int64, at time: Int64) {
        guard capacity > 0, expiry > time else { return }
        cache.insert(expiry, for: ExactBytesKey(certificateID), admission: .replace)
    }

    /// Forgets `certificateID` (after a revoked answer).
    func remove(_ certificateID: [UInt8]) {
        cache.remove(ExactBytesKey(certificateID))
    }

    /// Hits, misses and entries so far (for tests).
    var statistics: (hits: Int, misses: Int, count: Int) { cache.statistics }
}
