#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Byte-level scans of token bytes at memory speed: finding the `.` between segments (`memchr`),
/// hashing a header's bytes a word at a time and comparing two byte strings (`memcmp`).
///
/// Unsafe pointers: this is one of the few files outside `OpenSSL/` that holds them (see
/// Docs/Security.md, "Unsafe code"). Every warm verification scans its 3–10 KiB token for dots and
/// hashes its 2–3 KiB header; byte-by-byte loops over arrays cost more than the rest of a chain-cache
/// look-up. The pointers live only inside these functions, over arrays they borrow for the call.
package enum ByteScanning {
    /// The index of the first `byte` in `bytes[start..<end]` (`end` defaults to the end of `bytes`), if any; no byte
    /// at or past `end` is read (a `batch` chunk's buffer holds bytes not read into it past its lines).
    package static func firstIndex(of byte: UInt8, in bytes: [UInt8], from start: Int, before end: Int? = nil) -> Int? {
        let end = min(end ?? bytes.count, bytes.count)
        guard start >= 0, start < end else { return nil }
        return bytes.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress,
                let found = memchr(base + start, Int32(byte), end - start)
            else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }

    /// Whether two byte strings are equal, compared with `memcmp`.
    package static func equal(_ lhs: ArraySlice<UInt8>, _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return lhs.withUnsafeBytes { left in rhs.withUnsafeBytes { right in equal(left, right) } }
    }

    /// Whether two strings have the same UTF-8 bytes, compared with `memcmp` (not `==`, which compares Unicode
    /// canonical equivalence: `"\u{212A}" == "K"`).
    package static func equalUTF8(_ lhs: String, _ rhs: String) -> Bool {
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        return withUTF8(lhs) { left in withUTF8(rhs) { right in equal(UnsafeRawBufferPointer(left), .init(right)) } }
    }

    /// Calls `body` with the UTF-8 bytes of `text`, read in place: a native string's own storage (a small string's
    /// bytes copied to the stack), without the copy of the string that the mutating `withUTF8` needs (a retain and a
    /// release of its storage, per string written); a string whose UTF-8 is not contiguous (bridged) is made
    /// contiguous in a copy. The buffer is valid only during `body`.
    @inline(__always)
    package static func withUTF8<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = text
        return copy.withUTF8(body)
    }

    /// Whether two byte buffers of the same length hold the same bytes: `memcmp`.
    private static func equal(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer) -> Bool {
        guard left.count == right.count else { return false }
        guard let leftBase = left.baseAddress, let rightBase = right.baseAddress else { return true }
        return memcmp(leftBase, rightBase, right.count) == 0
    }

    /// The `count` (at most 8) bytes of `bytes` from `index` as a little-endian word, the rest zero: how the escape
    /// scans read eight bytes at once, the hash its last bytes and a receipt attribute packs a short value.
    @inline(__always)
    package static func littleEndianWord<Bytes: RandomAccessCollection<UInt8>>(
        _ bytes: Bytes, at index: Int, count: Int = 8
    ) -> UInt64 where Bytes.Index == Int {
        // Subscripts, not a slice: a slice of an array or a slice retains its storage for the loop.
        var word: UInt64 = 0
        for offset in 0..<count { word |= UInt64(bytes[index &+ offset]) &<< UInt64(offset &* 8) }
        return word
    }

    /// A multiply-xor hash over 8-byte words (the mixing step of the wyhash/FxHash family), in four independent
    /// lanes of one word each per 32 bytes, folded together at the end: each lane's multiplication waits only for
    /// its own previous one, so that the four run side by side (one lane made a chain of dependent multiplications
    /// as long as the input: a receipt's 3 KB of certificates took about 2,000 cycles).
    ///
    /// Not a defence against chosen collisions: its users (the chain caches) are bounded and compare
    /// every byte on a match.
    package static func wordHash(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.withUnsafeBytes { raw in
            @inline(__always) func mix(_ state: UInt64, _ word: UInt64) -> UInt64 {
                let mixed = state ^ word
                return mixed.multipliedFullWidth(by: 0xA076_1D64_78BD_642F).high ^ mixed &* 0xE703_7ED1_A0B4_28DB
            }
            @inline(__always) func word(_ offset: Int) -> UInt64 {
                UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            }
            let seed: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(raw.count)
            var lanes = (seed, seed ^ 0x243F_6A88_85A3_08D3, seed ^ 0x1319_8A2E_0370_7344, seed ^ 0xA409_3822_299F_31D0)
            var offset = 0
            while offset + 32 <= raw.count {
                lanes.0 = mix(lanes.0, word(offset))
                lanes.1 = mix(lanes.1, word(offset + 8))
                lanes.2 = mix(lanes.2, word(offset + 16))
                lanes.3 = mix(lanes.3, word(offset + 24))
                offset += 32
            }
            var state = mix(mix(mix(lanes.0, lanes.1), lanes.2), lanes.3)
            while offset + 8 <= raw.count {
                state = mix(state, word(offset))
                offset += 8
            }
            let tail = littleEndianWord(raw, at: offset, count: raw.count - offset)
            return (state ^ tail) &* 0x9E37_79B9_7F4A_7C15
        }
    }

    /// The text of `bytes` when they are well-formed UTF-8, else nil: what `String(validating:as:)` answers, without
    /// its generic path for slices (which looks up type metadata and protocol conformances at run time, under a lock,
    /// on every call: about a thousand instructions for a receipt's product identifier). ASCII, which every App Store
    /// identifier is, is well-formed and decoded directly; any other text goes to the standard library's validation.
    package static func string(validatingUTF8 bytes: ArraySlice<UInt8>) -> String? {
        var high: UInt8 = 0
        for byte in bytes { high |= byte }  // no early exit: the loop vectorizes
        if high < 0x80 { return String(decoding: bytes, as: UTF8.self) }
        return String(validating: bytes, as: UTF8.self)
    }
}
