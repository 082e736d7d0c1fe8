import Foundation
import Testing

@testable import JWSVerify

/// ``BoundedCache``, the one mechanism under the chain, receipt chain, intermediate and OCSP caches:
/// bounded, oldest insertion evicted, first entry kept or replaced as the cache's admission rule says,
/// keys told apart by every byte even when their digests collide.
@Suite("Bounded cache under every cache")
struct BoundedCacheTests {
    /// A key whose digest is the same for every key: every entry lands in one bucket.
    struct CollidingKey: BoundedCacheKey {
        let bytes: [UInt8]
        var digest: UInt64 { 7 }
        func matches(_ stored: [UInt8]) -> Bool { stored == bytes }
        func stored() -> [UInt8] { bytes }
    }

    /// Input: three keys into a cache of two. Expected: the oldest is gone, the other two found, two entries.
    @Test("holds at most its capacity and evicts the oldest insertion")
    func evictsOldest() {
        let cache = BoundedCache<ExactBytesKey, Int>(capacity: 2)
        for value in 1...3 { cache.insert(value, for: ExactBytesKey([UInt8(value)]), admission: .keepExisting) }
        #expect(cache.value(for: ExactBytesKey([1])) == nil)
        #expect(cache.value(for: ExactBytesKey([2])) == 2)
        #expect(cache.value(for: ExactBytesKey([3])) == 3)
        #expect(cache.statistics.count == 2)
    }

    /// Input: the same key inserted twice under each admission rule. Expected: `keepExisting` keeps the first
    /// value and its place; `replace` takes the second and makes it the newest, so that it outlives a later one.
    @Test("keepExisting keeps the first verdict; replace renews the entry")
    func admission() {
        let kept = BoundedCache<ExactBytesKey, Int>(capacity: 2)
        kept.insert(1, for: ExactBytesKey([1]), admission: .keepExisting)
        kept.insert(2, for: ExactBytesKey([2]), admission: .keepExisting)
        kept.insert(9, for: ExactBytesKey([1]), admission: .keepExisting)
        kept.insert(3, for: ExactBytesKey([3]), admission: .keepExisting)
        #expect(kept.value(for: ExactBytesKey([1])) == nil)  // still the oldest: evicted
        #expect(kept.statistics.count == 2)

        let replaced = BoundedCache<ExactBytesKey, Int>(capacity: 2)
        replaced.insert(1, for: ExactBytesKey([1]), admission: .replace)
        replaced.insert(2, for: ExactBytesKey([2]), admission: .replace)
        replaced.insert(9, for: ExactBytesKey([1]), admission: .replace)
        replaced.insert(3, for: ExactBytesKey([3]), admission: .replace)
        #expect(replaced.value(for: ExactBytesKey([1])) == 9)
        #expect(replaced.value(for: ExactBytesKey([2])) == nil)
        #expect(replaced.statistics.count == 2)
    }

    /// Input: keys whose digests all collide. Expected: each finds its own value, eviction removes exactly the
    /// oldest, and a key that differs in one byte finds nothing.
    @Test("keys in one bucket are told apart by their bytes")
    func collisions() {
        let cache = BoundedCache<CollidingKey, String>(capacity: 2)
        cache.insert("a", for: CollidingKey(bytes: [1, 2]), admission: .keepExisting)
        cache.insert("b", for: CollidingKey(bytes: [1, 3]), admission: .keepExisting)
        #expect(cache.value(for: CollidingKey(bytes: [1, 2])) == "a")
        #expect(cache.value(for: CollidingKey(bytes: [1, 3])) == "b")
        #expect(cache.value(for: CollidingKey(bytes: [1, 4])) == nil)
        cache.insert("c", for: CollidingKey(bytes: [1, 4]), admission: .keepExisting)
        #expect(cache.value(for: CollidingKey(bytes: [1, 2])) == nil)
        #expect(cache.value(for: CollidingKey(bytes: [1, 3])) == "b")
        #expect(cache.value(for: CollidingKey(bytes: [1, 4])) == "c")
    }

    /// Input: a conditional removal whose condition fails, then one whose condition holds. Expected: the entry
    /// stays, then goes, and its place in the eviction order goes with it.
    @Test("removes an entry only when its value satisfies the condition")
    func conditionalRemoval() {
        let cache = BoundedCache<ExactBytesKey, Int64>(capacity: 2)
        cache.insert(100, for: ExactBytesKey([1]), admission: .replace)
        cache.remove(ExactBytesKey([1])) { $0 <= 50 }
        #expect(cache.value(for: ExactBytesKey([1])) == 100)
        cache.remove(ExactBytesKey([1])) { $0 <= 100 }
        #expect(cache.value(for: ExactBytesKey([1])) == nil)
        #expect(cache.statistics.count == 0)
        cache.insert(1, for: ExactBytesKey([2]), admission: .replace)
        cache.insert(2, for: ExactBytesKey([3]), admission: .replace)
        #expect(cache.value(for: ExactBytesKey([2])) == 1 && cache.value(for: ExactBytesKey([3])) == 2)
    }

    /// Input: a cache of capacity 0 (and a negative one). Expected: nothing stored, every look-up misses.
    @Test("capacity 0 stores nothing")
    func disabled() {
        for capacity in [0, -3] {
            let cache = BoundedCache<ExactBytesKey, Int>(capacity: capacity)
            cache.insert(1, for: ExactBytesKey([1]), admission: .replace)
            #expect(cache.value(for: ExactBytesKey([1])) == nil)
            #expect(cache.statistics.count == 0 && cache.capacity == 0)
        }
    }

    /// Input: the same text as two strings that are canonically equivalent but differ in bytes (KELVIN SIGN
    /// U+212A and "K"). Expected: the exact-bytes key of one never finds the other's entry.
    @Test("text keys compare bytes, not Unicode equivalence")
    func textKeysAreBytes() {
        let cache = BoundedCache<ExactBytesKey, Int>(capacity: 4)
        cache.insert(1, for: ExactBytesKey(utf8: "K"), admission: .replace)
        #expect("\u{212A}" == "K")
        #expect(cache.value(for: ExactBytesKey(utf8: "\u{212A}")) == nil)
        #expect(cache.value(for: ExactBytesKey(utf8: "K")) == 1)
    }

    /// Input: 4 threads inserting and reading 2,000 keys each into a cache of 64. Expected: never more than 64
    /// entries, and every value read is the one its key was inserted with.
    @Test("concurrent inserts and look-ups stay bounded and consistent")
    func concurrentUse() {
        let cache = BoundedCache<ExactBytesKey, Int>(capacity: 64)
        let wrong = ReadWriteLocked(0)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<2_000 {
                let value = thread * 10_000 + index
                let key = ExactBytesKey(Array(String(value).utf8))
                cache.insert(value, for: key, admission: index.isMultiple(of: 2) ? .replace : .keepExisting)
                if let found = cache.value(for: key), found != value { wrong.write { $0 += 1 } }
            }
        }
        #expect(cache.statistics.count <= 64)
        #expect(wrong.read { $0 } == 0)
    }
}
