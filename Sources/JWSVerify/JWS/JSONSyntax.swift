/// A strict, allocation-light JSON syntax check (RFC 8259) run on header and payload bytes before
/// any decoder sees them.
///
/// It answers one question, "is this exactly one JSON object?", in a single linear pass, and
/// enforces what a general-purpose decoder does not:
/// - a nesting limit (default 32), so that no input can drive a recursive decoder deep;
/// - valid UTF-8 and no raw control characters inside strings;
/// - no duplicate member names in any object (RFC 7515 §5.2 allows rejecting them, and different
///   parsers disagree on which duplicate wins), comparing names after unescaping.
package struct JSONSyntax {
    /// Why the input is not accepted.
    package struct Failure: Error, Sendable {
        package let reason: String
        package let offset: Int
    }

    package static let defaultMaximumDepth = 32

    private let bytes: UnsafeBufferPointer<UInt8>
    private let maximumDepth: Int
    private var position = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    /// Succeeds when `bytes` is one JSON object (with optional surrounding whitespace) within the limits.
    package static func validateObject(
        _ bytes: UnsafeBufferPointer<UInt8>,
        maximumDepth: Int = defaultMaximumDepth
    ) throws(Failure) {
        var parser = JSONSyntax(bytes, maximumDepth: maximumDepth)
        parser.skipWhitespace()
        guard parser.peek() == UInt8(ascii: "{") else {
            throw parser.failure("not a JSON object")
        }
        try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.position == bytes.count else { throw parser.failure("data after the JSON object") }
    }

    /// Succeeds when `bytes` is one JSON object within the limits.
    package static func validateObject(_ bytes: [UInt8], maximumDepth: Int = defaultMaximumDepth) throws(Failure) {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(Failure) in try validateObject(buffer, maximumDepth: maximumDepth) }
        }
        try result.get()
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

    private mutating func parseValue(depth: Int) throws(Failure) {
        skipWhitespace()
        guard let byte = peek() else { throw failure("unexpected end") }
        switch byte {
        case UInt8(ascii: "{"): try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): _ = try parseString(collect: false)
        case UInt8(ascii: "t"): try expect("true")
        case UInt8(ascii: "f"): try expect("false")
        case UInt8(ascii: "n"): try expect("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try parseNumber()
        default: throw failure("unexpected character")
        }
    }

    private mutating func parseObject(depth: Int) throws(Failure) {
        guard depth <= maximumDepth else { throw failure("nested deeper than \(maximumDepth)") }
        position += 1  // {
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            position += 1
            return
        }
        var names: [MemberName] = []
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw failure("expected a member name") }
            let nameStart = position
            guard let name = try parseString(collect: true) else { throw failure("bad member name") }
            for other in names where sameName(other, name) {
                position = nameStart
                throw failure("duplicate member name")
            }
            names.append(name)
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw failure("expected ':'") }
            position += 1
            try parseValue(depth: depth)
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                return
            default: throw failure("expected ',' or '}'")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(Failure) {
        guard depth <= maximumDepth else { throw failure("nested deeper than \(maximumDepth)") }
        position += 1  // [
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            position += 1
            return
        }
        while true {
            try parseValue(depth: depth)
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"):
                position += 1
                return
            default: throw failure("expected ',' or ']'")
            }
        }
    }

    /// A member name for duplicate detection: its byte range in the input when it has no escapes
    /// (the common case), else its unescaped UTF-8.
    private struct MemberName {
        var start: Int
        var end: Int
        var unescaped: [UInt8]?
        var hash: Int
    }

    private func sameName(_ lhs: MemberName, _ rhs: MemberName) -> Bool {
        guard lhs.hash == rhs.hash else { return false }
        switch (lhs.unescaped, rhs.unescaped) {
        case (let left?, let right?): return left == right
        case (nil, nil):
            guard lhs.end - lhs.start == rhs.end - rhs.start else { return false }
            for offset in 0..<(lhs.end - lhs.start) where bytes[lhs.start + offset] != bytes[rhs.start + offset] {
                return false
            }
            return true
        case (let left?, nil): return left.elementsEqual(bytes[rhs.start..<rhs.end])
        case (nil, let right?): return right.elementsEqual(bytes[lhs.start..<lhs.end])
        }
    }

    /// Parses a string at `position` (which holds the opening quote). With `collect`, returns the
    /// name for duplicate detection.
    private mutating func parseString(collect: Bool) throws(Failure) -> MemberName? {
        position += 1  // opening quote
        let start = position
        var hasEscape = false
        while true {
            guard position < bytes.count else { throw failure("unterminated string") }
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                let end = position
                position += 1
                guard collect else { return nil }
                return makeName(start: start, end: end, hasEscape: hasEscape)
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

    private func makeName(start: Int, end: Int, hasEscape: Bool) -> MemberName {
        var hasher = Hasher()
        if hasEscape {
            let unescaped = Self.unescape(UnsafeBufferPointer(rebasing: bytes[start..<end]))
            unescaped.withUnsafeBytes { hasher.combine(bytes: $0) }
            return MemberName(start: start, end: end, unescaped: unescaped, hash: hasher.finalize())
        }
        hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[start..<end])))
        return MemberName(start: start, end: end, unescaped: nil, hash: hasher.finalize())
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    /// Unescapes an already validated JSON string body into UTF-8 (lone surrogates become U+FFFD).
    private static func unescape(_ body: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(body.count)
        var index = 0
        var pendingHighSurrogate: UInt32?
        func appendScalar(_ value: UInt32, to output: inout [UInt8]) {
            let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
            output.append(contentsOf: Array(String(Character(scalar)).utf8))
        }
        while index < body.count {
            let byte = body[index]
            guard byte == UInt8(ascii: "\\") else {
                if let high = pendingHighSurrogate {
                    appendScalar(high, to: &output)
                    pendingHighSurrogate = nil
                }
                output.append(byte)
                index += 1
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
                    appendScalar(0x10000 + ((high - 0xD800) << 10) + (scalar - 0xDC00), to: &output)
                    continue
                }
                appendScalar(0xFFFD, to: &output)
            }
            if (0xD800...0xDBFF).contains(scalar) {
                pendingHighSurrogate = scalar
            } else {
                appendScalar(scalar, to: &output)
            }
        }
        if let high = pendingHighSurrogate { appendScalar(high, to: &output) }
        return output
    }

    private mutating func parseNumber() throws(Failure) {
        if peek() == UInt8(ascii: "-") { position += 1 }
        guard let first = peek(), first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9") else {
            throw failure("bad number")
        }
        position += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if peek() == UInt8(ascii: ".") {
            position += 1
            guard try requireDigits() else { throw failure("bad fraction") }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            position += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { position += 1 }
            guard try requireDigits() else { throw failure("bad exponent") }
        }
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
