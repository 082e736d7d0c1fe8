import CJWSOpenSSL
import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// The key, signature and certificate accessors of the C module (`keys.c`, `x509.c`, `ec_key.c`) called
/// directly with the inputs the Swift layer never passes: NULL, wrong lengths, no room, keys of
/// another type, and digests longer than the curve order.
@Suite("C module edges")
struct CJWSOpenSSLEdgeTests {
    /// An EVP_PKEY for a test key's SubjectPublicKeyInfo (the caller frees it).
    static func publicKey(_ key: TestPrivateKey) throws -> OpaquePointer {
        try #require(Array(key.publicKeyDER).withUnsafeBytes { cjws_pkey_from_spki($0.baseAddress, $0.count) })
    }

    /// Input: a P-256 key's SPKI, the same with one byte appended, a length over LONG_MAX, and an
    /// Ed25519 SPKI. Expected: the first parses as P-256; trailing bytes and the impossible length give
    /// NULL; the Ed25519 key parses but has no EC curve (0), as has NULL.
    @Test("SPKI parsing refuses trailing bytes and the curve of a non-EC key is 0")
    func spki() throws {
        let key = try TestPrivateKey.generate(curve: .p256, seed: 31, label: "spki")
        let der = Array(key.publicKeyDER)
        let parsed = try Self.publicKey(key)
        defer { cjws_pkey_free(parsed) }
        #expect(cjws_pkey_ec_curve_nid(parsed) == cjws_nid_p256())
        #expect((der + [0]).withUnsafeBytes { cjws_pkey_from_spki($0.baseAddress, $0.count) } == nil)
        #expect(der.withUnsafeBytes { cjws_pkey_from_spki($0.baseAddress, Int(bitPattern: UInt(Int.max) + 1)) } == nil)
        // SEQUENCE { SEQUENCE { OID 1.3.101.112 (Ed25519) }, BIT STRING (32 bytes) }
        let ed25519: [UInt8] =
            [0x30, 0x2A, 0x30, 0x05, 0x06, 0x03, 0x2B, 0x65, 0x70, 0x03, 0x21, 0x00] + (1...32).map { UInt8($0) }
        let edwards = try #require(ed25519.withUnsafeBytes { cjws_pkey_from_spki($0.baseAddress, $0.count) })
        defer { cjws_pkey_free(edwards) }
        #expect(cjws_pkey_ec_curve_nid(edwards) == 0)
        #expect(cjws_pkey_ec_curve_nid(nil) == 0)
    }

    /// Input: a P-256 key's uncompressed point (the last 65 bytes of its SPKI), and the same point
    /// one byte short and one byte long. Expected: the point gives a P-256 key that verifies the key's
    /// ES256 signature; the wrong lengths give NULL.
    @Test("a P-256 key from its point verifies; other point lengths are refused")
    func point() throws {
        let key = try TestPrivateKey.generate(curve: .p256, seed: 32, label: "point")
        let point = Array(key.publicKeyDER.suffix(65))
        #expect(point[0] == 0x04)
        let built = try #require(point.withUnsafeBytes { cjws_pkey_p256_from_point($0.baseAddress, $0.count) })
        defer { cjws_pkey_free(built) }
        #expect(cjws_pkey_ec_curve_nid(built) == cjws_nid_p256())
        let message = Array("point".utf8)
        let signature = Array(try key.signES256(Data(message)))
        #expect(cjws_es256_verify(built, message, message.count, signature, signature.count) == 1)
        for wrong in [Array(point.dropLast()), point + [0]] {
            #expect(wrong.withUnsafeBytes { cjws_pkey_p256_from_point($0.baseAddress, $0.count) } == nil)
        }
    }

    /// Input: a valid ES256 signature given with no key, and with one byte missing or added.
    /// Expected: 0 (not valid) for each, and 1 for the signature as made.
    @Test("ES256 without a key or with a signature that is not 64 bytes is invalid")
    func es256Lengths() throws {
        let key = try TestPrivateKey.generate(curve: .p256, seed: 33, label: "lengths")
        let pkey = try Self.publicKey(key)
        defer { cjws_pkey_free(pkey) }
        let message = Array("lengths".utf8)
        let signature = Array(try key.signES256(Data(message)))
        #expect(cjws_es256_verify(pkey, message, message.count, signature, signature.count) == 1)
        #expect(cjws_es256_verify(nil, message, message.count, signature, signature.count) == 0)
        #expect(cjws_es256_verify(pkey, message, message.count, signature, 63) == 0)
        let long = signature + [0]
        #expect(cjws_es256_verify(pkey, message, message.count, long, long.count) == 0)
    }

    /// Input: ES256 verifications on five threads that each exit afterwards (their per-thread
    /// verification contexts are freed at exit). Expected: each thread's valid signature verifies and
    /// its tampered one does not.
    @Test("verifications on threads that exit give the right verdicts")
    func threadsThatExit() throws {
        let key = try TestPrivateKey.generate(curve: .p256, seed: 34, label: "threads")
        let der = Array(key.publicKeyDER)
        let message = Array("threads".utf8)
        let signature = Array(try key.signES256(Data(message)))
        var changed = signature
        changed[10] ^= 0x01
        let tampered = changed
        let verdicts = ReadWriteLocked<[Int32]>([])
        let group = DispatchGroup()
        for _ in 0..<5 {
            group.enter()
            let thread = Thread {
                let pkey = der.withUnsafeBytes { cjws_pkey_from_spki($0.baseAddress, $0.count) }
                let good = cjws_es256_verify(pkey, message, message.count, signature, signature.count)
                let bad = cjws_es256_verify(pkey, message, message.count, tampered, tampered.count)
                cjws_pkey_free(pkey)
                verdicts.write { $0 += [good, bad] }
                group.leave()
            }
            thread.start()
        }
        #expect(group.wait(timeout: .now() + 10) == .success)
        #expect(verdicts.read { $0 }.sorted() == [0, 0, 0, 0, 0, 1, 1, 1, 1, 1])
    }

    /// Input: a P-256 key signing with SHA-384 (a 48-byte digest, longer than the 32-byte order), the
    /// digest verified through a verification key without and with its fixed-base table. Expected: the
    /// full digest and its leftmost 32 bytes verify on both paths; a change in the leftmost 32 bytes
    /// fails; a change after them does not matter (only the order's bit length of the digest is used,
    /// as SEC 1 and OpenSSL do).
    @Test("a digest longer than the order is cut to its leftmost bits on both paths")
    func longDigest() throws {
        let key = try TestPrivateKey.generate(curve: .p256, seed: 35, label: "long digest")
        let pkey = try Self.publicKey(key)
        defer { cjws_pkey_free(pkey) }
        let message = Data("a digest longer than the order".utf8)
        let signature = Array(try key.signDER(message, digest: .sha384))
        var digest = [UInt8](repeating: 0, count: 48)
        #expect(Array(message).withUnsafeBytes { cjws_sha384($0.baseAddress, $0.count, &digest) } == 1)
        let plain = try #require(cjws_ec_key_new(pkey, UInt64.max))
        let tabled = try #require(cjws_ec_key_new(pkey, UInt64.max))
        defer {
            cjws_ec_key_free(plain)
            cjws_ec_key_free(tabled)
        }
        #expect(cjws_ec_key_prepare(tabled) == 1)
        #expect(cjws_ec_key_has_table(tabled) == 1 && cjws_ec_key_has_table(plain) == 0)
        var early = digest
        early[31] ^= 0x01
        var late = digest
        late[40] ^= 0x01
        for key in [plain, tabled] {
            func verify(_ digest: [UInt8]) -> Int32 {
                cjws_ec_key_verify_digest(key, digest, digest.count, signature, signature.count)
            }
            #expect(verify(digest) == 1)
            #expect(verify(Array(digest.prefix(32))) == 1)
            #expect(verify(late) == 1)
            #expect(verify(early) == 0)
        }
        #expect(cjws_ec_key_has_table(plain) == 0, "the threshold was never reached")
    }

    /// Input: `cjws_ec_key_new` with no key (and freeing NULL), `cjws_ec_key_prepare` called twice, ES256 through a NULL
    /// verification key. Expected: NULL; 1 both times (the second finds the table built); 0.
    @Test("verification keys: no key, a second prepare, a NULL key")
    func verificationKeyEdges() throws {
        #expect(cjws_ec_key_new(nil, 0) == nil)
        cjws_ec_key_free(nil)  // a no-op, as free(NULL)
        let key = try TestPrivateKey.generate(curve: .p384, seed: 36, label: "prepare twice")
        let pkey = try Self.publicKey(key)
        defer { cjws_pkey_free(pkey) }
        let verification = try #require(cjws_ec_key_new(pkey, UInt64.max))
        defer { cjws_ec_key_free(verification) }
        #expect(cjws_ec_key_prepare(verification) == 1)
        #expect(cjws_ec_key_prepare(verification) == 1)
        #expect(cjws_ec_key_has_table(verification) == 1)
        let message = Array("null key".utf8)
        let signature = [UInt8](repeating: 1, count: 64)
        #expect(cjws_ec_key_verify_es256(nil, message, message.count, signature, signature.count) == 0)
    }

    /// Input: certificate parsing with no bytes and with a PEM length over INT_MAX; an extension
    /// lookup with an OID that is not dotted text; the name, serial and algorithm accessors with no room.
    /// Expected: NULL, NULL, -1, and -1 for each accessor (while with room they give Apple's values).
    @Test("certificate accessors refuse no bytes, bad OIDs and no room")
    func certificateEdges() throws {
        let der = Array(try TestVectorFiles.data("apple-library/certs/testCA.der"))
        #expect(der.withUnsafeBytes { cjws_x509_from_der($0.baseAddress, 0) } == nil)
        let pem = Array("-----BEGIN CERTIFICATE-----\n".utf8)
        #expect(pem.withUnsafeBytes { cjws_x509_from_pem($0.baseAddress, Int(Int32.max) + 1) } == nil)
        let certificate = try #require(der.withUnsafeBytes { cjws_x509_from_der($0.baseAddress, $0.count) })
        defer { cjws_x509_free(certificate) }
        #expect(cjws_x509_has_extension(certificate, "not an oid") == -1)
        #expect(cjws_x509_has_extension(certificate, "2.5.29.19") == 1)
        var buffer = [CChar](repeating: 0, count: 128)
        let nid = cjws_nid_common_name()
        #expect(
            buffer.withUnsafeMutableBufferPointer { cjws_x509_name_entry(certificate, 0, nid, $0.baseAddress, 0) } == -1
        )
        #expect(buffer.withUnsafeMutableBufferPointer { cjws_x509_serial_hex(certificate, $0.baseAddress, 0) } == -1)
        #expect(
            buffer.withUnsafeMutableBufferPointer { cjws_x509_signature_algorithm(certificate, $0.baseAddress, 0) }
                == -1)
        #expect(
            buffer.withUnsafeMutableBufferPointer {
                cjws_x509_signature_algorithm(certificate, $0.baseAddress, $0.count)
            } > 0)
        #expect(cText(buffer) == "ecdsa-with-SHA384")
    }

    /// Input: OpenSSL's error queue holding a failed parse's errors, drained with no room, with room
    /// for less than one line, and with room. Expected: 0 bytes for the first two (each also empties the
    /// queue: a drain right after gives 0), and the text of the errors for the last.
    @Test("the error text drains the queue and drops what does not fit")
    func errorText() {
        func fail() {
            let garbage: [UInt8] = [0x30, 0x03, 0x02, 0x01]
            #expect(garbage.withUnsafeBytes { cjws_x509_from_der($0.baseAddress, $0.count) } == nil)
        }
        var buffer = [CChar](repeating: 0x41, count: 1024)
        fail()
        #expect(buffer.withUnsafeMutableBufferPointer { cjws_error_text($0.baseAddress, 0) } == 0)
        #expect(buffer.withUnsafeMutableBufferPointer { cjws_error_text($0.baseAddress, $0.count) } == 0)
        fail()
        #expect(buffer.withUnsafeMutableBufferPointer { cjws_error_text($0.baseAddress, 8) } == 0)
        #expect(buffer[0] == 0)
        #expect(buffer.withUnsafeMutableBufferPointer { cjws_error_text($0.baseAddress, $0.count) } == 0)
        fail()
        let length = buffer.withUnsafeMutableBufferPointer { cjws_error_text($0.baseAddress, $0.count) }
        #expect(length > 0 && cText(buffer).utf8.count == length)
        #expect(cText(buffer).contains("error:"))
    }
}

/// The NUL-terminated text at the start of a C buffer.
func cText(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
