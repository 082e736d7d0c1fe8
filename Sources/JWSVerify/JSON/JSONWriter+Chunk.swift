extension JSONWriter {
    /// Up to ``capacity`` bytes built in six machine words and appended to the output in one copy of those words
    /// (``append(to:)``): the short texts of a payload (numbers, dates) without a capacity and uniqueness check of
    /// the output per byte, which cost more than the text itself.
    ///
    /// Writes past ``capacity`` are dropped; callers write texts whose length they bound below it.
    ///
    /// Unsafe pointers: this is one of the few files outside `OpenSSL/` that holds one (Docs/Security.md, "Unsafe
    /// code"). The six words are written and read as bytes in place (`withUnsafeMutableBytes(of:)`), every index
    /// checked below ``capacity``, and the first ``count`` bytes appended to the output in one copy.
    package struct Chunk: Sequence {
        /// The most bytes a chunk holds.
        package static let capacity = 48

        /// The bytes, in memory order (a tuple's elements are laid out one after the other).
        private var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)
        /// How many bytes the chunk holds.
        package private(set) var count = 0

        /// An empty chunk.
        package init() {}

        /// The first bytes given as three words, little-endian (byte 0 is the low byte of `low`), `count` of them.
        package init(low: UInt64, middle: UInt64, high: UInt64, count: Int) {
            words = (low.littleEndian, middle.littleEndian, high.littleEndian, 0, 0, 0)
            self.count = Swift.min(count, 24)
        }

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

        /// Appends the chunk's bytes to `out`: `count` bytes of its words, in one `memcpy`, not byte by byte through
        /// the iterator.
        @inline(__always)
        package func append(to out: inout [UInt8]) {
            let count = self.count
            withUnsafeBytes(of: words) { raw in
                out.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[0..<count]))
            }
        }

        /// Appends the bytes of `text` (those past ``capacity`` dropped).
        package mutating func append(_ text: StaticString) {
            text.withUTF8Buffer { bytes in
                for byte in bytes { append(byte) }
            }
        }

        /// Appends `value` in decimal, with leading zeros to at least `minimumCount` digits (at most 20).
        package mutating func appendDigits(_ value: UInt64, minimumCount: Int = 1) {
            let digits = Swift.max(JSONWriter.digitCount(value), Swift.min(minimumCount, 20))
            guard count + digits <= Self.capacity else { return }
            let start = count
            withUnsafeMutableBytes(of: &words) { bytes in
                var rest = value
                var index = start + digits
                // Two digits per division, then the odd one.
                while index - start >= 2 {
                    let pair = rest % 100
                    rest /= 100
                    bytes[index - 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: pair % 10)
                    bytes[index - 2] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: pair / 10)
                    index -= 2
                }
                if index > start { bytes[index - 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10) }
            }
            count += digits
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

    /// How many decimal digits `value` has (1 for 0).
    package static func digitCount(_ value: UInt64) -> Int {
        var count = 1
        var power: UInt64 = 10
        while count < 20, value >= power {
            count += 1
            power &*= 10
        }
        return count
    }

    /// Appends `value` in decimal digits, with leading zeros to at least `minimumCount` digits (at most 20).
    package static func writeDigits(_ value: UInt64, minimumCount: Int = 1, into out: inout [UInt8]) {
        var chunk = Chunk()
        chunk.appendDigits(value, minimumCount: minimumCount)
        chunk.append(to: &out)
    }
}
