import Foundation

/// Strict base64 and base64url (RFC 4648 §4, §5), as JWS requires.
///
/// - base64url (RFC 7515 §2): only `A–Z a–z 0–9 - _`, no padding, no whitespace, a length that is
///   not 1 modulo 4, and the unused bits of the last character zero, so that every byte string has
///   exactly one encoding.
/// - base64 (RFC 7515 §4.1.6, for `x5c`): only `A–Z a–z 0–9 + /`, `=` padding to a multiple of
///   four, no whitespace, canonical unused bits.
///
/// A decoder that tolerated other spellings would let one token have many byte forms, which
/// breaks caching by bytes and hides tampering; both decoders here reject them.
package enum Base64 {
    private static let invalid: UInt8 = 0xFF

    private static func table(_ alphabet: String) -> [UInt8] {
        var table = [UInt8](repeating: invalid, count: 256)
        for (index, byte) in alphabet.utf8.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }

    private static let standardAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    private static let urlAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    private static let standardTable = table(standardAlphabet)
    private static let urlTable = table(urlAlphabet)

    /// Decodes strict base64url; nil when the input breaks any rule above.
    package static func decodeURL(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        decode(input, table: urlTable, padded: false)
    }

    /// Decodes strict base64url; nil when the input breaks any rule above.
    package static func decodeURL<S: StringProtocol>(_ input: S) -> [UInt8]? {
        var string = String(input)
        return string.withUTF8 { decodeURL($0) }
    }

    /// Decodes strict, padded standard base64; nil when the input breaks any rule above.
    package static func decodeStandard(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        decode(input, table: standardTable, padded: true)
    }

    /// Decodes strict, padded standard base64; nil when the input breaks any rule above.
    package static func decodeStandard<S: StringProtocol>(_ input: S) -> [UInt8]? {
        var string = String(input)
        return string.withUTF8 { decodeStandard($0) }
    }

    private static func decode(_ input: UnsafeBufferPointer<UInt8>, table: [UInt8], padded: Bool) -> [UInt8]? {
        var count = input.count
        if padded {
            guard count % 4 == 0 else { return nil }
            if count > 0 && input[count - 1] == UInt8(ascii: "=") { count -= 1 }
            if count > 0 && input[count - 1] == UInt8(ascii: "=") { count -= 1 }
            // Padding is only ever what completes the last quantum.
            guard input.count - count == (4 - count % 4) % 4 else { return nil }
        }
        if count % 4 == 1 { return nil }
        var output = [UInt8]()
        output.reserveCapacity(count * 3 / 4)
        return table.withUnsafeBufferPointer { table -> [UInt8]? in
            var accumulator: UInt32 = 0
            var bits = 0
            for index in 0..<count {
                let value = table[Int(input[index])]
                if value == invalid { return nil }
                accumulator = (accumulator << 6) | UInt32(value)
                bits += 6
                if bits >= 8 {
                    bits -= 8
                    output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                    accumulator &= (1 << UInt32(bits)) - 1
                }
            }
            // Canonical: the bits left over must be zero.
            guard accumulator == 0 else { return nil }
            return output
        }
    }

    /// Encodes as base64url without padding.
    package static func encodeURL<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        encode(bytes, alphabet: Array(urlAlphabet.utf8), padded: false)
    }

    /// Encodes as padded standard base64.
    package static func encodeStandard<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        encode(bytes, alphabet: Array(standardAlphabet.utf8), padded: true)
    }

    private static func encode<C: Collection>(_ bytes: C, alphabet: [UInt8], padded: Bool) -> String
    where C.Element == UInt8 {
        var output = [UInt8]()
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for byte in bytes {
            accumulator = (accumulator << 8) | UInt32(byte)
            bits += 8
            while bits >= 6 {
                bits -= 6
                output.append(alphabet[Int((accumulator >> UInt32(bits)) & 0x3F)])
            }
            accumulator &= (1 << UInt32(bits)) - 1
        }
        if bits > 0 {
            output.append(alphabet[Int((accumulator << UInt32(6 - bits)) & 0x3F)])
        }
        if padded {
            while output.count % 4 != 0 { output.append(UInt8(ascii: "=")) }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
