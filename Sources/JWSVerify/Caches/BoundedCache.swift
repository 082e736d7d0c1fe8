import Synchronization

/// The key of a ``BoundedCache``: each cache decides what identifies an entry (a header's bytes, an
/// intermediate's text, an OCSP certificate id, a receipt envelope's every byte but its content and
/// signature), how it is hashed into a bucket and how it is compared.
///
/// A look-up borrows the key (a slice of the token, the envelope itself): only an insertion copies it
/// (``stored()``).
protocol BoundedCacheKey: Sendable {
    /// What the cache keeps of a key.
    associatedtype Stored: Sendable
    /// The bucket of the key. Not a defence against chosen collisions: every cache is bounded, holds only
    /// what verified, and compares every byte on a match.
    var digest: UInt64 { get }
    /// Whether `stored` is exactly this key.
    func matches(_ stored: Stored) -> Bool
    /// The copy of the key that the cache keeps.
    func stored() -> Stored
}

/// The one cache mechanism under the library's caches (``ChainCache``, ``ReceiptChainCache``,
/// ``IntermediateCache``, ``RevocationCache``): bounded size, eviction of the oldest insertion, and a lock.
/// Each cache keeps its own key (``BoundedCacheKey``) and its own admission rule: what it inserts, when,
/// and when an entry may answer (a validity interval, an expiry). This type never decides a verdict.
///
/// Safe under concurrent use: look-ups share a read lock (``ReadWriteLocked``), so threads verifying
/// signed data of known chains never wait for each other (a `Mutex` on Linux hands a contended lock over
/// through the kernel, which serialized the warm path of two threads); insertion and removal take it
/// alone. A capacity of 0 disables the cache: nothing is stored and every look-up misses without locking.
final class BoundedCache<Key: BoundedCacheKey, Value: Sendable>: Sendable {
    /// What to do when an inserted key is already present.
    enum Admission {
        /// Keep the entry there is (the first verdict stands; the new value is dropped).
        case keepExisting
        /// Replace it, as the newest entry.
        case replace
    }

    private struct Entry: Sendable {
        let key: Key.Stored
        let value: Value
        /// Insertion number: tells apart entries of one bucket for eviction.
        let serial: UInt64
    }

    /// Entries by their key's digest; a bucket holds the (rare) entries whose digests collide, told apart
    /// by their keys.
    private struct State: Sendable {
        var buckets: [UInt64: [Entry]] = [:]
        /// Insertion order, oldest first.
        var order: [(digest: UInt64, serial: UInt64)] = []
        var nextSerial: UInt64 = 0

        func find(_ key: Key) -> Entry? {
            buckets[key.digest]?.first { key.matches($0.key) }
        }

        mutating func remove(digest: UInt64, serial: UInt64) {
            guard var bucket = buckets[digest], let index = bucket.firstIndex(where: { $0.serial == serial }) else {
                return
            }
            bucket.remove(at: index)
            buckets[digest] = bucket.isEmpty ? nil : bucket
        }
    }

    private let state = ReadWriteLocked(State())
    private let hits = Atomic<Int>(0)
    private let misses = Atomic<Int>(0)
    /// The largest number of entries; 0 disables the cache.
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// The value stored under `key`, or nil.
    func value(for key: Key) -> Value? {
        guard capacity > 0 else { return nil }
        return state.read { $0.find(key)?.value }
    }

    /// Stores `value` under `key`; when the cache is then over its capacity, the oldest entry goes.
    func insert(_ value: Value, for key: Key, admission: Admission) {
        guard capacity > 0 else { return }
        state.write { state in
            if let existing = state.find(key) {
                guard admission == .replace else { return }
                state.remove(digest: key.digest, serial: existing.serial)
                state.order.removeAll { $0.serial == existing.serial }
            }
            let serial = state.nextSerial
            state.nextSerial += 1
            state.buckets[key.digest, default: []].append(Entry(key: key.stored(), value: value, serial: serial))
            state.order.append((key.digest, serial))
            while state.order.count > capacity {
                let evicted = state.order.removeFirst()
                state.remove(digest: evicted.digest, serial: evicted.serial)
            }
        }
    }

    /// Removes the entry under `key` when `condition` holds for its value (checked under the lock, so that
    /// an entry another thread replaced meanwhile is judged by its new value).
    func remove(_ key: Key, if condition: (Value) -> Bool = { _ in true }) {
        guard capacity > 0 else { return }
        state.write { state in
            guard let existing = state.find(key), condition(existing.value) else { return }
            state.remove(digest: key.digest, serial: existing.serial)
            state.order.removeAll { $0.serial == existing.serial }
        }
    }

    /// Counts a look-up that answered (each cache decides what answering means).
    func countHit() { hits.add(1, ordering: .relaxed) }

    /// Counts a look-up that did not answer.
    func countMiss() { misses.add(1, ordering: .relaxed) }

    /// Hits, misses and entries so far (for tests and benchmarks).
    var statistics: (hits: Int, misses: Int, count: Int) {
        (hits.load(ordering: .relaxed), misses.load(ordering: .relaxed), state.read { $0.order.count })
    }

    /// How many entries' values satisfy `predicate` (for tests and benchmarks).
    func count(where predicate: (Value) -> Bool) -> Int {
        state.read { state in state.buckets.values.reduce(0) { $0 + $1.count { predicate($0.value) } } }
    }
}

/// A key that is exactly a run of bytes (a token's header, an intermediate's `x5c` text, an OCSP
/// certificate id), borrowed for a look-up and hashed once with a fast word-at-a-time hash
/// (``ByteScanning/wordHash(_:)``); an entry keeps a copy of the bytes and matches only those bytes, every
/// one compared.
///
/// Hashing the 2–3 KiB of an App Store header with `Hasher` (SipHash) costs more than all the rest of the
/// chain cache's look-up; and bytes, not `String`s: `String` equality is Unicode canonical equivalence (a
/// KELVIN SIGN U+212A equals "K"), so text that is not the cached text byte for byte must never match.
struct ExactBytesKey: BoundedCacheKey {
    let bytes: ArraySlice<UInt8>
    let digest: UInt64

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        digest = ByteScanning.wordHash(bytes)
    }

    init(_ bytes: [UInt8]) { self.init(bytes[...]) }

    /// The key of a text: its exact UTF-8 bytes.
    init(utf8 text: String) { self.init(Array(text.utf8)) }

    func matches(_ stored: [UInt8]) -> Bool { ByteScanning.equal(bytes, stored) }

    func stored() -> [UInt8] { Array(bytes) }
}
