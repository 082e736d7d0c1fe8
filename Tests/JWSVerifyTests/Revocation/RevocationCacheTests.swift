import Foundation
import Testing

@testable import JWSVerify

/// The cache of good OCSP answers (no network).
@Suite("Revocation cache")
struct RevocationCacheTests {
    private let now: Int64 = 1_800_000_000

    /// Input: an entry valid until now + 900. Expected: a hit before, a miss at and after the expiry
    /// (and the entry is dropped).
    @Test("entries expire")
    func entriesExpire() {
        let cache = RevocationCache(capacity: 4)
        cache.insertGood([1], until: now + 900, at: now)
        #expect(cache.isGood([1], at: now + 899))
        #expect(!cache.isGood([1], at: now + 900))
        #expect(cache.statistics.count == 0)
    }

    /// Input: 3 entries in a cache of 2. Expected: the oldest is evicted.
    @Test("the oldest entry is evicted when full")
    func boundedEvictsOldest() {
        let cache = RevocationCache(capacity: 2)
        cache.insertGood([1], until: now + 900, at: now)
        cache.insertGood([2], until: now + 900, at: now)
        cache.insertGood([3], until: now + 900, at: now)
        #expect(!cache.isGood([1], at: now))
        #expect(cache.isGood([2], at: now))
        #expect(cache.isGood([3], at: now))
        #expect(cache.statistics.count == 2)
    }

    /// Input: an entry removed (as after a revoked answer), an expiry already passed, capacity 0.
    /// Expected: none is found.
    @Test("removed, already expired and disabled entries are not found")
    func removedAndDisabled() {
        let cache = RevocationCache(capacity: 2)
        cache.insertGood([1], until: now + 900, at: now)
        cache.remove([1])
        #expect(!cache.isGood([1], at: now))
        cache.insertGood([2], until: now, at: now)
        #expect(!cache.isGood([2], at: now))
        let disabled = RevocationCache(capacity: 0)
        disabled.insertGood([3], until: now + 900, at: now)
        #expect(!disabled.isGood([3], at: now))
    }

    /// Input: 8 tasks inserting and looking up 500 keys each in a cache of 1024.
    /// Expected: no crash, never more than 1024 entries.
    @Test("concurrent use stays bounded")
    func concurrentUse() async {
        let cache = RevocationCache(capacity: 1024)
        let now = self.now
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for index in 0..<500 {
                        let key = [UInt8(task), UInt8(index % 256), UInt8(index / 256)]
                        cache.insertGood(key, until: now + 900, at: now)
                        _ = cache.isGood(key, at: now)
                    }
                }
            }
        }
        #expect(cache.statistics.count == 1024)
    }
}
