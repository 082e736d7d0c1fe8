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
/// Docs/Security.md, "Unsafe code"). The decoder reads four input bytes and four table entries per
/// quantum and stores their OR as one word (three bytes of output and one that the next quantum
/// overwrites). The one encoder reads three input bytes and four alphabet entries per group and appends
/// the four characters to a ``JSONWriter/Chunk`` as one word. Through buffer pointers these loops run
/// without a bounds check per byte, at several times the speed of indexed arrays, and every index is
/// bounded by the counts computed before the loop. Callers pass arrays, slices or strings; no pointer
/// leaves this file.
package enum Base64 {
    private static let invalid: UInt8 = 0xFF

    private static func table(_ alphabet: StaticString) -> [UInt8] {
        var table = [UInt8](repeating: invalid, count: 256)
        alphabet.withUTF8Buffer { for (index, byte) in $0.enumerated() { table[Int(byte)] = UInt8(index) } }
        return table
    }

    /// The alphabets: literals, which the encoder reads in place without a lazy initialization or a reference count
    /// per call (the payload JSON of a receipt encodes a few dozen short values).
    private static var standardAlphabet: StaticString {
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    }
    private static var urlAlphabet: StaticString { "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_" }
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
        input.withUnsafeBufferPointer { decode($0, table: urlTable, quanta: urlQuanta, padded: false) }
    }

    /// Decodes strict base64url; nil when the input breaks any rule above.
    package static func decodeURL<S: StringProtocol>(_ input: S) -> [UInt8]? {
        var string = String(input)
        return string.withUTF8 { decode($0, table: urlTable, quanta: urlQuanta, padded: false) }
    }

    /// Decodes strict, padded standard base64; nil when the input breaks any rule above.
    package static func decodeStandard(_ input: [UInt8]) -> [UInt8]? {
        input.withUnsafeBufferPointer { decode($0, table: standardTable, quanta: standardQuanta, padded: true) }
    }

    /// Decodes strict, padded standard base64; nil when the input breaks any rule above.
    package static func decodeStandard(_ input: ArraySlice<UInt8>) -> [UInt8]? {
        input.withUnsafeBufferPointer { decode($0, table: standardTable, quanta: standardQuanta, padded: true) }
    }

    /// Decodes strict, padded standard base64; nil when the input breaks any rule above.
    package static func decodeStandard<S: StringProtocol>(_ input: S) -> [UInt8]? {
        var string = String(input)
        return string.withUTF8 { decode($0, table: standardTable, quanta: standardQuanta, padded: true) }
    }

    /// A quantum's four characters as the three bytes they stand for, one table per position: entry `c` of table
    /// `k` is character `c`'s six bits placed where position `k` puts them in the little-endian word whose low three
    /// bytes are the quantum's output; a character outside the alphabet is 0xFF00_0000 in every table (bits that no
    /// valid entry sets). The OR of a quantum's four entries is then its output, or has a bit of the top byte set.
    private struct QuantumTables: Sendable {
        /// The four tables, one after the other (entry `c` of table `k` at `k * 256 + c`).
        let entries: [UInt32]

        init(_ table: [UInt8]) {
            var entries = [UInt32](repeating: 0xFF00_0000, count: 4 * 256)
            for character in 0..<256 where table[character] != Base64.invalid {
                let value = UInt32(table[character])
                entries[character] = value << 2
                entries[256 + character] = value >> 4 | (value & 0x0F) << 12
                entries[512 + character] = (value >> 2) << 8 | (value & 0x03) << 22
                entries[768 + character] = value << 16
            }
            self.entries = entries
        }
    }

    private static let standardQuanta = QuantumTables(standardTable)
    private static let urlQuanta = QuantumTables(urlTable)

    private static func decode(
        _ input: UnsafeBufferPointer<UInt8>, table: [UInt8], quanta: QuantumTables, padded: Bool
    ) -> [UInt8]? {
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
        return quanta.entries.withUnsafeBufferPointer { quanta -> [UInt8]? in
            let quanta = quanta.baseAddress.unsafelyUnwrapped  // 1,024 entries, never empty
            var valid = true
            let output = [UInt8](unsafeUninitializedCapacity: outputCount) { buffer, initialized in
                guard let target = UnsafeMutableRawPointer(buffer.baseAddress) else { return }
                // Whole quanta: four characters, four table entries ORed, three bytes. Every quantum but the last
                // whole one stores its word's four bytes at once (its fourth byte is overwritten by the next
                // quantum); the last stores three, so that nothing is written past `outputCount`.
                // Offsets stay below `count` and `outputCount` (fullBlocks quanta of four and of three), so
                // their sums cannot overflow: wrapping arithmetic drops the checks from the hot loop.
                var inOffset = 0
                var outOffset = 0
                var invalid: UInt32 = 0
                @inline(__always) func word(at offset: Int) -> UInt32 {
                    quanta[Int(source[offset])] | quanta[256 &+ Int(source[offset &+ 1])]
                        | quanta[512 &+ Int(source[offset &+ 2])] | quanta[768 &+ Int(source[offset &+ 3])]
                }
                if fullBlocks > 0 {
                    for _ in 0..<(fullBlocks &- 1) {
                        let value = word(at: inOffset)
                        invalid |= value
                        target.storeBytes(of: value.littleEndian, toByteOffset: outOffset, as: UInt32.self)
                        inOffset &+= 4
                        outOffset &+= 3
                    }
                    let value = word(at: inOffset)
                    invalid |= value
                    target.storeBytes(of: UInt8(truncatingIfNeeded: value), toByteOffset: outOffset, as: UInt8.self)
                    target.storeBytes(
                        of: UInt8(truncatingIfNeeded: value >> 8), toByteOffset: outOffset &+ 1, as: UInt8.self)
                    target.storeBytes(
                        of: UInt8(truncatingIfNeeded: value >> 16), toByteOffset: outOffset &+ 2, as: UInt8.self)
                    inOffset &+= 4
                    outOffset &+= 3
                }
                // An invalid character anywhere sets a bit of the OR's top byte (checked once: the bytes written
                // meanwhile are discarded with the array).
                if invalid & 0xFF00_0000 != 0 {
                    valid = false
                    return
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
                    let bytes = buffer.baseAddress.unsafelyUnwrapped
                    bytes[outOffset] = a << 2 | b >> 4
                    if remainder == 2 {
                        if b & 0x0F != 0 { valid = false }
                    } else {
                        bytes[outOffset + 1] = b << 4 | c >> 2
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
        var output: [UInt8] = []
        append(Array(bytes), alphabet: urlAlphabet, padded: false, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Encodes as padded standard base64.
    package static func encodeStandard<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        var output: [UInt8] = []
        append(Array(bytes), alphabet: standardAlphabet, padded: true, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends padded standard base64 of `bytes` to `out`: the text of ``encodeStandard(_:)``, without an
    /// intermediate string (the payload JSON of receipts).
    package static func appendStandard(_ bytes: [UInt8], to out: inout [UInt8]) {
        append(bytes, alphabet: standardAlphabet, padded: true, to: &out)
    }

    /// Appends padded standard base64 of `bytes` to `text` when all of it fits with 4 bytes to spare (the encoder
    /// stores a word per group of four characters); false, with `text` unchanged, when it does not.
    package static func appendStandard(_ bytes: [UInt8], to text: inout JSONWriter.Chunk) -> Bool {
        guard encodedLength(bytes.count, padded: true) + 4 <= text.room else { return false }
        bytes.withUnsafeBufferPointer { input in
            standardAlphabet.withUTF8Buffer { table in
                encode(input, alphabet: table, padded: true, into: &text)
            }
        }
        return true
    }

    /// Appends padded standard base64 of the first `count` (at most 8) bytes of `word`, low byte first, to `text`,
    /// which has room for 16 more bytes (12 characters and the word a group's store writes); nothing when it has not.
    package static func appendStandard(packed word: UInt64, count: Int, to text: inout JSONWriter.Chunk) {
        assert(text.room >= 16, "the caller makes room for the text first")
        guard count >= 0, count <= 8, text.room >= 16 else { return }
        standardAlphabet.withUTF8Buffer { table in
            guard table.count == 64, let alphabet = table.baseAddress else { return }
            var rest = word
            var left = count
            while left > 0 {
                // The next three bytes (zero past `count`), the first in bits 16 to 23 of the group.
                let group = UInt32(
                    truncatingIfNeeded: (rest & 0xFF) << 16 | (rest >> 8 & 0xFF) << 8 | (rest >> 16 & 0xFF))
                let characters = characters(ofGroup: group, count: min(left, 3), alphabet: alphabet, padded: true)
                text.append(littleEndian: characters.word, length: characters.length)
                rest >>= 24
                left -= 3
            }
        }
    }

    /// The length of the base64 of `count` bytes: four characters per whole group of three, then two or three
    /// characters (four with `=` when `padded`) for the rest.
    private static func encodedLength(_ count: Int, padded: Bool) -> Int {
        let remainder = count % 3
        return count / 3 * 4 + (remainder == 0 ? 0 : padded ? 4 : remainder + 1)
    }

    /// The input bytes encoded into one chunk: 189 of them make 252 characters, which fit a chunk with a word to
    /// spare.
    private static let bytesPerChunk = (JSONWriter.Chunk.capacity - 4) / 4 * 3

    /// Appends the base64 of `bytes` to `out`, a chunk at a time (``encode(_:alphabet:padded:into:)``).
    private static func append(_ bytes: [UInt8], alphabet: StaticString, padded: Bool, to out: inout [UInt8]) {
        guard !bytes.isEmpty else { return }
        out.reserveCapacity(out.count + encodedLength(bytes.count, padded: padded))
        bytes.withUnsafeBufferPointer { input in
            alphabet.withUTF8Buffer { table in
                var text = JSONWriter.Chunk()
                var start = 0
                while start < input.count {
                    // Every chunk but the last takes a multiple of three bytes, so that only the last has padding.
                    let end = min(input.count, start + bytesPerChunk)
                    text.removeAll()
                    let part = UnsafeBufferPointer(rebasing: input[start..<end])
                    encode(part, alphabet: table, padded: padded, into: &text)
                    text.append(to: &out)
                    start = end
                }
            }
        }
    }

    /// The one encoder: `input` in `alphabet` (64 entries), `=` padding to a multiple of four when `padded`,
    /// appended to `text`, each group of four characters with one store of a word. The caller leaves room for the
    /// whole text and 4 bytes more (a write past the chunk's capacity would be dropped). Input offsets stay below
    /// `input.count` (three per whole group, then the partial one's one or two), alphabet indexes below 64.
    @inline(__always)
    private static func encode(
        _ input: UnsafeBufferPointer<UInt8>, alphabet table: UnsafeBufferPointer<UInt8>, padded: Bool,
        into text: inout JSONWriter.Chunk
    ) {
        guard table.count == 64, let source = input.baseAddress, let alphabet = table.baseAddress else { return }
        let fullGroups = input.count / 3
        let remainder = input.count % 3
        var inOffset = 0
        for _ in 0..<fullGroups {
            let group =
                UInt32(source[inOffset]) << 16 | UInt32(source[inOffset &+ 1]) << 8 | UInt32(source[inOffset &+ 2])
            text.append(
                littleEndian: characters(ofGroup: group, count: 3, alphabet: alphabet, padded: padded).word, length: 4)
            inOffset &+= 3
        }
        // The last, partial group: two or three characters, then `=` to four when padded.
        guard remainder > 0 else { return }
        let second = remainder == 2 ? UInt32(source[inOffset + 1]) << 8 : 0
        let last = characters(
            ofGroup: UInt32(source[inOffset]) << 16 | second, count: remainder, alphabet: alphabet, padded: padded)
        text.append(littleEndian: last.word, length: last.length)
    }

    /// The characters of one group of `count` (1 to 3) input bytes, `group` (the first in bits 16 to 23, those past
    /// `count` zero), as a little-endian word: one character per six bits, then `=` to four when `padded`; and how
    /// many of the word's bytes are the text. Alphabet indexes are below 64.
    @inline(__always)
    private static func characters(
        ofGroup group: UInt32, count: Int, alphabet: UnsafePointer<UInt8>, padded: Bool
    ) -> (word: UInt64, length: Int) {
        @inline(__always) func character(_ index: UInt32) -> UInt64 { UInt64(alphabet[Int(index & 0x3F)]) }
        let equals = UInt64(UInt8(ascii: "="))
        var word = character(group >> 18) | character(group >> 12) << 8
        word |= count >= 2 ? character(group >> 6) << 16 : equals << 16
        word |= count >= 3 ? character(group) << 24 : equals << 24
        return (word, count >= 3 || padded ? 4 : count + 1)
    }
}
