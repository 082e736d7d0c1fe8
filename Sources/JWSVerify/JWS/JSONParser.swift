/// A strict JSON parser (RFC 8259) for token headers and payloads: one linear pass that validates
/// and builds the ``JSONValue`` tree the models decode from, so a payload is parsed exactly once.
///
/// It enforces what a general-purpose decoder does not:
/// - a nesting limit (default 32), so that no input can drive recursion deep;
/// - valid UTF-8 and no raw control characters inside strings;
/// - no duplicate member names in any object (RFC 7515 §5.2 allows rejecting them, and different
///   parsers disagree on which duplicate wins), compared after unescaping;
/// - exactly one value, with nothing after it but whitespace.
///
/// Work is linear in the input: every byte is looked at a bounded number of times.
///
/// Unsafe pointers: this is one of the few files outside `OpenSSL/` that holds them (Docs/Security.md,
/// "Unsafe code"). The parser walks the decoded bytes through a buffer pointer, borrowed from the
/// array for the one call of ``parseObject(_:maximumDepth:)`` and never kept; every read checks
/// `position` against the count first.
package struct JSONParser {
    /// Why the input is not accepted.
    package struct Failure: Error, Sendable {
        package let reason: String
        package let offset: Int
    }

    package static let defaultMaximumDepth = 32

    private let bytes: UnsafeBufferPointer<UInt8>
    private let maximumDepth: Int
    private var position = 0
    /// A member name of the top-level object whose value's text is located (``parseObject(_:locating:maximumDepth:)``).
    private var locatedName: String?
    /// Where the value of ``locatedName`` is in the input, once read.
    private var locatedValue: Range<Int>?
    /// Whether the value being read is that of ``locatedName``: a number out of `Double`'s range is then kept as an
    /// infinity instead of refused, since the caller uses its text, not its value.
    private var readingLocatedValue = false

    private init(_ bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    /// Parses `bytes`, which must hold exactly one JSON object (with optional surrounding whitespace).
    private static func parseObject(
        _ bytes: UnsafeBufferPointer<UInt8>,
        maximumDepth: Int = defaultMaximumDepth
    ) throws(Failure) -> [String: JSONValue] {
        var parser = JSONParser(bytes, maximumDepth: maximumDepth)
        parser.skipWhitespace()
        guard parser.peek() == UInt8(ascii: "{") else {
            throw parser.failure("not a JSON object")
        }
        let object = try parser.parseObject(depth: 1)
        parser.skipWhitespace()
        guard parser.position == bytes.count else { throw parser.failure("data after the JSON object") }
        return object
    }

    /// Parses `bytes`, which must hold exactly one JSON object.
    package static func parseObject(
        _ bytes: [UInt8], maximumDepth: Int = defaultMaximumDepth
    ) throws(Failure) -> [String: JSONValue] {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(Failure) in try parseObject(buffer, maximumDepth: maximumDepth) }
        }
        return try result.get()
    }

    /// Parses `bytes`, which must hold exactly one JSON object, and finds where the value of one of its top-level
    /// members is written: the exact text of that value, without the whitespace around it (so that a caller echoes
    /// a value as it was written, not re-rendered from what it parsed to).
    ///
    /// - Parameters:
    ///   - bytes: The input.
    ///   - name: The member whose value is located (compared after unescaping, as duplicates are).
    /// - Returns: the members, and the range in `bytes` of the value of `name` when the object has that member.
    package static func parseObject(
        _ bytes: [UInt8], locating name: String, maximumDepth: Int = defaultMaximumDepth
    ) throws(Failure) -> (members: [String: JSONValue], located: Range<Int>?) {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(Failure) in
                var parser = JSONParser(buffer, maximumDepth: maximumDepth)
                parser.locatedName = name
                parser.skipWhitespace()
                guard parser.peek() == UInt8(ascii: "{") else { throw parser.failure("not a JSON object") }
                let object = try parser.parseObject(depth: 1)
                parser.skipWhitespace()
                guard parser.position == buffer.count else { throw parser.failure("data after the JSON object") }
                return (object, parser.locatedValue)
            }
        }
        return try result.get()
    }

    /// Parses `bytes`, which must hold exactly one JSON value of any type (with optional surrounding
    /// whitespace), with the same rules as ``parseObject(_:maximumDepth:)`` (the CLI reads a token
    /// line written as a JSON string with it).
    package static func parseValue(
        _ bytes: [UInt8], maximumDepth: Int = defaultMaximumDepth
    ) throws(Failure) -> JSONValue {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(Failure) in
                var parser = JSONParser(buffer, maximumDepth: maximumDepth)
                let value = try parser.parseValue(depth: 0)
                parser.skipWhitespace()
                guard parser.position == buffer.count else { throw parser.failure("data after the JSON value") }
                return value
            }
        }
        return try result.get()
    }

    private func failure(_ reason: String) -> Failure { Failure(reason: reason, offset: position) }

    private func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private mutating func expect(_ literal: StaticString) throws(Failure) {
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count else { throw failure("truncated literal") }
        let start = literal.utf8Start
        for offset in 0..<count where bytes[position + offset] != start[offset] {
            throw failure("invalid literal")
        }
        position += count
    }

    private mutating func parseValue(depth: Int) throws(Failure) -> JSONValue {
        skipWhitespace()
        guard let byte = peek() else { throw failure("unexpected end") }
        switch byte {
        case UInt8(ascii: "{"): return .object(try parseObject(depth: depth + 1))
        case UInt8(ascii: "["): return .array(try parseArray(depth: depth + 1))
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expect("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expect("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expect("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw failure("unexpected character")
        }
    }

    private mutating func parseObject(depth: Int) throws(Failure) -> [String: JSONValue] {
        guard depth <= maximumDepth else { throw failure("nested deeper than \(maximumDepth)") }
        position += 1  // {
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            position += 1
            return [:]
        }
        // Members are collected first and the dictionary is built once at its final size: growing it
        // member by member rehashes every key several times.
        var members: [(name: String, value: JSONValue, offset: Int)] = []
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw failure("expected a member name") }
            let nameStart = position
            let name = try parseString()
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw failure("expected ':'") }
            position += 1
            skipWhitespace()
            let valueStart = position
            let located = depth == 1 && locatedName == name
            readingLocatedValue = located
            let value = try parseValue(depth: depth)
            readingLocatedValue = false
            if located { locatedValue = valueStart..<position }
            members.append((name, value, nameStart))
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                return try Self.object(members)
            default: throw failure("expected ',' or '}'")
            }
        }
    }

    /// The members as a dictionary; a repeated name fails at its second occurrence.
    private static func object(
        _ members: [(name: String, value: JSONValue, offset: Int)]
    ) throws(Failure) -> [String: JSONValue] {
        var object = [String: JSONValue](minimumCapacity: members.count)
        for member in members where object.updateValue(member.value, forKey: member.name) != nil {
            throw Failure(reason: "duplicate member name \"\(member.name)\"", offset: member.offset)
        }
        return object
    }

    private mutating func parseArray(depth: Int) throws(Failure) -> [JSONValue] {
        guard depth <= maximumDepth else { throw failure("nested deeper than \(maximumDepth)") }
        position += 1  // [
        skipWhitespace()
        var array: [JSONValue] = []
        if peek() == UInt8(ascii: "]") {
            position += 1
            return array
        }
        while true {
            array.append(try parseValue(depth: depth))
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"):
                position += 1
                return array
            default: throw failure("expected ',' or ']'")
            }
        }
    }

    /// Parses a string at `position` (which holds the opening quote).
    private mutating func parseString() throws(Failure) -> String {
        position += 1  // opening quote
        let start = position
        var hasEscape = false
        while true {
            skipPlainASCII()
            guard position < bytes.count else { throw failure("unterminated string") }
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                let body = UnsafeBufferPointer(rebasing: bytes[start..<position])
                position += 1
                return hasEscape ? Self.unescape(body) : String(decoding: body, as: UTF8.self)
            case UInt8(ascii: "\\"):
                hasEscape = true
                position += 1
                guard let escaped = peek() else { throw failure("unterminated escape") }
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                    UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    position += 1
                case UInt8(ascii: "u"):
                    position += 1
                    for _ in 0..<4 {
                        guard let hex = peek(), Self.hexValue(hex) != nil else { throw failure("bad \\u escape") }
                        position += 1
                    }
                default: throw failure("bad escape")
                }
            case 0x00..<0x20:
                throw failure("control character in string")
            case 0x20..<0x80:
                position += 1
            default:
                try skipUTF8Sequence()
            }
        }
    }

    /// Skips string bytes that need no attention (printable ASCII other than `"` and `\\`), eight at
    /// a time: base64 certificates and most payload strings are long runs of them.
    private mutating func skipPlainASCII() {
        let raw = UnsafeRawBufferPointer(bytes)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        /// A high bit set in each byte of `value` that is zero (exact when no byte is over 0x80).
        func zeroBytes(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highs }
        while position + 8 <= bytes.count {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt64.self))
            // Any byte >= 0x80, < 0x20, == '"' (0x22) or == '\\' (0x5C) ends the run.
            let special =
                (word & highs) | zeroBytes(word & 0xE0E0_E0E0_E0E0_E0E0) | zeroBytes(word ^ (ones &* 0x22))
                | zeroBytes(word ^ (ones &* 0x5C))
            if special != 0 { return }
            position += 8
        }
    }

    private mutating func skipUTF8Sequence() throws(Failure) {
        let lead = bytes[position]
        let length: Int
        var lowerBound: UInt8 = 0x80
        var upperBound: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            lowerBound = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            upperBound = 0x9F  // no UTF-16 surrogates
        case 0xF0:
            length = 4
            lowerBound = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            upperBound = 0x8F
        default: throw failure("invalid UTF-8")
        }
        guard position + length <= bytes.count else { throw failure("truncated UTF-8") }
        let second = bytes[position + 1]
        guard second >= lowerBound && second <= upperBound else { throw failure("invalid UTF-8") }
        for offset in 2..<max(2, length) where bytes[position + offset] & 0xC0 != 0x80 {
            throw failure("invalid UTF-8")
        }
        position += length
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    /// Unescapes an already validated JSON string body (lone surrogates become U+FFFD).
    private static func unescape(_ body: UnsafeBufferPointer<UInt8>) -> String {
        var scalars = String.UnicodeScalarView()
        var index = 0
        var pendingHighSurrogate: UInt32?
        func append(_ value: UInt32) {
            scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
        }
        while index < body.count {
            let byte = body[index]
            guard byte == UInt8(ascii: "\\") else {
                if pendingHighSurrogate != nil {
                    append(0xFFFD)
                    pendingHighSurrogate = nil
                }
                // Copy a run of unescaped (already validated) UTF-8.
                var end = index
                while end < body.count && body[end] != UInt8(ascii: "\\") { end += 1 }
                scalars.append(
                    contentsOf: String(decoding: UnsafeBufferPointer(rebasing: body[index..<end]), as: UTF8.self)
                        .unicodeScalars)
                index = end
                continue
            }
            let escaped = body[index + 1]
            index += 2
            var scalar: UInt32
            switch escaped {
            case UInt8(ascii: "b"): scalar = 0x08
            case UInt8(ascii: "f"): scalar = 0x0C
            case UInt8(ascii: "n"): scalar = 0x0A
            case UInt8(ascii: "r"): scalar = 0x0D
            case UInt8(ascii: "t"): scalar = 0x09
            case UInt8(ascii: "u"):
                scalar = 0
                for offset in 0..<4 { scalar = scalar << 4 | (hexValue(body[index + offset]) ?? 0) }
                index += 4
            default: scalar = UInt32(escaped)
            }
            if let high = pendingHighSurrogate {
                pendingHighSurrogate = nil
                if (0xDC00...0xDFFF).contains(scalar) {
                    append(0x10000 + ((high - 0xD800) << 10) + (scalar - 0xDC00))
                    continue
                }
                append(0xFFFD)
            }
            if (0xD800...0xDBFF).contains(scalar) {
                pendingHighSurrogate = scalar
            } else {
                append(scalar)  // a lone low surrogate is not a scalar: U+FFFD
            }
        }
        if pendingHighSurrogate != nil { append(0xFFFD) }
        return String(scalars)
    }

    private mutating func parseNumber() throws(Failure) -> JSONValue {
        let start = position
        var negative = false
        if peek() == UInt8(ascii: "-") {
            negative = true
            position += 1
        }
        guard let first = peek(), first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9") else {
            throw failure("bad number")
        }
        position += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        let integerEnd = position
        var isInteger = true
        if peek() == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard try requireDigits() else { throw failure("bad fraction") }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
            guard try requireDigits() else { throw failure("bad exponent") }
        }
        if isInteger {
            // Accumulate negatively so that Int64.min parses; overflow falls back to Double.
            var value: Int64 = 0
            var overflow = false
            for index in (negative ? start + 1 : start)..<integerEnd {
                let digit = Int64(bytes[index] - UInt8(ascii: "0"))
                let (times, o1) = value.multipliedReportingOverflow(by: 10)
                let (next, o2) = times.subtractingReportingOverflow(digit)
                if o1 || o2 {
                    overflow = true
                    break
                }
                value = next
            }
            if !overflow {
                if negative { return .integer(value) }
                if value != .min { return .integer(-value) }
            }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        guard let double = Double(text), double.isFinite || readingLocatedValue else {
            throw failure("number out of range")
        }
        return JSONValue(number: double)
    }

    private mutating func skipDigits() {
        while let byte = peek(), byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") { position += 1 }
    }

    private mutating func requireDigits() throws(Failure) -> Bool {
        let start = position
        skipDigits()
        return position > start
    }
}
