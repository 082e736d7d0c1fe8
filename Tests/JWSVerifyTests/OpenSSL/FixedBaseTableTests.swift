import Foundation
import JWSVerifyTesting
import Synchronization
import Testing

@testable import JWSVerify

/// The fixed-base table a hot ES256 key gets (`ec_key.c`) against OpenSSL's own verification: the
/// same verdict for every signature, whichever path decides it.
@Suite("ES256 fixed-base table")
struct FixedBaseTableTests {
    /// P-256's group order n, big-endian.
    static let order: [UInt8] = hexBytes("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")

    /// Input: signatures by a seeded key over seeded messages — valid ones, each with one bit flipped in
    /// R, S or the message, R or S replaced by 0, 1, n − 1, n, n + 1 or 2^256 − 1, R and S swapped,
    /// and signatures by another key. Expected: a key with its table and one without (OpenSSL's path)
    /// give the same verdict on every pair, and valid signatures are the only ones accepted.
    @Test("the table and OpenSSL's path agree on valid, mutated and out-of-range signatures")
    func agreesWithOpenSSL() throws {
        let signer = try TestPrivateKey.generate(curve: .p256, seed: 7, label: "fixed-base")
        let other = try TestPrivateKey.generate(curve: .p256, seed: 8, label: "fixed-base other")
        let plain = try #require(PublicKey(subjectPublicKeyInfo: Array(signer.publicKeyDER)))
        let tabled = try #require(PublicKey(subjectPublicKeyInfo: Array(signer.publicKeyDER)))
        #expect(tabled.prepareFixedBaseTable())
        #expect(!plain.hasFixedBaseTable && tabled.hasFixedBaseTable)

        var generator = SeededRandom(seed: 42)
        var checked = 0
        var accepted = 0
        let nPlusOne = Self.add(Self.order, 1)
        let specials: [[UInt8]] = [
            [UInt8](repeating: 0, count: 32), Self.add([UInt8](repeating: 0, count: 32), 1),
            Self.add(Self.order, -1), Self.order, nPlusOne, [UInt8](repeating: 0xFF, count: 32),
        ]
        for round in 0..<40 {
            let message = Data((0..<(round * 37 % 500 + 1)).map { _ in UInt8(generator.next(256)) })
            let signature = Array(try signer.signES256(message))
            var candidates: [(signature: [UInt8], message: Data, valid: Bool)] = [(signature, message, true)]
            for _ in 0..<6 {
                var flipped = signature
                let bit = generator.next(512)
                flipped[bit / 8] ^= 1 << (bit % 8)
                candidates.append((flipped, message, false))
            }
            var otherMessage = message
            otherMessage[generator.next(message.count)] ^= 0x01
            candidates.append((signature, otherMessage, false))
            for special in specials {
                candidates.append((special + signature[32...], message, false))
                candidates.append((Array(signature[..<32]) + special, message, false))
            }
            candidates.append((Array(signature[32...]) + signature[..<32], message, false))
            candidates.append((Array(try other.signES256(message)), message, false))
            candidates.append((signature + [0], message, false))
            candidates.append((Array(signature.dropLast()), message, false))
            for candidate in candidates {
                let byOpenSSL = plain.isValidES256Signature(candidate.signature, for: candidate.message)
                let byTable = tabled.isValidES256Signature(candidate.signature, for: candidate.message)
                #expect(byOpenSSL == byTable, "round \(round): the table and OpenSSL disagree")
                #expect(byTable == candidate.valid, "round \(round): expected \(candidate.valid)")
                checked += 1
                if byTable { accepted += 1 }
            }
        }
        #expect(checked == 40 * 24)
        #expect(!plain.hasFixedBaseTable, "the plain key stayed below the threshold")
        #expect(accepted == 40)
    }

    /// Input: one key given a tampered and a valid signature in turn, `PublicKey.fixedBaseThreshold`
    /// valid ones in all. Expected: no table until the last valid one (tampered signatures do not
    /// count), a table after it, and the same verdicts on both sides of it.
    @Test("a key gets its table after the threshold of valid signatures; invalid ones do not count")
    func tableAfterThreshold() throws {
        let (key, message, signature, tampered) = try Self.fixture(seed: 9, label: "threshold")
        for valid in 1...Int(PublicKey.fixedBaseThreshold) {
            #expect(!key.isValidES256Signature(tampered, for: message))
            #expect(!key.hasFixedBaseTable, "a table before the threshold, at valid signature \(valid)")
            #expect(key.isValidES256Signature(signature, for: message))
        }
        #expect(key.hasFixedBaseTable)
        #expect(key.isValidES256Signature(signature, for: message))
        #expect(!key.isValidES256Signature(tampered, for: message))
    }

    /// Input: a key given 3 × `PublicKey.fixedBaseThreshold` invalid signatures. Expected: no table.
    @Test("invalid signatures never make a table")
    func invalidSignaturesDoNotCount() throws {
        let (key, message, _, tampered) = try Self.fixture(seed: 12, label: "invalid only")
        for _ in 0..<(3 * Int(PublicKey.fixedBaseThreshold)) {
            #expect(!key.isValidES256Signature(tampered, for: message))
        }
        #expect(!key.hasFixedBaseTable)
    }

    /// Input: one key shared by 8 threads, 300 verifications each (valid and tampered in turn), so that
    /// the threshold is crossed while other threads verify. Expected: every verdict right, exactly one
    /// table at the end. Run under ThreadSanitizer by `.ci/run` (the table is published with C11
    /// atomics: built once, read by all).
    @Test("threads crossing the threshold together get right verdicts")
    func concurrentThreshold() throws {
        let (key, message, signature, tampered) = try Self.fixture(seed: 11, label: "concurrent")
        let wrong = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for use in 0..<300 {
                let valid = (use + thread) % 2 == 0
                if key.isValidES256Signature(valid ? signature : tampered, for: message) != valid {
                    wrong.add(1, ordering: .relaxed)
                }
            }
        }
        #expect(wrong.load(ordering: .relaxed) == 0)
        #expect(key.hasFixedBaseTable)
        #expect(key.isValidES256Signature(signature, for: message))
        #expect(!key.isValidES256Signature(tampered, for: message))
    }

    /// Input: a P-384 key (the kind that signs leaf certificates). Expected: it gets a table, and
    /// with the table ES256 still refuses a 64-byte signature cut from its own 96-byte signature over
    /// SHA-256 (ES256 is P-256 only), while its certificate-style DER signatures still verify.
    @Test("a P-384 key's table serves certificate signatures, never ES256")
    func p384Table() throws {
        let signer = try TestPrivateKey.generate(curve: .p384, seed: 10, label: "p384")
        let key = try #require(PublicKey(subjectPublicKeyInfo: Array(signer.publicKeyDER)))
        let message = Data("p384".utf8)
        let raw = Array(try signer.signRaw(message, digest: .sha256))
        #expect(raw.count == 96)
        let cut = Array(raw[16..<48] + raw[64..<96])
        #expect(!key.isValidES256Signature(cut, for: message))
        #expect(key.prepareFixedBaseTable())
        #expect(key.hasFixedBaseTable)
        #expect(!key.isValidES256Signature(cut, for: message))
        let der = Array(try signer.signDER(message, digest: .sha384))
        #expect(key.isValidECDSASignature(der, overDigest: SHA384.hash(message)))
        #expect(!key.isValidECDSASignature(der, overDigest: SHA384.hash(Data("p385".utf8))))
    }

    /// A P-256 key made from `seed` and `label`, a message, its valid signature, and that signature
    /// with one bit flipped.
    static func fixture(
        seed: UInt64, label: String
    ) throws -> (
        key: PublicKey, message: Data, signature: [UInt8], tampered: [UInt8]
    ) {
        let signer = try TestPrivateKey.generate(curve: .p256, seed: seed, label: label)
        let key = try #require(PublicKey(subjectPublicKeyInfo: Array(signer.publicKeyDER)))
        let message = Data(label.utf8)
        let signature = Array(try signer.signES256(message))
        var tampered = signature
        tampered[Int(seed) % 64] ^= 0x10
        return (key, message, signature, tampered)
    }

    /// `bytes` (big-endian, 32 bytes) plus `delta` (−1 or 1), modulo 2^256.
    static func add(_ bytes: [UInt8], _ delta: Int) -> [UInt8] {
        var result = bytes
        var index = result.count - 1
        if delta > 0 {
            while index >= 0 {
                result[index] &+= 1
                if result[index] != 0 { break }
                index -= 1
            }
        } else {
            while index >= 0 {
                result[index] &-= 1
                if result[index] != 0xFF { break }
                index -= 1
            }
        }
        return result
    }
}
