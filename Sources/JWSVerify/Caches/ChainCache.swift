import Foundation
import Synchronization

/// Chains that verified, keyed by the exact bytes of the header that carried them (its `x5c`), so
/// that a later token with the same header costs one ES256 verification: no header decoding, no
/// certificate parse, no P-384 verification.
///
/// A memo of the full path, never a second opinion: an entry is inserted only after the token that
/// brought its chain verified with that chain's leaf key (check 10), only for a chain the trust store
/// builds the same way at every time (``ValidatedChain/isRememberable``), and it is used only inside
/// the ``ValidityInterval`` in which every certificate of the chain is valid; at any other validation
/// time the full check runs and reports the expiry. Bounded: when full, the oldest entry goes. Safe under concurrent use: look-ups take a shared read lock, so
/// threads verifying tokens of known chains never wait for each other (a `Mutex` on Linux hands a
/// contended lock over through the kernel, which serialized the warm path of two threads).
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

    /// An entry with the header bytes it was stored under.
    private struct Stored: Sendable {
        let bytes: [UInt8]
        let entry: Entry
    }

    /// Entries by the hash of their header bytes; a bucket holds the (rare) entries whose hashes
    /// collide, told apart by comparing every byte.
    private struct State {
        var buckets: [UInt64: [Stored]] = [:]
        var count = 0
        /// Insertion order, oldest first: the hash and the bytes of each entry.
        var order: [(digest: UInt64, bytes: [UInt8])] = []

        func find(_ key: Key) -> Entry? {
            buckets[key.digest]?.first { key.matches($0.bytes) }?.entry
        }

        mutating func remove(digest: UInt64, bytes: [UInt8]) {
            guard var bucket = buckets[digest], let index = bucket.firstIndex(where: { $0.bytes == bytes }) else {
                return
            }
            bucket.remove(at: index)
            buckets[digest] = bucket.isEmpty ? nil : bucket
            count -= 1
        }
    }

    private let state = ReadWriteLocked(State())
    private let hits = Atomic<Int>(0)
    private let misses = Atomic<Int>(0)
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// The entry for a header's bytes, whatever the validation time.
    func entry(for key: Key) -> Entry? {
        guard capacity > 0 else { return nil }
        return state.read { $0.find(key) }
    }

    /// Whether the entry's chain may stand for a full check at `time` (seconds since 1970): every
    /// certificate is valid then. Counts a hit or a miss.
    func isUsable(_ entry: Entry, at time: Int64) -> Bool {
        let usable = entry.chain.validity.contains(time)
        if usable {
            hits.add(1, ordering: .relaxed)
        } else {
            misses.add(1, ordering: .relaxed)
        }
        return usable
    }

    func insert(_ entry: Entry, for key: Key) {
        guard capacity > 0 else { return }
        state.write { state in
            guard state.find(key) == nil else { return }
            let bytes = Array(key.segment)  // the one copy of the header: kept by the entry
            state.buckets[key.digest, default: []].append(Stored(bytes: bytes, entry: entry))
            state.count += 1
            state.order.append((key.digest, bytes))
            if state.order.count > capacity {
                let evicted = state.order.removeFirst()
                state.remove(digest: evicted.digest, bytes: evicted.bytes)
            }
        }
    }

    /// Hits, misses and entries so far (for tests and benchmarks).
    var statistics: (hits: Int, misses: Int, count: Int) {
        (hits.load(ordering: .relaxed), misses.load(ordering: .relaxed), state.read { $0.count })
    }

    /// Cached chains whose leaf key verifies with its own fixed-base table (`PublicKey`), for tests
    /// and benchmarks.
    var leafKeysWithFixedBaseTable: Int {
        state.read { state in
            state.buckets.values.reduce(0) { sum, bucket in
                sum + bucket.filter { $0.entry.chain.leafKey.hasFixedBaseTable }.count
            }
        }
    }
}

extension ChainCache {
    /// A header's exact bytes, borrowed from the token (never copied for a look-up), hashed once with
    /// a fast word-at-a-time hash (``ByteScanning/wordHash(_:)``).
    ///
    /// Hashing the 2–3 KiB of an App Store header with `Hasher` (SipHash) costs more than all the
    /// rest of the cache look-up. The cache is bounded and only holds chains that verified, so a
    /// weaker hash cannot be turned into a flood of colliding entries; equality compares every byte.
    struct Key: Sendable {
        let segment: ArraySlice<UInt8>
        let digest: UInt64

        init(_ segment: ArraySlice<UInt8>) {
            self.segment = segment
            digest = ByteScanning.wordHash(segment)
        }

        /// Whether `bytes` are exactly this key's bytes.
        func matches(_ bytes: [UInt8]) -> Bool { ByteScanning.equal(segment, bytes) }
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
