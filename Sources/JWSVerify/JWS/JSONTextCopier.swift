/// Copies JSON text that the library's strict parser accepted (a token's payload) into a compact
/// line (`jwsverify batch`'s): whitespace between tokens removed, strings escaped as ``JSONWriter`` escapes them,
/// and members at given paths replaced by other values. Member order stays the token's.
///
/// Copying the bytes costs a fraction of building a ``JSONValue`` tree and writing it with sorted keys,
/// which was most of the cost of a compact line. The copier trusts nothing it reads: it checks every
/// index, refuses what is not JSON, a key written with escapes when a replacement is asked for (so that
/// no spelling of `data` can hide a nested token from its replacement), nesting deeper than the
/// parser's limit, and bytes that are not UTF-8; the caller then writes the tree instead. The one
/// shortcut, ``copy(parsed:replacing:into:)``, appends text the library parsed as it is when its bytes
/// show that the copy would be the same (printable ASCII, nothing to escape or remove).
package struct JSONTextCopier {
    /// Writes a replacement value.
    package typealias Writer = (inout [UInt8]) -> Void

    /// Whether the copy failed (then `out` holds a partial copy the caller discards).
    private struct Refused: Error {}

    /// What the copier reads next.
    private enum Expect {
        /// A value: the text's own, a member's after `:`, an element after `,`.
        case value
        /// After `[`: an element or `]`.
        case elementOrClose
        /// After `{`: a member name or `}`.
        case nameOrClose
        /// After `,` in an object: a member name.
        case name
        /// After a member name: `:`.
        case colon
        /// After a member or an element: `,` or the container's close.
        case commaOrClose
    }

    /// The deepest a value may be nested: the parser's limit, within what the copier's stack of open
    /// containers (one bit each) holds.
    private static let maximumDepth = min(JSONParser.defaultMaximumDepth, 63)

    private let bytes: [UInt8]
    private let replacements: [String: Writer]
    private var position = 0
    /// Where the bytes read but not yet copied start: they go to the output as one run when whitespace,
    /// a character to escape or a replaced member interrupts them, and at the end (compact payload text
    /// is then one run, instead of a byte at a time).
    private var pending = 0
    /// The replaced member whose own value is being read (and checked) but not copied: the depth at
    /// which that value ends, and what is written instead.
    private var skipping: (depth: Int, replacement: Writer)?

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
    package static func copy(
        _ json: [UInt8], replacing replacements: [String: Writer] = [:], into out: inout [UInt8]
    ) -> Bool {
        let start = out.count
        var copier = JSONTextCopier(json, replacements: replacements)
        let copied: Bool
        do {
            try copier.copyText(into: &out)
            copied = true
        } catch {
            copied = false
        }
        if !copied { out.removeSubrange(start...) }
        return copied
    }

    /// Appends a compact copy of JSON text that the library's strict parser accepted (a token's
    /// payload): the text itself when the copy would be the same bytes (``isCompactPlainText(_:)``, most
    /// payloads), else as ``copy(_:replacing:into:)`` copies it.
    ///
    /// The first case relies on the parse for the structure: only the bytes are checked, and they are
    /// printable ASCII.
    ///
    /// - Returns: false, with `out` as it was, when `json` is not one JSON value the copier can copy.
    package static func copy(
        parsed json: [UInt8], replacing replacements: [String: Writer] = [:], into out: inout [UInt8]
    ) -> Bool {
        if replacements.isEmpty, isCompactPlainText(json) {
            out.append(contentsOf: json)
            return true
        }
        return copy(json, replacing: replacements, into: &out)
    }

    /// Whether JSON text is its own compact copy: every byte printable ASCII other than `\\` (nothing to
    /// escape, no escape sequence), and every space inside a string (no whitespace to remove; tabs and
    /// line breaks are not printable). Without `\\`, every `"` starts or ends a string, so a space is
    /// inside one when an odd number of quotes precede it.
    ///
    /// The first test reads every byte in a loop without early exit (it vectorizes); spaces are found with
    /// `memchr` and the quotes before each are counted the same way.
    package static func isCompactPlainText(_ json: [UInt8]) -> Bool {
        guard InputShape.isPlainASCII(json.span) else { return false }
        var quotes = 0
        var start = 0
        while let space = ByteScanning.firstIndex(of: UInt8(ascii: " "), in: json, from: start) {
            quotes &+= count(of: UInt8(ascii: "\""), in: json.span.extracting(start..<space))
            guard quotes & 1 == 1 else { return false }
            start = space + 1
        }
        return true
    }

    /// How many bytes of `bytes` are `byte`: counted in blocks of at most 255 bytes into one byte each, a loop
    /// without a branch that the compiler vectorizes (16 bytes a step; the plain loop over `Int` ran about five
    /// instructions a byte).
    private static func count(of byte: UInt8, in bytes: Span<UInt8>) -> Int {
        var count = 0
        var start = 0
        while start < bytes.count {
            let end = min(start + 255, bytes.count)
            var inBlock: UInt8 = 0
            var index = start
            while index < end {
                inBlock &+= bytes[index] == byte ? 1 : 0
                index &+= 1
            }
            count += Int(inBlock)
            start = end
        }
        return count
    }

    /// Reads the text in one loop, a token at a time, keeping the open containers on a stack of bits.
    private mutating func copyText(into out: inout [UInt8]) throws(Refused) {
        let tracksPaths = !replacements.isEmpty
        // One bit per open container, the innermost lowest: 1 for an object, 0 for an array.
        var objects: UInt64 = 0
        var depth = 0
        // With replacements: the dotted path of each open container (nil for an array, anything in an
        // array, and anything in a skipped value), the path of the value read next, and its replacement.
        var paths: [String?] = []
        var valuePath: String? = ""
        var replacement: Writer?
        var expect = Expect.value
        // Ends a value: a skipped one is replaced; the text's own ends the loop.
        func endValue(into out: inout [UInt8]) -> Bool {
            if let skipped = skipping, skipped.depth == depth {
                pending = position
                skipping = nil
                skipped.replacement(&out)
            }
            expect = .commaOrClose
            return depth == 0
        }
        // The comma after a member or an element.
        func readComma() {
            position += 1
            if objects & 1 == 1 {
                expect = .name
            } else {
                expect = .value
                valuePath = nil
            }
        }
        func close(object: Bool, into out: inout [UInt8]) throws(Refused) -> Bool {
            guard depth > 0, (objects & 1 == 1) == object else { throw Refused() }
            position += 1
            objects >>= 1
            depth -= 1
            if tracksPaths { paths.removeLast() }
            return endValue(into: &out)
        }
        while true {
            if position < bytes.count, bytes[position] <= 0x20 { skipWhitespace(into: &out) }
            guard position < bytes.count else { throw Refused() }
            let byte = bytes[position]
            switch expect {
            case .value, .elementOrClose:
                if byte == UInt8(ascii: "]"), expect == .elementOrClose {
                    if try close(object: false, into: &out) { return try finish(into: &out) }
                    continue
                }
                guard depth <= Self.maximumDepth else { throw Refused() }
                if let writer = replacement {
                    flush(into: &out)
                    skipping = (depth, writer)
                    replacement = nil
                }
                switch byte {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    position += 1
                    let object = byte == UInt8(ascii: "{")
                    objects = objects << 1 | (object ? 1 : 0)
                    depth += 1
                    if tracksPaths { paths.append(object && skipping == nil ? valuePath : nil) }
                    if !object { valuePath = nil }
                    expect = object ? .nameOrClose : .elementOrClose
                    continue
                case UInt8(ascii: "\""):
                    position += 1
                    if !skipPlainRun() { _ = try stringRest(into: &out) }
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "t"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"):
                    // A number or literal: its bytes up to the next delimiter, each one a character they may hold.
                    while position < bytes.count {
                        let next = bytes[position]
                        guard
                            (0x30...0x39).contains(next) || (0x61...0x7A).contains(next)
                                || next == UInt8(ascii: "-") || next == UInt8(ascii: "+") || next == UInt8(ascii: ".")
                                || next == UInt8(ascii: "E")
                        else { break }
                        position += 1
                    }
                default: throw Refused()
                }
                if endValue(into: &out) { return try finish(into: &out) }
                // Compact text: the comma is read here rather than on another turn of the loop.
                if position < bytes.count, bytes[position] == UInt8(ascii: ",") { readComma() }
            case .nameOrClose, .name:
                if byte == UInt8(ascii: "}"), expect == .nameOrClose {
                    if try close(object: true, into: &out) { return try finish(into: &out) }
                    continue
                }
                guard byte == UInt8(ascii: "\"") else { throw Refused() }
                if let objectPath = tracksPaths ? paths[paths.count - 1] : nil {
                    // A name spelled with escapes could name a replaced member: refuse rather than guess.
                    guard let name = try string(keeping: true, into: &out) else { throw Refused() }
                    let memberPath = objectPath.isEmpty ? name : objectPath + "." + name
                    valuePath = memberPath
                    replacement = replacements[memberPath]
                } else {
                    position += 1
                    if !skipPlainRun() { _ = try stringRest(into: &out) }
                    valuePath = nil
                }
                // Compact text: the colon is read here rather than on another turn of the loop.
                if position < bytes.count, bytes[position] == UInt8(ascii: ":") {
                    position += 1
                    expect = .value
                } else {
                    expect = .colon
                }
            case .colon:
                guard byte == UInt8(ascii: ":") else { throw Refused() }
                position += 1
                expect = .value
            case .commaOrClose:
                switch byte {
                case UInt8(ascii: ","): readComma()
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if try close(object: byte == UInt8(ascii: "}"), into: &out) { return try finish(into: &out) }
                default: throw Refused()
                }
            }
        }
    }

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    /// After the text's value: only whitespace may follow.
    private mutating func finish(into out: inout [UInt8]) throws(Refused) {
        skipWhitespace(into: &out)
        guard position == bytes.count else { throw Refused() }
        flush(into: &out)
    }

    /// Appends the pending run, the bytes from ``pending`` up to ``position`` (not while skipping).
    private mutating func flush(into out: inout [UInt8]) {
        if skipping == nil, pending < position { out.append(contentsOf: bytes[pending..<position]) }
        pending = position
    }

    /// Skips whitespace, which is not copied.
    private mutating func skipWhitespace(into out: inout [UInt8]) {
        guard position < bytes.count, Self.isWhitespace(bytes[position]) else { return }
        flush(into: &out)
        while position < bytes.count, Self.isWhitespace(bytes[position]) { position += 1 }
        pending = position
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Copies a string, escaping what ``JSONWriter`` escapes and keeping its escape sequences.
    ///
    /// - Parameter keeping: Whether to return the string (member names compared with paths).
    /// - Returns: the string when kept and written without escape sequences.
    private mutating func string(keeping: Bool, into out: inout [UInt8]) throws(Refused) -> String? {
        let open = position
        position += 1
        let plain = skipPlainRun() ? true : try stringRest(into: &out)
        guard keeping, plain else { return nil }
        return String(decoding: bytes[(open + 1)..<(position - 1)], as: UTF8.self)
    }

    /// Skips the bytes of a string from ``position`` that need no escape (printable ASCII other than `"`
    /// and `\\`, most of a payload): eight bytes at a time up to the first other byte, then a byte at a
    /// time near the end of the text.
    ///
    /// - Returns: whether they ran up to the string's closing quote, which is then skipped too.
    private mutating func skipPlainRun() -> Bool {
        while position &+ 8 <= bytes.count {
            let others = JSONWriter.bytesToCheck(ByteScanning.littleEndianWord(bytes, at: position))
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
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { return false }
        position += 1
        return true
    }

    /// The rest of a string from a byte ``skipPlainRun()`` stopped at, other than its closing quote, up
    /// to and past that quote.
    ///
    /// - Returns: whether the string holds no escape sequence.
    private mutating func stringRest(into out: inout [UInt8]) throws(Refused) -> Bool {
        var plain = true
        repeat {
            guard let byte = current else { throw Refused() }
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
            if skipping == nil { JSONWriter.writeEscaped(bytes, at: position, length: length, into: &out) }
            position += length
            pending = position
        } while !skipPlainRun()
        return plain
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
