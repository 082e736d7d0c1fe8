import Foundation
import Testing

@testable import JWSVerify

@Suite("RFC 7515 Appendix A.3 (ES256)")
struct RFC7515Tests {
    /// Input: the RFC's ES256 example, whose S is above n/2. Expected: it parses and verifies;
    /// ES256 does not demand low S.
    @Test("the A.3 example verifies although its S is high")
    func appendixA3Verifies() throws {
        let data = try TestVectorFiles.data("rfc/rfc7515-A3-es256.json")
        let vector = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let jwk = try #require(vector["jwk"] as? [String: String])
        let xText = try #require(jwk["x"])
        let yText = try #require(jwk["y"])
        let x = try #require(Base64.decodeURL(xText))
        let y = try #require(Base64.decodeURL(yText))
        let key = try #require(PublicKey(p256UncompressedPoint: [0x04] + x + y))
        let compact = try #require(vector["compact"] as? String)
        let jws = try CompactJWS(parsing: compact)
        #expect(jws.header.alg == "ES256")
        #expect(jws.signature.count == 64)
        // n/2 for P-256 starts with 0x7FFFFFFF80000000...; the example's S begins above it.
        #expect(jws.signature[32] > 0x7F)
        #expect(key.isValidES256Signature(jws.signature, for: jws.signingInput))
        var tampered = jws.signingInput
        tampered[tampered.count - 1] ^= 1
        #expect(!key.isValidES256Signature(jws.signature, for: tampered))
    }
}
