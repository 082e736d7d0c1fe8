extension JSONWriter {
    /// Up to ``capacity`` bytes built in place and appended to an output array in one copy (``append(to:)``): the
    /// short texts of a payload (numbers, dates, member names, short base64) without an array's capacity and
    /// uniqueness check per piece, which cost more than the text itself. A writer that stages many pieces in one
    /// chunk and appends it when the next piece would not fit (``ensureRoom(_:flushingInto:)``) touches the output
    /// array once per few hundred bytes.
    ///
    /// Writes past ``capacity`` are dropped; callers write texts whose length they bound below ``room``.
    ///
    /// Unsafe pointers: this is one of the few files outside `OpenSSL/` that holds them (Docs/Security.md, "Unsafe
    /// code"). The bytes (a tuple of words) are written and read in place (`withUnsafeMutableBytes(of:)`), every
    /// write checked to end at or below ``capacity``, and the first ``count`` bytes appended to the output in one
    /// copy.
    package struct Chunk: Sequence {
        /// The most bytes a chunk holds.
        package static let capacity = 256

        /// The bytes, in memory order (a tuple's elements are laid out one after the other): 32 words.
        private var words:
            (
                UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
            ) = (
                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
            )
        /// How many bytes the chunk holds.
        package private(set) var count = 0

        /// An empty chunk.
        package init() {}

        /// How many more bytes fit.
        @inline(__always)
        package var room: Int { Self.capacity - count }

        /// Sets the byte at `index`, below ``capacity`` (an index past it is ignored).
        @inline(__always)
        package mutating func set(_ byte: UInt8, at index: Int) {
            guard index >= 0, index < Self.capacity else { return }
            withUnsafeMutableBytes(of: &words) { $0[index] = byte }
        }

        /// The byte at `index`, below ``count``.
        @inline(__always)
        package func byte(at index: Int) -> UInt8 {
            guard index >= 0, index < Self.capacity else { return 0 }
            return withUnsafeBytes(of: words) { $0[index] }
        }

        /// Appends `byte` (dropped when the chunk is full).
        @inline(__always)
        package mutating func append(_ byte: UInt8) {
            guard count < Self.capacity else { return }
            set(byte, at: count)
            count += 1
        }

        /// Appends the first `length` (at most 8) bytes of `word`, low byte first, with one store of the whole word
        /// when eight bytes are free (dropped, like any write past ``capacity``, when `length` are not).
        @inline(__always)
        package mutating func append(littleEndian word: UInt64, length: Int) {
            guard length >= 0, length <= 8, count + length <= Self.capacity else { return }
            let start = count
            if start + 8 <= Self.capacity {
                withUnsafeMutableBytes(of: &words) {
                    $0.storeBytes(of: word.littleEndian, toByteOffset: start, as: UInt64.self)
                }
            } else {
                for index in 0..<length { set(UInt8(truncatingIfNeeded: word >> UInt64(index * 8)), at: start + index) }
            }
            count = start + length
        }

        /// Appends the bytes of `text` in one copy (those past ``capacity`` dropped). Inlined, so that a literal's
        /// length is a constant where it is written and a literal that fits is copied by a few moves, not a call.
        @inline(__always)
        package mutating func append(_ text: StaticString) {
            let length = text.utf8CodeUnitCount
            let start = count
            guard text.hasPointerRepresentation, start + length <= Self.capacity else {
                text.withUTF8Buffer { append(contentsOf: UnsafeRawBufferPointer($0)) }
                return
            }
            withUnsafeMutableBytes(of: &words) { target in
                UnsafeMutableRawBufferPointer(rebasing: target[start..<(start + length)])
                    .copyMemory(from: UnsafeRawBufferPointer(start: text.utf8Start, count: length))
            }
            count = start + length
        }

        /// Appends `bytes` in one copy (those past ``capacity`` dropped).
        package mutating func append(contentsOf bytes: [UInt8]) {
            bytes.withUnsafeBytes { append(contentsOf: $0) }
        }

        /// Appends `bytes` in one copy (those past ``capacity`` dropped).
        package mutating func append(contentsOf bytes: UnsafeRawBufferPointer) {
            let length = Swift.min(bytes.count, room)
            guard length > 0 else { return }
            let start = count
            withUnsafeMutableBytes(of: &words) { target in
                UnsafeMutableRawBufferPointer(rebasing: target[start..<(start + length)])
                    .copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[0..<length]))
            }
            count = start + length
        }

        /// Empties the chunk (its capacity is kept: it is inline).
        @inline(__always)
        package mutating func removeAll() {
            count = 0
        }

        /// Appends the chunk's bytes to `out`: `count` bytes in one `memcpy`, not byte by byte through the iterator.
        @inline(__always)
        package func append(to out: inout [UInt8]) {
            let count = self.count
            guard count > 0 else { return }
            withUnsafeBytes(of: words) { raw in
                out.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[0..<count]))
            }
        }

        /// Appends the chunk's bytes to `out` and empties it when fewer than `length` bytes are free, so that a
        /// piece of at most `length` bytes fits whole.
        @inline(__always)
        package mutating func ensureRoom(_ length: Int, flushingInto out: inout [UInt8]) {
            guard room < length else { return }
            append(to: &out)
            removeAll()
        }

        /// Appends `value` in decimal, with leading zeros to at least `minimumCount` digits (at most 20): two digits
        /// per division by 100, stored as one 16-bit word from a table of the hundred pairs.
        package mutating func appendDigits(_ value: UInt64, minimumCount: Int = 1) {
            // One digit, as most of a receipt's attribute versions and flags: one byte.
            if value < 10, minimumCount <= 1 {
                append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value))
                return
            }
            let digits = Swift.max(JSONWriter.digitCount(value), Swift.min(minimumCount, 20))
            guard count + digits <= Self.capacity else { return }
            let start = count
            JSONWriter.digitPairs.withUTF8Buffer { pairs in
                let pairs = UnsafeRawBufferPointer(pairs)
                withUnsafeMutableBytes(of: &words) { bytes in
                    var rest = value
                    var index = start + digits
                    while index - start >= 2 {
                        let pair = Int(truncatingIfNeeded: rest % 100)
                        rest /= 100
                        index -= 2
                        bytes.storeBytes(
                            of: pairs.loadUnaligned(fromByteOffset: 2 * pair, as: UInt16.self), toByteOffset: index,
                            as: UInt16.self)
                    }
                    if index > start { bytes[index - 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10) }
                }
            }
            count += digits
        }

        /// Appends `text` as a JSON string, `"` around its bytes, when none of them needs an escape (printable
        /// ASCII but `"` and `\\`: ``JSONWriter/writeString(_:into:)`` writes such text as it is) and the whole
        /// fits; false, with nothing written, otherwise.
        package mutating func appendPlainString(_ text: String) -> Bool {
            return ByteScanning.withUTF8(text) { bytes in
                guard bytes.count + 2 <= room, JSONWriter.needsNoEscape(bytes) else { return false }
                append(UInt8(ascii: "\""))
                append(contentsOf: UnsafeRawBufferPointer(bytes))
                append(UInt8(ascii: "\""))
                return true
            }
        }

        /// Appends `number` in decimal, a minus sign first when it is negative.
        package mutating func appendInteger(_ number: Int64) {
            if number < 0 { append(UInt8(ascii: "-")) }
            appendDigits(number.magnitude)
        }

        package var underestimatedCount: Int { count }

        package func makeIterator() -> Iterator { Iterator(chunk: self) }

        /// The bytes of a chunk, in order.
        package struct Iterator: IteratorProtocol {
            fileprivate let chunk: Chunk
            private var index = 0

            fileprivate init(chunk: Chunk) { self.chunk = chunk }

            package mutating func next() -> UInt8? {
                guard index < chunk.count else { return nil }
                defer { index += 1 }
                return chunk.byte(at: index)
            }
        }
    }

    /// Whether no byte of `bytes` may need an escape (``bytesToCheck(_:)`` flags none): printable ASCII without `"`
    /// and `\\`, which ``writeString(_:into:)`` copies as it is.
    package static func needsNoEscape(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        var flagged: UInt64 = 0
        while index &+ 8 <= bytes.count {
            flagged |= bytesToCheck(ByteScanning.littleEndianWord(bytes, at: index))
            index &+= 8
        }
        // The last (fewer than eight) bytes in a word padded with spaces, which need no escape.
        let rest = bytes.count &- index
        let tail = ByteScanning.littleEndianWord(bytes, at: index, count: rest) | 0x2020_2020_2020_2020 &<< (8 &* rest)
        return flagged | bytesToCheck(tail) == 0
    }

    /// How many decimal digits `value` has (1 for 0): from its bit length, corrected by one comparison with a power
    /// of ten.
    package static func digitCount(_ value: UInt64) -> Int {
        // Numbers of `bits` bits have at least `bits * 1233 >> 12` digits (1233 / 4096 is just above log10 2) and
        // at most one more.
        // `value | 1` counts 0 as one digit and no other number differently (no power of ten above 1 is odd).
        let odd = value | 1
        let bits = 64 - odd.leadingZeroBitCount
        let guess = (bits &* 1233) &>> 12
        return guess &+ (odd >= powerOfTen(guess) ? 1 : 0)
    }

    /// 10 to the power `exponent` (0 to 19), by a switch the compiler turns into a constant table: no array and so
    /// no lazy initialization or reference count per number written.
    @inline(__always)
    private static func powerOfTen(_ exponent: Int) -> UInt64 {
        switch exponent {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1_000
        case 4: 10_000
        case 5: 100_000
        case 6: 1_000_000
        case 7: 10_000_000
        case 8: 100_000_000
        case 9: 1_000_000_000
        case 10: 10_000_000_000
        case 11: 100_000_000_000
        case 12: 1_000_000_000_000
        case 13: 10_000_000_000_000
        case 14: 100_000_000_000_000
        case 15: 1_000_000_000_000_000
        case 16: 10_000_000_000_000_000
        case 17: 100_000_000_000_000_000
        case 18: 1_000_000_000_000_000_000
        default: 10_000_000_000_000_000_000
        }
    }

    /// The hundred pairs of ASCII digits `00` to `99`, pair `n` at bytes `2n` and `2n + 1`: a literal, read in place.
    fileprivate static var digitPairs: StaticString {
        """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """
    }

    /// Appends `value` in decimal digits, with leading zeros to at least `minimumCount` digits (at most 20).
    package static func writeDigits(_ value: UInt64, minimumCount: Int = 1, into out: inout [UInt8]) {
        var chunk = Chunk()
        chunk.appendDigits(value, minimumCount: minimumCount)
        chunk.append(to: &out)
    }
}
