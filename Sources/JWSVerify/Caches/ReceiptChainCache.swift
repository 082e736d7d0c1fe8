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
/// with the cached key goes to the full path, which decides and names the failure. Bounded (when full,
/// the oldest entry goes) and safe under concurrent use: the ``BoundedCache`` under every cache.
final class ReceiptChainCache: Sendable {
    /// A signer whose receipt verified, with what checks 2 to 7 recorded.
    final class Entry: Sendable {
        let key: PublicKey
        let digest: CMSDigest
        let validity: ValidityInterval
        /// The signer as the evidence of a verified receipt describes it (``CMSSigner``).
        let signer: CMSSigner
        /// Signer, intermediate and the trusted root, described for display.
        let certificates: [CertificateInfo]
        /// The steps from `algorithm` (check 2) to `signerKey` (check 7) as the full checks recorded them.
        let steps: [VerificationReport.Step]

        init(
            key: PublicKey, digest: CMSDigest, validity: ValidityInterval, signer: CMSSigner,
            certificates: [CertificateInfo], steps: [VerificationReport.Step]
        ) {
            self.key = key
            self.digest = digest
            self.validity = validity
            self.signer = signer
            self.certificates = certificates
            self.steps = steps
        }
    }

    /// An envelope's key: ``ReceiptEnvelope/cacheKeyHead`` and the certificates field, kept apart so that
    /// a look-up compares the envelope's own bytes with them in place and builds only the short head. Its
    /// bucket is a hash of the certificates field.
    struct Key: BoundedCacheKey {
        let head: [UInt8]
        let envelope: ReceiptEnvelope
        let digest: UInt64

        init(_ envelope: ReceiptEnvelope) {
            self.envelope = envelope
            head = envelope.cacheKeyHead
            digest = ByteScanning.wordHash(envelope.bytes[envelope.certificatesFieldRange])
        }

        /// The copy an entry keeps.
        struct Stored: Sendable {
            let head: [UInt8]
            let certificates: [UInt8]
        }

        func matches(_ stored: Stored) -> Bool {
            head == stored.head
                && ByteScanning.equal(envelope.bytes[envelope.certificatesFieldRange], stored.certificates)
        }

        func stored() -> Stored {
            Stored(head: head, certificates: Array(envelope.bytes[envelope.certificatesFieldRange]))
        }
    }

    private let cache: BoundedCache<Key, Entry>
    var capacity: Int { cache.capacity }

    init(capacity: Int) {
        cache = BoundedCache(capacity: capacity)
    }

    /// The entry for `envelope`'s signer, whatever the validation time.
    func entry(for envelope: ReceiptEnvelope) -> Entry? {
        guard capacity > 0, !envelope.hasSignedAttributes else { return nil }
        return cache.value(for: Key(envelope))
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
        if answers { cache.countHit() } else { cache.countMiss() }
        return answers
    }

    /// Remembers `entry` for `envelope`, a strict-DER envelope whose certificates were walked
    /// (``ReceiptEnvelope/certificatesAreValidated``) and that verified in full. The first entry of an
    /// envelope key stays.
    func insert(_ entry: Entry, for envelope: ReceiptEnvelope) {
        guard capacity > 0, !envelope.hasSignedAttributes, envelope.certificatesAreValidated else { return }
        cache.insert(entry, for: Key(envelope), admission: .keepExisting)
    }

    /// Hits (receipts the cache answered for), misses (receipts it held an entry for but did not answer:
    /// outside the entry's interval, or a signature that does not verify with the cached key) and entries
    /// so far (for tests and benchmarks).
    var statistics: (hits: Int, misses: Int, count: Int) { cache.statistics }
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
