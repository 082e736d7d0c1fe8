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

    /// Input: byte strings of every length from 0 to 70 over all byte values, encoded by the one encoder as
    /// standard base64 (as a string and appended after other bytes) and as base64url. Expected: RFC 4648's
    /// lengths and padding, the appended text equal to the string, each decoding back to the bytes, and the bytes
    /// before the appended text untouched.
    @Test("the one encoder round-trips every length, appended or as a string")
    func encoderRoundTrips() {
        for length in 0...70 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 97 &+ length &* 31) }
            let standard = Base64.encodeStandard(bytes)
            #expect(standard.utf8.count == (length + 2) / 3 * 4, "\(length)")
            #expect(Base64.decodeStandard(standard) == bytes, "\(length)")
            var appended = Array("prefix".utf8)
            Base64.appendStandard(bytes, to: &appended)
            #expect(appended == Array("prefix".utf8) + Array(standard.utf8), "\(length)")
            let url = Base64.encodeURL(bytes)
            #expect(url.utf8.count == (length * 4 + 2) / 3, "\(length)")
            #expect(Base64.decodeURL(url) == bytes, "\(length)")
        }
    }

    /// Input: the encodings of 0 to 14 bytes in both alphabets, each character in turn replaced by every byte value
    /// (the last whole quantum and the partial one included, which the decoder handles apart). Expected: the decoder
    /// answers as a plain reference decoder written from RFC 4648 does: the same bytes, or nil for a character
    /// outside the alphabet, misplaced padding or non-zero unused bits.
    @Test("every character of every quantum is checked, in both alphabets")
    func everyCharacterChecked() {
        for length in 0...14 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ 7) }
            for url in [false, true] {
                let text = Array((url ? Base64.encodeURL(bytes) : Base64.encodeStandard(bytes)).utf8)
                for position in text.indices {
                    var altered = text
                    for value in 0...255 {
                        altered[position] = UInt8(value)
                        let decoded = url ? Base64.decodeURL(altered[...]) : Base64.decodeStandard(altered)
                        let expected = Self.reference(altered, url: url)
                        guard decoded == expected else {
                            Issue.record("length \(length), url \(url), position \(position), byte \(value)")
                            return
                        }
                    }
                }
            }
        }
    }

    /// RFC 4648 decoding, character by character: standard base64 padded to a multiple of four with at most two
    /// `=`, base64url without padding; nil for anything else or for non-zero unused bits.
    static func reference(_ text: [UInt8], url: Bool) -> [UInt8]? {
        let alphabet = Array(
            ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789" + (url ? "-_" : "+/")).utf8)
        var body = text[...]
        if !url {
            guard text.count % 4 == 0 else { return nil }
            let padding = text.reversed().prefix { $0 == UInt8(ascii: "=") }.count
            guard padding <= 2 else { return nil }
            body = text.dropLast(padding)
            guard padding == (4 - body.count % 4) % 4 else { return nil }
        }
        guard body.count % 4 != 1 else { return nil }
        var bits: UInt32 = 0
        var bitCount = 0
        var output: [UInt8] = []
        for character in body {
            guard let value = alphabet.firstIndex(of: character) else { return nil }
            bits = bits << 6 | UInt32(value)
            bitCount += 6
            if bitCount >= 8 {
                bitCount -= 8
                output.append(UInt8(truncatingIfNeeded: bits >> UInt32(bitCount)))
                bits &= (1 << UInt32(bitCount)) - 1
            }
        }
        return bits == 0 ? output : nil
    }
}
