extension JSONWriter {
    /// Up to ``capacity`` bytes built in six machine words and appended to the output in one step
    /// (`out.append(contentsOf: chunk)`): the short texts of a payload (numbers, dates) without a capacity and
    /// uniqueness check of the output per byte, which cost more than the text itself.
    ///
    /// Writes past ``capacity`` are dropped; callers write texts whose length they bound below it.
    package struct Chunk: Sequence {
        /// The most bytes a chunk holds.
        package static let capacity = 48

        private var w0: UInt64 = 0
        private var w1: UInt64 = 0
        private var w2: UInt64 = 0
        private var w3: UInt64 = 0
        private var w4: UInt64 = 0
        private var w5: UInt64 = 0
        /// How many bytes the chunk holds.
        package private(set) var count = 0

        /// An empty chunk.
        package init() {}

        /// The first bytes given as three words, little-endian (byte 0 is the low byte of `low`), `count` of them.
        package init(low: UInt64, middle: UInt64, high: UInt64, count: Int) {
            (w0, w1, w2) = (low, middle, high)
            self.count = Swift.min(count, 24)
        }

        /// Sets the byte at `index`, below ``capacity``, which must be zero until then.
        @inline(__always)
        package mutating func set(_ byte: UInt8, at index: Int) {
            let value = UInt64(byte) << UInt64((index & 7) << 3)
            switch index >> 3 {
            case 0: w0 |= value
            case 1: w1 |= value
            case 2: w2 |= value
            case 3: w3 |= value
            case 4: w4 |= value
            case 5: w5 |= value
            default: break
            }
        }

        /// The byte at `index`, below ``count``.
        @inline(__always)
        package func byte(at index: Int) -> UInt8 {
            let word: UInt64
            switch index >> 3 {
            case 0: word = w0
            case 1: word = w1
            case 2: word = w2
            case 3: word = w3
            case 4: word = w4
            default: word = w5
            }
            return UInt8(truncatingIfNeeded: word >> UInt64((index & 7) << 3))
        }

        /// Appends `byte` (dropped when the chunk is full).
        @inline(__always)
        package mutating func append(_ byte: UInt8) {
            guard count < Self.capacity else { return }
            set(byte, at: count)
            count += 1
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
            var rest = value
            var index = count + digits
            while index > count {
                index -= 1
                set(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10), at: index)
                rest /= 10
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
        out.append(contentsOf: chunk)
    }
}
