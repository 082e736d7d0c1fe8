import Foundation
import JWSVerifyTesting
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The Xcode StoreKit Testing credential files that `jwsverify mint pki --receipt` writes, and the device hash
/// that `mint receipt --device-guid` writes.
@Suite("Receipt test PKI: Xcode credential files and the device hash")
struct ReceiptXcodeCredentialFilesTests {
    static func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("receipt-xcode-\(UUID().uuidString)")
    }

    /// Input: a new StoreKit Testing credential written to a new directory. Expected: the three files, the key
    /// with mode 0600, and the credential read back equal, its key matching its certificate.
    @Test("a StoreKit Testing credential is written and read back, its key mode 0600")
    func roundTrip() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let credential = try TestHierarchy.makeXcodeStoreKitCertificate()
        try TestHierarchy.writeXcodeStoreKitCredential(credential, to: directory)
        let loaded = try TestHierarchy.loadXcodeStoreKitCredential(from: directory)
        #expect(loaded == credential)
        #expect(loaded.keyMatchesCertificate)
        let pem = try String(
            contentsOf: directory.appendingPathComponent(TestHierarchy.XcodeFileName.certificatePEM), encoding: .utf8)
        #expect(try TestCertificate(pem: pem) == credential.certificate)
        var status = stat()
        #expect(stat(directory.appendingPathComponent(TestHierarchy.XcodeFileName.key).path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
    }

    /// Input: the directory's key replaced by another credential's. Expected: `keyMismatch` on loading.
    @Test("a key that is not the certificate's is refused")
    func mismatchedKey() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let credential = try TestHierarchy.makeXcodeStoreKitCertificate()
        let other = try TestHierarchy.makeXcodeStoreKitCertificate()
        try TestHierarchy.writeXcodeStoreKitCredential(credential, to: directory)
        try other.privateKey.pkcs8PEM().write(
            to: directory.appendingPathComponent(TestHierarchy.XcodeFileName.key), atomically: true, encoding: .utf8)
        #expect {
            try TestHierarchy.loadXcodeStoreKitCredential(from: directory)
        } throws: { error in
            guard case JWSTestingError.keyMismatch? = error as? JWSTestingError else { return false }
            return true
        }
    }

    /// Input: identifier "a", opaque value "b", bundle id value "c" (the bytes). Expected: SHA-1 of "abc", the
    /// FIPS 180 example A9993E36 4706816A BA3E2571 7850C26C 9CD0D89D.
    @Test("the device hash is SHA-1 of identifier, opaque value and bundle id value, in that order")
    func deviceHash() {
        let hash = ReceiptContentEncoder.deviceHash(
            deviceIdentifier: Array("a".utf8), opaqueValue: Array("b".utf8), bundleIdValue: Array("c".utf8))
        #expect(hash.map { String(format: "%02X", $0) }.joined() == "A9993E364706816ABA3E25717850C26C9CD0D89D")
        let swapped = ReceiptContentEncoder.deviceHash(
            deviceIdentifier: Array("b".utf8), opaqueValue: Array("a".utf8), bundleIdValue: Array("c".utf8))
        #expect(swapped != hash)
    }
}
