/// The exact JSON text of one string or number, as a caller wrote it: what `batch` echoes as a line's `id`.
///
/// Only ``InputShape`` makes one, from text the strict parser accepted as a string or a number and that holds no
/// character ``JSONWriter`` would escape; so its bytes are valid JSON, safe to print, and written back byte for byte.
/// Echoing the text instead of re-rendering the parsed value keeps distinct ids distinct: `9223372036854775808` and
/// `9223372036854775809` parse to the same `Double`, `"\ud800"` and `"\udbff"` to the same U+FFFD.
package struct JSONLiteral: Sendable, Hashable {
    /// The JSON text.
    package let bytes: [UInt8]

    fileprivate init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = Array(bytes)
    }
}

/// Signed data as an input held it, with the caller's `id` when the input was an object carrying one.
package struct ShapedInput: Sendable {
    /// A token, as the input held it.
    package enum Token: Sendable {
        /// As a string.
        case string(String)
        /// As its bytes, printable ASCII (the plain object's token, copied from the line).
        case utf8([UInt8])

        /// The token text.
        package var string: String {
            switch self {
            case .string(let token): return token
            case .utf8(let bytes): return String(decoding: bytes, as: UTF8.self)
            }
        }

        /// The token's UTF-8 bytes.
        package var utf8: [UInt8] {
            switch self {
            case .string(let token): return Array(token.utf8)
            case .utf8(let bytes): return bytes
            }
        }
    }

    /// What the input holds.
    package enum Content: Sendable {
        /// A compact JWS (App Store signed data).
        case token(Token)
        /// An app receipt, as the receipt verifier takes it: the receipt file's bytes or base64 text of them.
        case receipt([UInt8])
    }

    /// What the input holds.
    package var content: Content
    /// The input object's `id` member, as written.
    package var id: JSONLiteral?

    /// The token, when the input holds one.
    package var token: Token? {
        if case .token(let token) = content { return token }
        return nil
    }
}

/// Why an input holds nothing in an accepted shape, with the `id` when one could be read.
package struct ShapeFailure: Error, Sendable, Equatable {
    /// What is wrong, ending with the shapes expected.
    package var message: String
    /// The input object's `id`, when the object parsed and its `id` could be echoed.
    package var id: JSONLiteral?
    /// Whether the input was meant as an app receipt (a `receipt-data` object, or receipt input): the failure
    /// is then `malformedReceipt`, else `malformedToken`.
    package var receipt = false

    /// The failure as the verifier would report such input: `malformedReceipt` or `malformedToken`, check `format`.
    package var error: VerificationError {
        receipt
            ? VerificationError(.malformedReceipt, check: .format, message)
            : VerificationError(.malformedToken, check: .format, message)
    }
}

/// The one place that decides what an input holds: a token (bare, a JSON string, `{"token": ...}`,
/// `{"signedPayload": ...}`), an app receipt (its file's bytes, base64, a JSON string of that, the `verifyReceipt`
/// body `{"receipt-data": ...}`), each object with an optional `id`.
///
/// Objects and strings are read with the library's strict parser (``JSONParser``): a repeated member name is
/// refused, never resolved either way; so is an object with two of `token`, `signedPayload` and `receipt-data`.
/// Other members (`password`, `exclude-old-transactions`, an `expect`) are ignored. An `id` must be a string or a
/// number; it is kept as written (``JSONLiteral``), and an `id` that cannot be echoed as written is refused.
/// Surrounding ASCII whitespace of text is ignored.
package enum InputShape {
    /// The members that may hold a token, in the order messages name them.
    package static let tokenMembers = ["token", "signedPayload"]
    /// The member of a `verifyReceipt` request body that holds the receipt.
    package static let receiptDataMember = "receipt-data"
    /// The member that carries the caller's id.
    package static let idMember = "id"

    /// The token shapes, as messages name them.
    package static let expectedToken =
        "expected a bare token, a JSON string holding one, or a JSON object with a \"token\" or"
        + " \"signedPayload\" string member and an optional \"id\" string or number"

    /// The receipt shapes, as messages name them.
    package static let expectedReceipt =
        "expected the receipt file's bytes, base64 of them, a JSON string holding that base64, or a JSON object"
        + " with a \"\(receiptDataMember)\" string member"

    // MARK: Tokens and batch lines

    /// Reads one whole token input (``read(_:range:what:receipts:)`` over all of `bytes`).
    package static func read(_ bytes: [UInt8], what: String) -> Result<ShapedInput, ShapeFailure> {
        read(bytes, range: bytes.indices, what: what)
    }

    /// Reads one token input or `batch` line held in a range of a larger buffer.
    ///
    /// - Parameters:
    ///   - bytes: The buffer.
    ///   - range: Where the input is in `bytes`; surrounding ASCII whitespace is ignored.
    ///   - what: How messages name the input: `the line` or `the input`.
    ///   - receipts: Whether a `{"receipt-data": ...}` object is accepted (as a receipt; `batch`).
    /// - Returns: what the input holds and its id, or why it holds nothing accepted.
    package static func read(
        _ bytes: [UInt8], range: Range<Int>, what: String, receipts: Bool = false
    ) -> Result<ShapedInput, ShapeFailure> {
        let trimmed = bytes[range].trimmingASCIIWhitespace()
        switch trimmed.first {
        case UInt8(ascii: "{"):
            if let shaped = plainObject(in: bytes, range: trimmed.startIndex..<trimmed.endIndex, receipts: receipts) {
                return .success(shaped)
            }
            return object(trimmed, what: what, receipts: receipts)
        case UInt8(ascii: "\""):
            switch jsonString(trimmed, what: what) {
            case .success(let token): return .success(ShapedInput(content: .token(.string(token))))
            case .failure(let problem): return .failure(ShapeFailure(message: problem.text + "; " + expectedToken))
            }
        default:
            guard let token = ByteScanning.string(validatingUTF8: trimmed) else {
                return .failure(ShapeFailure(message: "\(what) is not UTF-8 text (binary data?); \(expectedToken)"))
            }
            return .success(ShapedInput(content: .token(.string(token))))
        }
    }

    /// ``read(_:range:what:receipts:)`` for `batch`: a line holds a receipt when it is a `{"receipt-data": ...}`
    /// object, or when the token read from it (bare, a JSON string, or an object's `token`) starts like base64 of a
    /// receipt (``ReceiptInputDescription/startsLikeReceipt(_:)``, judged by its first 24 characters); else a token.
    package static func readLine(_ bytes: [UInt8], range: Range<Int>) -> Result<ShapedInput, ShapeFailure> {
        read(bytes, range: range, what: "the line", receipts: true).map { shaped in
            // A token starts with "eyJ", base64 of a receipt with "MI": only those are looked at further.
            guard case .token(let token) = shaped.content else { return shaped }
            let start: [UInt8]
            switch token {
            case .string(let text):
                guard text.utf8.first == UInt8(ascii: "M") else { return shaped }
                start = Array(text.utf8.prefix(24))
            case .utf8(let text):
                guard text.first == UInt8(ascii: "M") else { return shaped }
                start = Array(text.prefix(24))
            }
            guard ReceiptInputDescription.startsLikeReceipt(start) else { return shaped }
            return ShapedInput(content: .receipt(token.utf8), id: shaped.id)
        }
    }

    /// The most members ``plainObject(in:range:)`` reads (its duplicate check compares every pair).
    package static let plainObjectMemberLimit = 8

    /// The token (or with `receipts`, the `receipt-data`) of an object that is plainly valid, read without the
    /// parser: nil when the object is anything else, and the caller then parses it with the strict parser.
    ///
    /// The fast path of `batch`'s NDJSON lines: the wrapper line (`{"expect":"verified","token":"eyJ…"}`) and the
    /// `verifyReceipt` body (`{"receipt-data": "MII…", "password": "…", "id": 7}`). It accepts only an object of at
    /// most ``plainObjectMemberLimit`` members whose names are strings of printable ASCII without escapes
    /// (0x20–0x7E except `"` and `\`), separated by spaces only, with distinct names, and exactly one of
    /// ``tokenMembers`` (and `receipt-data` when `receipts`; without, none) whose value is such a string; the other
    /// values are such strings, integers of at most 18 digits without a leading zero (`-?(0|[1-9][0-9]*)`, which the
    /// parser reads as integers), or `true`, `false` and `null` (an `id` only a string or an integer). The strict
    /// parser accepts every such object and reads it to the same token or receipt and `id`; every other input takes
    /// the parser's path, so that what is refused, and its message, stay the parser's.
    package static func plainObject(in bytes: [UInt8], range: Range<Int>, receipts: Bool = false) -> ShapedInput? {
        var position = range.lowerBound
        let end = range.upperBound
        let quote = UInt8(ascii: "\"")
        func skipSpaces() {
            while position < end, bytes[position] == UInt8(ascii: " ") { position += 1 }
        }
        // A string of plain ASCII: the range of its body, after which `position` is past the closing quote.
        func plainString() -> Range<Int>? {
            guard position < end, bytes[position] == quote else { return nil }
            let start = position + 1
            guard let close = ByteScanning.firstIndex(of: quote, in: bytes, from: start, before: end),
                isPlainASCII(bytes.span.extracting(start..<close))
            else { return nil }
            position = close + 1
            return start..<close
        }
        // An integer of at most 18 digits without a leading zero: its range, after which `position` is past it.
        func plainInteger() -> Range<Int>? {
            let start = position
            if position < end, bytes[position] == UInt8(ascii: "-") { position += 1 }
            let digits = position
            while position < end, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") {
                position += 1
            }
            let count = position - digits
            guard count >= 1, count <= 18, count == 1 || bytes[digits] != UInt8(ascii: "0") else {
                position = start
                return nil
            }
            return start..<position
        }
        // `true`, `false` or `null`.
        func plainLiteral() -> Bool {
            for literal in ["true", "false", "null"] {
                let literalEnd = position + literal.utf8.count
                if literalEnd <= end, bytes[position..<literalEnd].elementsEqual(literal.utf8) {
                    position = literalEnd
                    return true
                }
            }
            return false
        }
        guard position < end, bytes[position] == UInt8(ascii: "{") else { return nil }
        position += 1
        var names: [Range<Int>] = []
        names.reserveCapacity(plainObjectMemberLimit)  // one allocation, not one per doubling
        var signed: Range<Int>?
        var signedIsReceipt = false
        var signedMembersSeen = 0
        var id: Range<Int>?
        skipSpaces()
        guard position < end, bytes[position] != UInt8(ascii: "}") else { return nil }
        while true {
            skipSpaces()
            guard let name = plainString() else { return nil }
            skipSpaces()
            guard position < end, bytes[position] == UInt8(ascii: ":") else { return nil }
            position += 1
            skipSpaces()
            guard names.count < plainObjectMemberLimit,
                !names.contains(where: { bytes[$0].elementsEqual(bytes[name]) })
            else { return nil }
            names.append(name)
            let nameBytes = bytes[name]
            func named(_ name: [UInt8]) -> Bool { nameBytes.count == name.count && nameBytes.elementsEqual(name) }
            let isToken = PlainNames.tokens.contains(where: named)
            let isReceipt = named(PlainNames.receiptData)
            if isToken || isReceipt {
                guard receipts || !isReceipt, let value = plainString() else { return nil }
                signedMembersSeen += 1
                signed = value
                signedIsReceipt = isReceipt
            } else if named(PlainNames.id) {
                // The id's text, quotes included for a string.
                if let value = plainString() {
                    id = (value.lowerBound - 1)..<(value.upperBound + 1)
                } else if let value = plainInteger() {
                    id = value
                } else {
                    return nil
                }
            } else if plainString() == nil, plainInteger() == nil, !plainLiteral() {
                return nil
            }
            skipSpaces()
            guard position < end else { return nil }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
                continue
            }
            guard bytes[position] == UInt8(ascii: "}"), position + 1 == end else { return nil }
            break
        }
        guard signedMembersSeen == 1, let signed else { return nil }
        // The token or receipt is printable ASCII: its bytes go to the verifier as they are, without a `String`.
        // The id is plain ASCII too: its text is echoed as it is.
        let content: ShapedInput.Content =
            signedIsReceipt ? .receipt(Array(bytes[signed])) : .token(.utf8(Array(bytes[signed])))
        return ShapedInput(content: content, id: id.map { JSONLiteral(bytes[$0]) })
    }

    /// The member names ``plainObject(in:range:receipts:)`` looks for, as bytes: compared by length, then byte by
    /// byte (against a string's UTF-8 view, each comparison walked the view).
    private enum PlainNames {
        static let tokens = tokenMembers.map { Array($0.utf8) }
        static let receiptData = Array(receiptDataMember.utf8)
        static let id = Array(idMember.utf8)
    }

    /// Whether every byte is printable ASCII other than `\\` (0x20–0x7E, 0x5C excepted); written without early
    /// exit, so that the loop vectorizes.
    package static func isPlainASCII(_ bytes: Span<UInt8>) -> Bool {
        var refused: UInt8 = 0
        for index in bytes.indices {
            let byte = bytes[index]
            refused |= (byte &- 0x20 >= 0x5F ? 1 : 0) | (byte == UInt8(ascii: "\\") ? 1 : 0)
        }
        return refused == 0
    }

    /// A problem with an input, in words, before the expected shapes are appended.
    package struct Problem: Error {
        /// The sentence.
        package let text: String

        init(_ text: String) {
            self.text = text
        }
    }

    /// What is wrong with an object that should hold signed data, before it is put in words.
    package enum ObjectProblem: Error, Equatable {
        /// Not one strict JSON object: the parser's reason and byte offset.
        case notJSON(reason: String, offset: Int)
        /// None of the accepted members.
        case missing
        /// More than one of the accepted members.
        case ambiguous([String])
        /// The member is not a string.
        case notString(String)
    }

    /// The string member of a parsed object that holds the signed data: exactly one of `names` must be present,
    /// and a string. The one reading of `{"signedPayload": ...}`, `{"token": ...}` and `{"receipt-data": ...}`,
    /// for the CLI's inputs and the HTTP bodies (``NotificationRequestBody``).
    ///
    /// - Returns: the member's name and value, or what is wrong.
    package static func member(
        of members: [String: JSONValue], named names: [String]
    ) -> Result<(name: String, value: String), ObjectProblem> {
        let present = names.filter { members[$0] != nil }
        guard present.count == 1, let name = present.first else {
            return .failure(present.isEmpty ? .missing : .ambiguous(present))
        }
        guard case .string(let value)? = members[name] else { return .failure(.notString(name)) }
        return .success((name, value))
    }

    /// Reads an object with the strict parser: every shape and failure (see ``plainObject(in:range:)`` for the
    /// fast path).
    static func object(
        _ trimmed: ArraySlice<UInt8>, what: String, receipts: Bool
    ) -> Result<ShapedInput, ShapeFailure> {
        let text = Array(trimmed)
        let parsed: (members: [String: JSONValue], located: Range<Int>?)
        do {
            parsed = try JSONParser.parseObject(text, locating: idMember)
        } catch {
            return .failure(
                ShapeFailure(
                    message: "\(what) starts with '{' but is not a JSON object: \(EscapedText.escaped(error.reason))"
                        + " at byte \(error.offset); \(expectedToken)"))
        }
        let isReceipt = receipts && parsed.members[receiptDataMember] != nil
        let expected = isReceipt ? expectedReceipt : expectedToken
        var id: JSONLiteral?
        if let range = parsed.located {
            switch literal(text[range], value: parsed.members[idMember]) {
            case .success(let value): id = value
            case .failure(let problem):
                return .failure(ShapeFailure(message: "\(problem.text); \(expected)", receipt: isReceipt))
            }
        }
        let names = receipts ? tokenMembers + [receiptDataMember] : tokenMembers
        switch member(of: parsed.members, named: names) {
        case .success(let found):
            if found.name == receiptDataMember {
                return .success(ShapedInput(content: .receipt(Array(found.value.utf8)), id: id))
            }
            return .success(ShapedInput(content: .token(.string(found.value)), id: id))
        case .failure(let problem):
            let sentence: String
            switch problem {
            case .missing: sentence = "the object has no \"token\" or \"signedPayload\" member"
            case .ambiguous(let present):
                sentence = "the object has both \(present.map { "\"\($0)\"" }.joined(separator: " and ")): ambiguous"
            case .notString(let name): sentence = "the object's \"\(name)\" is not a string"
            case .notJSON: sentence = "the object is not JSON"
            }
            return .failure(ShapeFailure(message: "\(sentence); \(expected)", id: id, receipt: isReceipt))
        }
    }

    /// The `id`'s text as a ``JSONLiteral``, or why it cannot be echoed: not a string or a number, or a string
    /// holding a character the writer escapes (DEL, C1 controls, U+2028, U+2029, bidirectional formatting), which
    /// could not be echoed both as written and safe to print.
    static func literal(_ text: ArraySlice<UInt8>, value: JSONValue?) -> Result<JSONLiteral, Problem> {
        switch value {
        case .string?, .integer?, .double?: break
        default: return .failure(Problem("the object's \"\(idMember)\" is neither a string nor a number"))
        }
        var index = text.startIndex
        while index < text.endIndex {
            let byte = text[index]
            let delimiter = byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
            if !delimiter, JSONWriter.escapeLength(text, at: index) > 0 {
                return .failure(
                    Problem(
                        "the object's \"\(idMember)\" holds a character that is not echoed as written (a control,"
                            + " line separator or bidirectional formatting character): write it as a \\u escape"))
            }
            index += 1
        }
        return .success(JSONLiteral(text))
    }

    /// The string `trimmed` (which starts with '"') holds as a JSON string: a token, or a receipt's base64.
    ///
    /// - Returns: the string, or the problem in words (without the expected shapes).
    package static func jsonString(_ trimmed: ArraySlice<UInt8>, what: String) -> Result<String, Problem> {
        let value: JSONValue
        do {
            value = try JSONParser.parseValue(Array(trimmed))
        } catch {
            return .failure(
                Problem(
                    "\(what) starts with '\"' but is not a JSON string: \(EscapedText.escaped(error.reason)) at"
                        + " byte \(error.offset)"))
        }
        guard case .string(let text) = value else { return .failure(Problem("\(what) is not a JSON string")) }
        return .success(text)
    }
}

extension ArraySlice where Element == UInt8 {
    /// The bytes without leading and trailing ASCII whitespace (space, tab, LF, VT, FF, CR).
    package func trimmingASCIIWhitespace() -> ArraySlice<UInt8> {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
        var start = startIndex
        var end = endIndex
        while start < end, isSpace(self[start]) { start += 1 }
        while end > start, isSpace(self[end - 1]) { end -= 1 }
        return self[start..<end]
    }
}

extension Array where Element == UInt8 {
    /// The bytes without leading and trailing ASCII whitespace (space, tab, LF, VT, FF, CR).
    package func trimmingASCIIWhitespace() -> ArraySlice<UInt8> {
        self[...].trimmingASCIIWhitespace()
    }
}
