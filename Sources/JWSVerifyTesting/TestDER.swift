import Foundation

/// A minimal DER writer (ITU-T X.690) for crafting certificate fields and extension values in tests.
///
/// Every function returns one complete TLV. Nothing is checked beyond what the encoding needs, so
/// that tests can write unusual (still well-formed) values on purpose.
public enum TestDER {
    /// A TLV with `tag` and `contents` (definite length, short or long form).
    public static func tlv(_ tag: UInt8, _ contents: Data) -> Data {
        var output = Data([tag])
        output.append(length(contents.count))
        output.append(contents)
        return output
    }

    /// The DER length octets of `count`.
    public static func length(_ count: Int) -> Data {
        if count < 0x80 { return Data([UInt8(count)]) }
        var bytes: [UInt8] = []
        var rest = count
        while rest > 0 {
            bytes.insert(UInt8(rest & 0xFF), at: 0)
            rest >>= 8
        }
        return Data([0x80 | UInt8(bytes.count)] + bytes)
    }

    /// SEQUENCE of the concatenated `elements`.
    public static func sequence(_ elements: [Data]) -> Data { tlv(0x30, elements.reduce(Data(), +)) }

    /// SET of the concatenated `elements`, in the order given (DER sorts SET OF; pass them sorted).
    public static func set(_ elements: [Data]) -> Data { tlv(0x31, elements.reduce(Data(), +)) }

    /// A context-specific tag `[number]` around `contents`: constructed (EXPLICIT, or IMPLICIT of a
    /// constructed type) or primitive (IMPLICIT of a primitive type).
    public static func context(_ number: UInt8, constructed: Bool, _ contents: Data) -> Data {
        tlv((constructed ? 0xA0 : 0x80) | (number & 0x1F), contents)
    }

    /// BOOLEAN (TRUE is FF).
    public static func boolean(_ value: Bool) -> Data { tlv(0x01, Data([value ? 0xFF : 0x00])) }

    /// INTEGER with the minimal two's complement encoding of `value`.
    public static func integer(_ value: Int64) -> Data {
        var bytes = withUnsafeBytes(of: value.bigEndian) { Array($0) }
        while bytes.count > 1
            && ((bytes[0] == 0x00 && bytes[1] & 0x80 == 0) || (bytes[0] == 0xFF && bytes[1] & 0x80 != 0))
        {
            bytes.removeFirst()
        }
        return tlv(0x02, Data(bytes))
    }

    /// INTEGER of a non-negative big-endian magnitude (a 00 is prefixed when the top bit is set;
    /// leading zero bytes are dropped).
    public static func unsignedInteger(_ magnitude: Data) -> Data {
        var bytes = Array(magnitude.drop { $0 == 0 })
        if bytes.isEmpty { bytes = [0] }
        if bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
        return tlv(0x02, Data(bytes))
    }

    /// NULL (05 00).
    public static let null = Data([0x05, 0x00])

    /// OCTET STRING.
    public static func octetString(_ contents: Data) -> Data { tlv(0x04, contents) }

    /// BIT STRING with `unusedBits` (0...7) unused bits in the last byte.
    public static func bitString(_ bytes: Data, unusedBits: UInt8 = 0) -> Data {
        tlv(0x03, Data([unusedBits]) + bytes)
    }

    /// UTF8String.
    public static func utf8String(_ text: String) -> Data { tlv(0x0C, Data(text.utf8)) }

    /// PrintableString (the characters are not checked).
    public static func printableString(_ text: String) -> Data { tlv(0x13, Data(text.utf8)) }

    /// IA5String (the characters are not checked).
    public static func ia5String(_ text: String) -> Data { tlv(0x16, Data(text.utf8)) }

    /// OBJECT IDENTIFIER from dotted text such as `2.5.29.19`. Fails unless there are at least two
    /// arcs, the first is 0, 1 or 2 and (below 2) the second is below 40.
    public static func objectIdentifier(_ dotted: String) throws -> Data {
        let parts = dotted.split(separator: ".", omittingEmptySubsequences: false)
        let arcs = parts.compactMap { UInt64($0) }
        guard arcs.count == parts.count, arcs.count >= 2, arcs[0] <= 2, arcs[0] == 2 || arcs[1] < 40,
            arcs[1] <= UInt64.max - 80
        else {
            throw JWSTestingError.invalidArgument("not a dotted OID: \(dotted)")
        }
        var contents = Data()
        for arc in [arcs[0] * 40 + arcs[1]] + arcs.dropFirst(2) {
            var groups: [UInt8] = [UInt8(arc & 0x7F)]
            var rest = arc >> 7
            while rest > 0 {
                groups.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
                rest >>= 7
            }
            contents.append(contentsOf: groups)
        }
        return tlv(0x06, contents)
    }
}

/// SHA-1 (FIPS 180-4), only for RFC 5280 key identifiers of test certificates.
enum TestSHA1 {
    static func hash(_ data: Data) -> Data {
        var h: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
        var message = [UInt8](data)
        let bitLength = UInt64(message.count) * 8
        message.append(0x80)
        while message.count % 64 != 56 { message.append(0) }
        message += withUnsafeBytes(of: bitLength.bigEndian) { Array($0) }
        var w = [UInt32](repeating: 0, count: 80)
        for chunk in stride(from: 0, to: message.count, by: 64) {
            for index in 0..<16 {
                let offset = chunk + index * 4
                w[index] =
                    UInt32(message[offset]) << 24 | UInt32(message[offset + 1]) << 16 | UInt32(message[offset + 2]) << 8
                    | UInt32(message[offset + 3])
            }
            for index in 16..<80 {
                let value = w[index - 3] ^ w[index - 8] ^ w[index - 14] ^ w[index - 16]
                w[index] = value << 1 | value >> 31
            }
            var (a, b, c, d, e) = (h[0], h[1], h[2], h[3], h[4])
            for index in 0..<80 {
                let (f, k): (UInt32, UInt32)
                switch index {
                case 0..<20: (f, k) = ((b & c) | (~b & d), 0x5A82_7999)
                case 20..<40: (f, k) = (b ^ c ^ d, 0x6ED9_EBA1)
                case 40..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                default: (f, k) = (b ^ c ^ d, 0xCA62_C1D6)
                }
                let temp = (a << 5 | a >> 27) &+ f &+ e &+ k &+ w[index]
                (e, d, c, b, a) = (d, c, b << 30 | b >> 2, a, temp)
            }
            h[0] = h[0] &+ a
            h[1] = h[1] &+ b
            h[2] = h[2] &+ c
            h[3] = h[3] &+ d
            h[4] = h[4] &+ e
        }
        return Data(h.flatMap { value in withUnsafeBytes(of: value.bigEndian) { Array($0) } })
    }
}
