import Foundation

/// Writes a ``JSONValue`` as JSON text: the library's one JSON writer, for the CLI's output, the testing library's
/// tokens and files, and the ``JSONSchema`` documents of results.
///
/// Objects are written with their keys sorted (by UTF-8 bytes), compact, or indented by two spaces with `"key" : value`
/// as `JSONEncoder`'s `.prettyPrinted` writes it; a streaming writer (``init(style:)``) writes objects whose members
/// keep the caller's order (a JWS header's `alg` before `x5c`).
///
/// Token text reaches terminals through it, so strings escape, besides what JSON requires, every character
/// ``EscapedText`` escapes (one set, ``EscapedText/needsEscape(_:)``): DEL and C1 controls, U+2028 and U+2029, and
/// the bidirectional formatting characters, as `\u` escapes (the JSON still decodes to the same string).
package struct JSONWriter {
    /// The JSON text of `value`.
    package static func write(_ value: JSONValue, pretty: Bool) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        write(value, pretty: pretty, depth: 0, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the JSON text of `value` to `out`.
    package static func write(_ value: JSONValue, pretty: Bool, depth: Int, into out: inout [UInt8]) {
        write(value, pretty: pretty, separator: pretty ? prettySeparator : compactSeparator, depth: depth, into: &out)
    }

    private static let prettySeparator = Array(" : ".utf8)
    private static let compactSeparator = Array(":".utf8)
    private static let indentedSeparator = Array(": ".utf8)

    /// Appends the JSON text of `value`, each member name followed by `separator`.
    private static func write(
        _ value: JSONValue, pretty: Bool, separator: [UInt8], depth: Int, into out: inout [UInt8]
    ) {
        switch value {
        case .null: writeNull(into: &out)
        case .bool(let flag): writeBool(flag, into: &out)
        case .integer(let number): writeInteger(number, into: &out)
        case .double(let number):
            if number.isFinite && number == number.rounded() && abs(number) < 1e15 {
                writeInteger(Int64(number), into: &out)
            } else {
                out.append(contentsOf: (number.isFinite ? "\(number)" : "null").utf8)
            }
        case .string(let text): writeString(text, into: &out)
        case .array(let elements):
            guard !elements.isEmpty else {
                out.append(contentsOf: "[]".utf8)
                return
            }
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                newline(pretty, depth + 1, &out)
                write(element, pretty: pretty, separator: separator, depth: depth + 1, into: &out)
            }
            newline(pretty, depth, &out)
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            guard !members.isEmpty else {
                out.append(contentsOf: "{}".utf8)
                return
            }
            out.append(UInt8(ascii: "{"))
            for (index, member) in sorted(members).enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                newline(pretty, depth + 1, &out)
                writeString(member.key, into: &out)
                out.append(contentsOf: separator)
                write(member.value, pretty: pretty, separator: separator, depth: depth + 1, into: &out)
            }
            newline(pretty, depth, &out)
            out.append(UInt8(ascii: "}"))
        }
    }

    /// The members in key order. Each key's first eight bytes, read once as a big-endian number (zero
    /// padded), decide most comparisons; ties fall back to ``precedes(_:_:)``.
    private static func sorted(_ members: [String: JSONValue]) -> [(prefix: UInt64, key: String, value: JSONValue)] {
        var entries: [(prefix: UInt64, key: String, value: JSONValue)] = []
        entries.reserveCapacity(members.count)
        for (key, value) in members {
            var prefix: UInt64 = 0
            var shift: UInt64 = 56
            for byte in key.utf8.prefix(8) {
                prefix |= UInt64(byte) << shift
                shift &-= 8
            }
            entries.append((prefix, key, value))
        }
        entries.sort { $0.prefix != $1.prefix ? $0.prefix < $1.prefix : precedes($0.key, $1.key) }
        return entries
    }

    /// Whether `a` sorts before `b`: by UTF-8 bytes, which is `String`'s order for the ASCII keys of
    /// App Store payloads, without its Unicode comparison machinery (the sort is most of the cost of
    /// writing a payload otherwise).
    package static func precedes(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    private static func newline(_ pretty: Bool, _ depth: Int, _ out: inout [UInt8]) {
        guard pretty else { return }
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }

    /// `null`.
    package static func writeNull(into out: inout [UInt8]) {
        out.append(contentsOf: nullText)
    }

    /// `true` or `false`.
    package static func writeBool(_ flag: Bool, into out: inout [UInt8]) {
        out.append(contentsOf: flag ? trueText : falseText)
    }

    private static let nullText = Array("null".utf8)
    private static let trueText = Array("true".utf8)
    private static let falseText = Array("false".utf8)

    /// A string literal (``writeString(_:into:)``), or `null` for nil.
    package static func writeString(orNull text: String?, into out: inout [UInt8]) {
        if let text { writeString(text, into: &out) } else { writeNull(into: &out) }
    }

    /// Decimal digits, a minus sign first when negative, without an intermediate `String`.
    package static func writeInteger(_ number: Int64, into out: inout [UInt8]) {
        var chunk = Chunk()
        chunk.appendInteger(number)
        chunk.append(to: &out)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// A JSON string literal: `"` and `\\` escaped, control characters as `\\n`, `\\t`, … or `\\u00XX`,
    /// and the characters that do not print as themselves (see the type's summary) as `\\uXXXX`.
    package static func writeString(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Runs of bytes that need no escape are copied whole (most payload strings), found eight bytes
        // at a time where there are eight.
        ByteScanning.withUTF8(text) { bytes in
            var runStart = 0
            var index = 0
            while index < bytes.count {
                if index &+ 8 <= bytes.count {
                    let flagged = bytesToCheck(ByteScanning.littleEndianWord(bytes, at: index))
                    if flagged == 0 {
                        index &+= 8
                        continue
                    }
                    index &+= flagged.trailingZeroBitCount &>> 3
                }
                let length = escapeLength(bytes, at: index)
                guard length > 0 else {
                    index += 1
                    continue
                }
                out.append(contentsOf: bytes[runStart..<index])
                writeEscaped(bytes, at: index, length: length, into: &out)
                index += length
                runStart = index
            }
            out.append(contentsOf: bytes[runStart...])
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The high bit of each byte of `word` (eight bytes read little-endian) that may need an escape,
    /// up to the first such byte: a control character, DEL or above, `"` or `\\`. Bit tricks test every
    /// byte at once; they are exact about the first match (a borrow or carry between bytes only starts
    /// at a byte that matches itself), so `trailingZeroBitCount / 8` is the first byte to check.
    package static func bytesToCheck(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let quotes = word ^ (ones &* 0x22)
        let backslashes = word ^ (ones &* 0x5C)
        let below0x20 = (word &- ones &* 0x20) & ~word
        let above0x7E = (word &+ ones) | word
        let quote = (quotes &- ones) & ~quotes
        let backslash = (backslashes &- ones) & ~backslashes
        return (below0x20 | above0x7E | quote | backslash) & highBits
    }

    /// The length of the UTF-8 sequence at `index` when it encodes a character this writer escapes: `"`, `\\`,
    /// and every character ``EscapedText/needsEscape(_:)`` names (the one escape set of the library); 0 otherwise
    /// (and for a byte that starts no sequence of at most three bytes: no escaped character is longer).
    package static func escapeLength<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, at index: Int) -> Int
    where Bytes.Index == Int {
        let first = bytes[index]
        let length: Int
        let scalar: UInt32
        switch first {
        case 0x00...0x7F:
            return first == UInt8(ascii: "\"") || first == UInt8(ascii: "\\")
                || EscapedText.needsEscape(Unicode.Scalar(first)) ? 1 : 0
        case 0xC2...0xDF:
            guard index + 1 < bytes.endIndex else { return 0 }
            length = 2
            scalar = UInt32(first & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F)
        case 0xE0...0xEF:
            guard index + 2 < bytes.endIndex else { return 0 }
            length = 3
            scalar = UInt32(first & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6 | UInt32(bytes[index + 2] & 0x3F)
        default:
            return 0
        }
        guard let decoded = Unicode.Scalar(scalar), EscapedText.needsEscape(decoded) else { return 0 }
        return length
    }

    /// Writes the character of ``escapeLength(_:at:)``'s sequence at `index` as an escape.
    package static func writeEscaped<Bytes: RandomAccessCollection<UInt8>>(
        _ bytes: Bytes, at index: Int, length: Int, into out: inout [UInt8]
    ) where Bytes.Index == Int {
        let scalar: UInt32
        switch length {
        case 1: scalar = UInt32(bytes[index])
        case 2: scalar = UInt32(bytes[index] & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F)
        default:
            scalar =
                UInt32(bytes[index] & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6
                | UInt32(bytes[index + 2] & 0x3F)
        }
        switch scalar {
        case 0x22: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
        case 0x5C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
        case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
        case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
        case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
        default:
            out.append(contentsOf: "\\u".utf8)
            for shift in [12, 8, 4, 0] { out.append(hexDigits[Int((scalar >> UInt32(shift)) & 0xF)]) }
        }
    }

    // MARK: Streaming, members in the caller's order

    /// How a streaming writer lays out its text.
    package enum Style: Sendable {
        /// One line, no spaces.
        case compact
        /// Indented by two spaces, `"key": value`, a newline at the end of ``text`` (files people read).
        case indented
    }

    /// The text written so far.
    package private(set) var bytes: [UInt8] = []
    private let style: Style
    /// For each open container, whether it has an element yet.
    private var open: [Bool] = []
    /// Whether a member name was just written (its value follows without a comma or a newline).
    private var afterKey = false

    /// A writer of one JSON value, written piece by piece.
    package init(style: Style) {
        self.style = style
    }

    /// The text, ending in a newline when indented.
    package var text: String {
        String(decoding: bytes, as: UTF8.self) + (style == .indented ? "\n" : "")
    }

    private mutating func beforeValue() {
        if afterKey {
            afterKey = false
            return
        }
        guard let hasElements = open.last else { return }
        if hasElements { bytes.append(UInt8(ascii: ",")) }
        open[open.count - 1] = true
        Self.newline(style == .indented, open.count, &bytes)
    }

    /// Writes `value` (objects in it with sorted keys).
    package mutating func value(_ value: JSONValue) {
        beforeValue()
        let indented = style == .indented
        Self.write(
            value, pretty: indented, separator: indented ? Self.indentedSeparator : Self.compactSeparator,
            depth: open.count, into: &bytes)
    }

    /// Starts an object; its members follow as ``key(_:)`` and a value each, in the order written.
    package mutating func beginObject() {
        beforeValue()
        bytes.append(UInt8(ascii: "{"))
        open.append(false)
    }

    /// Starts an array.
    package mutating func beginArray() {
        beforeValue()
        bytes.append(UInt8(ascii: "["))
        open.append(false)
    }

    /// Writes a member name of the open object.
    package mutating func key(_ name: String) {
        beforeValue()
        Self.writeString(name, into: &bytes)
        bytes.append(contentsOf: style == .indented ? Self.indentedSeparator : Self.compactSeparator)
        afterKey = true
    }

    /// Ends the open object.
    package mutating func endObject() { close(UInt8(ascii: "}")) }

    /// Ends the open array.
    package mutating func endArray() { close(UInt8(ascii: "]")) }

    private mutating func close(_ byte: UInt8) {
        guard let hadElements = open.popLast() else { return }
        if hadElements { Self.newline(style == .indented, open.count, &bytes) }
        bytes.append(byte)
    }
}
