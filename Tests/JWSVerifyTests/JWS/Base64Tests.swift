import Testing

@testable import JWSVerify

@Suite("Strict base64 and base64url")
struct Base64Tests {
    /// Input: encodings of 0 to 40 bytes. Expected: decode(encode(x)) == x in both alphabets.
    @Test("round trip for every length up to 40")
    func roundTrip() {
        for length in 0...40 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            #expect(Base64.decodeURL(Base64.encodeURL(bytes)) == bytes, "length \(length)")
            #expect(Base64.decodeStandard(Base64.encodeStandard(bytes)) == bytes, "length \(length)")
        }
    }

    /// Input: inputs that lenient decoders accept. Expected: each rejected.
    @Test(
        "non-canonical and foreign spellings are rejected",
        arguments: [
            "Zm9v=", "Zm9vYg==", "Zm9v Yg", "Zm9v\nYg", "Zm+v", "Zm/v", "Zh", "Zm9vYh", "A", "Zm9vY", "Zm9v\u{e9}",
        ]
    )
    func rejectsURL(_ input: String) {
        #expect(Base64.decodeURL(input) == nil, "\(input)")
    }

    /// Input: standard base64 that is unpadded, over-padded, base64url or has non-zero unused bits.
    /// Expected: rejected.
    @Test(
        "standard base64 requires exact padding and canonical bits",
        arguments: ["Zm8", "Zm8==", "Zm9v====", "Zm-v", "Zm9=", "Zh==", "Z===", " Zm9v"])
    func rejectsStandard(_ input: String) {
        #expect(Base64.decodeStandard(input) == nil, "\(input)")
    }

    @Test("known answers")
    func knownAnswers() {
        #expect(Base64.decodeURL("_-8") == [0xFF, 0xEF])
        #expect(Base64.decodeStandard("/+8=") == [0xFF, 0xEF])
        #expect(Base64.encodeURL([0xFF, 0xEF]) == "_-8")
        #expect(Base64.encodeStandard([0xFF, 0xEF]) == "/+8=")
        #expect(Base64.decodeURL("") == [])
    }
}
