import JWSVerify

/// Copies JSON text that the library's strict parser accepted (a token's payload) into a compact
/// `batch` line: whitespace between tokens removed, strings escaped as ``JSONWriter`` escapes them,
/// and members at given paths replaced by other values. Member order stays the token's.
///
/// Copying the bytes costs a fraction of building a ``JSONValue`` tree and writing it with sorted keys,
/// which was most of the cost of a compact line. The copier trusts nothing it reads: it checks every
/// index, refuses what is not JSON, a key written with escapes when a replacement is asked for (so that
/// no spelling of `data` can hide a nested token from its replacement), and nesting deeper than the
/// parser's limit; the caller then writes the tree instead.
struct JSONTextCopier {
    /// Writes a replacement value.
    typealias Writer = (inout [UInt8]) -> Void

    private let bytes: [UInt8]
    private let replacements: [String: Writer]
    private var position = 0
    /// Where the bytes read but not yet copied start: they go to the output as one run when whitespace,
    /// a character to escape or a replaced member interrupts them, and at the end (compact payload text
    /// is then one run, instead of a byte at a time).
    private var pending = 0

    /// Whether the copy failed (then `out` holds a partial copy the caller discards).
    private struct Refused: Error {}

    private init(_ bytes: [UInt8], replacements: [String: Writer]) {
        self.bytes = bytes
        self.replacements = replacements
    }

    /// Appends a compact copy of `json` to `out`, each member at a dotted path of `replacements`
    /// (`data.signedTransactionInfo`; arrays are not entered) written as its replacement instead.
    ///
    /// What it appends is UTF-8: a byte sequence that is not is refused.
    ///
    /// - Returns: false, with `out` as it was, when `json` is not one JSON value the copier can copy.
    static func copy(_ json: [UInt8], replacing replacements: [String: Writer] = [:], into out: inout [UInt8]) -> Bool {
        let start = out.count
        var copier = JSONTextCopier(json, replacements: replacements)
        let copied: Bool
        do {
            try copier.value(path: "", depth: 0, into: &out)
            copier.skipWhitespace(into: &out)
            copier.flush(into: &out)
            copied = copier.position == json.count
        } catch {
            copied = false
        }
        if !copied { out.removeSubrange(start...) }
        return copied
    }

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    /// Appends the pending run, the bytes from ``pending`` up to ``position``.
    private mutating func flush(into out: inout [UInt8]) {
        if pending < position { out.append(contentsOf: bytes[pending..<position]) }
        pending = position
    }

    /// Skips whitespace, which is not copied.
    private mutating func skipWhitespace(into out: inout [UInt8]) {
        guard let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D else { return }
        flush(into: &out)
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { position += 1 }
        pending = position
    }

    /// One value; `path` is its dotted path, nil inside an array (no replacement there).
    private mutating func value(path: String?, depth: Int, into out: inout [UInt8]) throws(Refused) {
        guard depth <= JSONParser.defaultMaximumDepth else { throw Refused() }
        skipWhitespace(into: &out)
        switch current {
        case UInt8(ascii: "{")?: try object(path: path, depth: depth + 1, into: &out)
        case UInt8(ascii: "[")?:
            position += 1
            skipWhitespace(into: &out)
            if current == UInt8(ascii: "]") {
                position += 1
                return
            }
            while true {
                try value(path: nil, depth: depth + 1, into: &out)
                skipWhitespace(into: &out)
                guard let byte = current, byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") else {
                    throw Refused()
                }
                position += 1
                if byte == UInt8(ascii: "]") { return }
            }
        case UInt8(ascii: "\"")?: _ = try string(keeping: false, into: &out)
        case let byte?
        where byte == UInt8(ascii: "-") || (0x30...0x39).contains(byte) || byte == UInt8(ascii: "t")
            || byte == UInt8(ascii: "f") || byte == UInt8(ascii: "n"):
            // A number or literal: its bytes up to the next delimiter, each one a character they may hold.
            while let next = current,
                (0x30...0x39).contains(next) || (0x61...0x7A).contains(next)
                    || next == UInt8(ascii: "-") || next == UInt8(ascii: "+") || next == UInt8(ascii: ".")
                    || next == UInt8(ascii: "E")
            {
                position += 1
            }
        default: throw Refused()
        }
    }

    private mutating func object(path: String?, depth: Int, into out: inout [UInt8]) throws(Refused) {
        position += 1
        skipWhitespace(into: &out)
        if current == UInt8(ascii: "}") {
            position += 1
            return
        }
        while true {
            skipWhitespace(into: &out)
            guard current == UInt8(ascii: "\"") else { throw Refused() }
            let key = try string(keeping: path != nil && !replacements.isEmpty, into: &out)
            skipWhitespace(into: &out)
            guard current == UInt8(ascii: ":") else { throw Refused() }
            position += 1
            var memberPath: String?
            if let path, !replacements.isEmpty {
                // A key spelled with escapes could name a replaced member: refuse rather than guess.
                guard let key else { throw Refused() }
                memberPath = path.isEmpty ? key : path + "." + key
            }
            if let memberPath, let replacement = replacements[memberPath] {
                // The member's own value is read (and checked) but not copied.
                skipWhitespace(into: &out)
                flush(into: &out)
                var skipped: [UInt8] = []
                try value(path: nil, depth: depth, into: &skipped)
                pending = position
                replacement(&out)
            } else {
                try value(path: memberPath, depth: depth, into: &out)
            }
            skipWhitespace(into: &out)
            guard let byte = current, byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") else { throw Refused() }
            position += 1
            if byte == UInt8(ascii: "}") { return }
        }
    }

    /// Copies a string, escaping what ``JSONWriter`` escapes and keeping its escape sequences.
    ///
    /// - Parameter keeping: Whether to return the string (member names compared with paths).
    /// - Returns: the string when kept and written without escape sequences.
    private mutating func string(keeping: Bool, into out: inout [UInt8]) throws(Refused) -> String? {
        let open = position
        position += 1
        var plain = true
        while true {
            // Printable ASCII other than `"` and `\` needs no escape (most of a payload): skipped eight
            // bytes at a time up to the first other byte, then a byte at a time near the end of the text,
            // before the byte-by-byte cases below.
            while position &+ 8 <= bytes.count {
                var word: UInt64 = 0
                var shift: UInt64 = 0
                for byte in bytes[position..<(position &+ 8)] {
                    word |= UInt64(byte) << shift
                    shift &+= 8
                }
                let others = JSONWriter.bytesToCheck(word)
                if others != 0 {
                    position &+= others.trailingZeroBitCount &>> 3
                    break
                }
                position &+= 8
            }
            while position < bytes.count {
                let byte = bytes[position]
                guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") else { break }
                position += 1
            }
            guard let byte = current else { throw Refused() }
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                // An escape: the backslash and the next byte are copied as they are (the parser checked them).
                guard position + 1 < bytes.count else { throw Refused() }
                plain = false
                position += 2
                continue
            }
            let sequence = byte < 0x80 ? 1 : try utf8SequenceLength()
            let length = JSONWriter.escapeLength(bytes, at: position)
            if length == 0 {
                position += sequence
                continue
            }
            flush(into: &out)
            JSONWriter.writeEscaped(bytes, at: position, length: length, into: &out)
            position += length
            pending = position
        }
        position += 1
        guard keeping, plain else { return nil }
        return String(decoding: bytes[(open + 1)..<(position - 1)], as: UTF8.self)
    }

    /// The length of the well-formed UTF-8 sequence (RFC 3629: no overlong form, no surrogate, at most
    /// U+10FFFF) that starts at ``position`` with a byte of 0x80 or more.
    private func utf8SequenceLength() throws(Refused) -> Int {
        let first = bytes[position]
        let length: Int
        var lower: UInt8 = 0x80
        var upper: UInt8 = 0xBF
        switch first {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            upper = 0x9F
        case 0xF0:
            length = 4
            lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            upper = 0x8F
        default: throw Refused()
        }
        guard position + length <= bytes.count, (lower...upper).contains(bytes[position + 1]) else { throw Refused() }
        for index in (position + 2)..<(position + length) where !(0x80...0xBF).contains(bytes[index]) {
            throw Refused()
        }
        return length
    }
}
