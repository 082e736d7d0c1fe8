import Synchronization

/// App receipts' signers that verified, keyed by every byte of the envelope but the content and the
/// signature (``ReceiptEnvelope/cacheKeyHead`` and the certificates field: the SignedData's version and digest
/// algorithms, the embedded certificates, the SignerInfo without its signature), so that a later receipt from the
/// same signer costs one RSA verification: no OpenSSL parse of its certificates, no chain building.
///
/// A memo of the full path, never a second opinion: an entry is inserted only after a receipt with
/// those bytes verified in full (checks 1 to 8), only for a strict-DER envelope without signed
/// attributes and a chain OpenSSL builds the same way at every time
/// (``ReceiptTrustAndValidityCheck/Trusted/isRememberable``), and it is used only inside the interval in
/// which every certificate of the chain is valid, and only to accept: a signature that does not verify
/// with the cached key goes to the full path, which decides and names the failure. Bounded: when full,
/// the oldest entry goes. Safe under concurrent use (a read-write lock; readers never wait for each
/// other).
final class ReceiptChainCache: Sendable {
    /// A signer whose receipt verified, with what checks 2 to 7 recorded.
    final class Entry: Sendable {
        let key: PublicKey
        let digest: CMSDigest
        let validity: ValidityInterval
        /// Signer, intermediate and the trusted root, described for display.
        let certificates: [CertificateInfo]
        /// Steps 2 (`algorithm`) to 9 (`leafKey`) as the full checks recorded them.
        let steps: [VerificationReport.Step]

        init(
            key: PublicKey, digest: CMSDigest, validity: ValidityInterval, certificates: [CertificateInfo],
            steps: [VerificationReport.Step]
        ) {
            self.key = key
            self.digest = digest
            self.validity = validity
            self.certificates = certificates
            self.steps = steps
        }
    }

    /// An entry with its key: ``ReceiptEnvelope/cacheKeyHead`` and the certificates field, kept apart so that a
    /// lookup compares the envelope's own bytes with them and builds only the short head.
    private struct Stored: Sendable {
        let head: [UInt8]
        let certificates: [UInt8]
        let entry: Entry

        func matches(_ head: [UInt8], _ envelope: ReceiptEnvelope) -> Bool {
            self.head == head && ByteScanning.equal(envelope.bytes[envelope.certificatesFieldRange], certificates)
        }
    }

    private struct State {
        var buckets: [UInt64: [Stored]] = [:]
        /// Insertion order, for eviction: each entry's bucket and the entry.
        var order: [(digest: UInt64, entry: Entry)] = []

        func find(_ head: [UInt8], _ envelope: ReceiptEnvelope, digest: UInt64) -> Entry? {
            buckets[digest]?.first { $0.matches(head, envelope) }?.entry
        }
    }

    private let state = ReadWriteLocked(State())
    private let hits = Atomic<Int>(0)
    private let misses = Atomic<Int>(0)
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// The bucket of an envelope: a hash of its certificates field (the entry compares every byte of the key).
    private static func digest(_ envelope: ReceiptEnvelope) -> UInt64 {
        ByteScanning.wordHash(envelope.bytes[envelope.certificatesFieldRange])
    }

    /// The entry for `envelope`'s signer, whatever the validation time.
    func entry(for envelope: ReceiptEnvelope) -> Entry? {
        guard capacity > 0, !envelope.hasSignedAttributes else { return nil }
        let head = envelope.cacheKeyHead
        let digest = Self.digest(envelope)
        return state.read { $0.find(head, envelope, digest: digest) }
    }

    /// Whether `entry` answers checks 2 to 8 for `envelope` at `time`: every certificate of its chain is
    /// valid then, and the envelope's signature verifies with the cached key over its content (what
    /// `CMS_verify` computes for a SignerInfo without signed attributes). Counts a hit when it answers,
    /// else a miss (the full path then decides).
    func answers(_ entry: Entry, for envelope: ReceiptEnvelope, at time: Int64) -> Bool {
        let answers =
            entry.validity.contains(time)
            && entry.key.isValidRSASignature(
                envelope.bytes[envelope.signatureRange], over: envelope.bytes[envelope.contentRange],
                digest: entry.digest)
        if answers {
            hits.add(1, ordering: .relaxed)
        } else {
            misses.add(1, ordering: .relaxed)
        }
        return answers
    }

    /// Remembers `entry` for `envelope`, a strict-DER envelope whose certificates were walked
    /// (``ReceiptEnvelope/certificatesAreValidated``) and that verified in full.
    func insert(_ entry: Entry, for envelope: ReceiptEnvelope) {
        guard capacity > 0, !envelope.hasSignedAttributes, envelope.certificatesAreValidated else { return }
        let head = envelope.cacheKeyHead
        let digest = Self.digest(envelope)
        let certificates = Array(envelope.bytes[envelope.certificatesFieldRange])
        state.write { state in
            guard state.find(head, envelope, digest: digest) == nil else { return }
            state.buckets[digest, default: []].append(Stored(head: head, certificates: certificates, entry: entry))
            state.order.append((digest, entry))
            if state.order.count > capacity {
                let evicted = state.order.removeFirst()
                if var bucket = state.buckets[evicted.digest] {
                    bucket.removeAll { $0.entry === evicted.entry }
                    state.buckets[evicted.digest] = bucket.isEmpty ? nil : bucket
                }
            }
        }
    }

    /// Hits (receipts the cache answered for), misses (receipts it held an entry for but did not answer:
    /// outside the entry's interval, or a signature that does not verify with the cached key) and entries
    /// so far (for tests and benchmarks).
    var statistics: (hits: Int, misses: Int, count: Int) {
        (hits.load(ordering: .relaxed), misses.load(ordering: .relaxed), state.read { $0.order.count })
    }
}

extension ReceiptEnvelope {
    /// Whether the SignerInfo has signed attributes (then the chain cache never answers).
    var hasSignedAttributes: Bool { signedAttributesRange != nil }

    /// Every part of the envelope but the content, the signature and the certificates field, each delimited (DER
    /// TLVs are self-delimiting; algorithm identifiers get their length): with the certificates field (compared
    /// apart, in place), the cache key. Two envelopes with equal keys differ only in their content and signature.
    /// The scan fixed the rest (both versions 1, the content types, no CRLs, no unsigned attributes).
    var cacheKeyHead: [UInt8] {
        var key: [UInt8] = []
        key.reserveCapacity(signerIssuerRange.count + signerSerialNumberRange.count + 96)
        func append(_ algorithm: Algorithm) {
            let count = UInt32(truncatingIfNeeded: algorithm.oid.count)
            key.append(UInt8(count >> 24))
            key.append(UInt8(truncatingIfNeeded: count >> 16))
            key.append(UInt8(truncatingIfNeeded: count >> 8))
            key.append(UInt8(truncatingIfNeeded: count))
            key += algorithm.oid
            key.append(algorithm.hasNullParameters ? 1 : 0)
        }
        key.append(UInt8(truncatingIfNeeded: digestAlgorithms.count))  // at most 8 (the scan's bound)
        for algorithm in digestAlgorithms { append(algorithm) }
        append(signerDigestAlgorithm)
        append(signatureAlgorithm)
        key += bytes[signerIssuerRange]
        key += bytes[signerSerialNumberRange]
        return key
    }
}
