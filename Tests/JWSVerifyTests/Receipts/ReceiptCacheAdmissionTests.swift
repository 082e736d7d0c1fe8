import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// What may enter the receipt chain cache: only an envelope whose embedded certificates were walked as
/// strict DER, not the lighter scan a look-up makes. Check 1 scans again with the walk on a miss, and
/// `ReceiptChainCache.insert` refuses an envelope without it (`certificatesAreValidated`); this test fails
/// when both are removed (tried).
@Suite("Receipt cache admission")
struct ReceiptCacheAdmissionTests {
    /// `certificate` with its signature BIT STRING's unused-bits octet set to 1 and that bit set: DER
    /// forbids it, OpenSSL reads it (and would write it back cleared).
    static func withUnusedSignatureBit(_ certificate: Data) throws -> Data {
        var bytes = [UInt8](certificate)
        let header: [UInt8] = [0x03, 0x82, 0x01, 0x01, 0x00]  // BIT STRING of a 2048-bit RSA signature
        let at = bytes.count - 256 - header.count
        try #require(at > 0 && Array(bytes[at..<(at + header.count)]) == header)
        bytes[at + header.count - 1] = 0x01
        bytes[bytes.count - 1] |= 0x01
        return Data(bytes)
    }

    @Test("a receipt that verifies but embeds a certificate that is not strict DER is not remembered")
    func nonDERCertificateIsNotRemembered() throws {
        let fixture = try ReceiptFixture.get()
        let odd = try TestCertificate(der: Self.withUnusedSignatureBit(fixture.developer.certificate.der))
        let pki = fixture.pki
        let receipt = try ReceiptSigner(hierarchy: pki).sign(
            content: ReceiptFixture.content(),
            options: .init(certificates: [pki.leaf, pki.intermediate, pki.root, odd]))
        #expect(ReceiptEnvelope.scan(receipt, validatingCertificates: false) != nil)
        #expect(ReceiptEnvelope.scan(receipt) == nil)
        let verifier = try ReceiptVerifiers.make()
        #expect(verifier.outcome(receipt).code == nil)
        #expect(verifier.outcome(receipt).code == nil)
        #expect(verifier.cacheStatistics.count == 0)
        #expect(verifier.cacheStatistics.hits == 0)
        // The same receipt without that certificate is remembered and answered from the cache.
        let plain = try ReceiptSigner(hierarchy: pki).sign(content: ReceiptFixture.content())
        #expect(verifier.outcome(plain).code == nil)
        #expect(verifier.outcome(plain).code == nil)
        #expect(verifier.cacheStatistics.count == 1)
        #expect(verifier.cacheStatistics.hits == 1)
    }
}
