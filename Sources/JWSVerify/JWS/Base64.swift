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
///
/// Unsafe pointers: this is one of the few files outside `OpenSSL/` that holds them (see
/// Docs/Security.md, "Unsafe code"). The decoder reads four input bytes and three table entries per
/// quantum; through buffer pointers that loop runs without a bounds check per byte, at several times
/// the speed of indexed arrays, and every index is bounded by the counts computed before the loop.
/// Callers pass arrays, slices or strings; no pointer leaves this file.
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

    /// The offset of the first byte of `input` that is not in the base64url alphabet, if any.
    package static func firstNonURLCharacter(_ input: ArraySlice<UInt8>) -> Int? {
        input.withUnsafeBufferPointer { input in
            urlTable.withUnsafeBufferPointer { table in input.firstIndex { table[Int($0)] & 0xC0 != 0 } }
        }
    }

    /// Decodes strict base64url; nil when the input breaks any rule above.
    package static func decodeURL(_ input: ArraySlice<UInt8>) -> [UInt8]? {
        input.withUnsafeBufferPointer { decode($0, table: urlTable, padded: false) }
    }

    /// Decodes strict base64url; nil when the input breaks any rule above.
    package static func decodeURL<S: StringProtocol>(_ input: S) -> [UInt8]? {
        var string = String(input)
        return string.withUTF8 { decode($0, table: urlTable, padded: false) }
    }

    /// Decodes strict, padded standard base64; nil when the input breaks any rule above.
    package static func decodeStandard(_ input: [UInt8]) -> [UInt8]? {
        input.withUnsafeBufferPointer { decode($0, table: standardTable, padded: true) }
    }

    /// Decodes strict, padded standard base64; nil when the input breaks any rule above.
    package static func decodeStandard(_ input: ArraySlice<UInt8>) -> [UInt8]? {
        input.withUnsafeBufferPointer { decode($0, table: standardTable, padded: true) }
    }

    /// Decodes strict, padded standard base64; nil when the input breaks any rule above.
    package static func decodeStandard<S: StringProtocol>(_ input: S) -> [UInt8]? {
        var string = String(input)
        return string.withUTF8 { decode($0, table: standardTable, padded: true) }
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
        let remainder = count % 4
        if remainder == 1 { return nil }
        let fullBlocks = count / 4
        let outputCount = fullBlocks * 3 + (remainder == 0 ? 0 : remainder - 1)
        guard let source = input.baseAddress, count > 0 else { return [] }
        return table.withUnsafeBufferPointer { table -> [UInt8]? in
            let table = table.baseAddress.unsafelyUnwrapped  // a 256-entry table is never empty
            var valid = true
            let output = [UInt8](unsafeUninitializedCapacity: outputCount) { buffer, initialized in
                guard let target = buffer.baseAddress else { return }
                // Whole quanta: four characters to three bytes. An invalid character maps to 0xFF,
                // which sets bit 6 or 7 of the OR of the four values.
                var inOffset = 0
                var outOffset = 0
                for _ in 0..<fullBlocks {
                    let a = table[Int(source[inOffset])]
                    let b = table[Int(source[inOffset + 1])]
                    let c = table[Int(source[inOffset + 2])]
                    let d = table[Int(source[inOffset + 3])]
                    if (a | b | c | d) & 0xC0 != 0 {
                        valid = false
                        return
                    }
                    target[outOffset] = a << 2 | b >> 4
                    target[outOffset + 1] = b << 4 | c >> 2
                    target[outOffset + 2] = c << 6 | d
                    inOffset += 4
                    outOffset += 3
                }
                // The last, partial quantum: its unused bits must be zero (canonical encoding).
                if remainder >= 2 {
                    let a = table[Int(source[inOffset])]
                    let b = table[Int(source[inOffset + 1])]
                    var c: UInt8 = 0
                    if remainder == 3 { c = table[Int(source[inOffset + 2])] }
                    if (a | b | c) & 0xC0 != 0 {
                        valid = false
                        return
                    }
                    target[outOffset] = a << 2 | b >> 4
                    if remainder == 2 {
                        if b & 0x0F != 0 { valid = false }
                    } else {
                        target[outOffset + 1] = b << 4 | c >> 2
                        if c & 0x03 != 0 { valid = false }
                    }
                }
                initialized = valid ? outputCount : 0
            }
            return valid ? output : nil
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
