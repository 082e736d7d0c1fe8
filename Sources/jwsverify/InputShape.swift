import JWSVerify

/// A token as an input held it, with the caller's `id` when the input was an object carrying one.
struct ShapedToken: Sendable {
    /// How the token is held.
    enum Text: Sendable {
        /// As a string.
        case string(String)
        /// As its bytes, printable ASCII (the plain object's token, copied from the line).
        case utf8([UInt8])

        /// The token text.
        var string: String {
            switch self {
            case .string(let token): return token
            case .utf8(let bytes): return String(decoding: bytes, as: UTF8.self)
            }
        }
    }

    /// The token.
    var text: Text
    /// The input object's `id` member (a string or a number), echoed in `batch` results as given.
    var id: JSONValue?

    /// A token held as a string.
    init(token: String, id: JSONValue? = nil) {
        text = .string(token)
        self.id = id
    }

    /// A token held as its bytes.
    init(utf8 token: [UInt8], id: JSONValue? = nil) {
        text = .utf8(token)
        self.id = id
    }

    /// The token text.
    var token: String { text.string }
}

/// Why an input holds no token in any accepted shape, with the `id` when one could be read.
struct ShapeFailure: Error, Sendable {
    /// What is wrong, ending with the shapes expected (``InputShape/expected``).
    var message: String
    /// The input object's `id`, when the object parsed and its `id` is a string or a number.
    var id: JSONValue?
}

/// The one place that decides what a token input (a `batch` line, or the whole input of `verify` and
/// `inspect`) holds.
///
/// Accepted shapes, after surrounding ASCII whitespace is removed:
/// - a bare token: anything not starting with `{` or `"` (the verifier judges it; an empty input is
///   an empty token, which it reports as malformed);
/// - a JSON string holding the token (`"eyJ…"`);
/// - a JSON object with a `token` or a `signedPayload` string member (an App Store notification body is
///   `{"signedPayload": "…"}`) and optionally an `id`, a string or a number. Other members are ignored.
///
/// Objects and strings are read with the library's strict JSON parser: a repeated member name is
/// refused (`duplicate member name`), never resolved either way; so is an object with both `token` and
/// `signedPayload`. The library's `NotificationRequestBody(httpBody:)` reads Apple's body alone; this
/// parser reads every shape in one parse, so the `id` and `token` shapes need no second parse. A plain
/// object (``plainObject(in:range:)``, what `batch`'s NDJSON lines are) is scanned without the parser,
/// to the same token and `id`; every other object goes to the parser.
enum InputShape {
    /// The shapes, as messages name them.
    static let expected =
        "expected a bare token, a JSON string holding one, or a JSON object with a \"token\" or"
        + " \"signedPayload\" string member and an optional \"id\" string or number"

    /// The members that may hold the token, in the order messages name them.
    static let tokenMembers = ["token", "signedPayload"]
    /// The member that carries the caller's id.
    static let idMember = "id"

    /// Reads one input.
    ///
    /// - Parameters:
    ///   - bytes: The input (a line without its `\n`, or a whole file); surrounding ASCII whitespace is ignored.
    ///   - what: How messages name the input: `the line` or `the input`.
    /// - Returns: the token and id, or why there is none.
    static func read(_ bytes: [UInt8], what: String) -> Result<ShapedToken, ShapeFailure> {
        read(bytes, range: bytes.indices, what: what)
    }

    /// Reads one input held in a range of a larger buffer (a `batch` line in its chunk's buffer).
    ///
    /// - Parameters:
    ///   - bytes: The buffer.
    ///   - range: Where the input is in `bytes`; surrounding ASCII whitespace is ignored.
    ///   - what: How messages name the input: `the line` or `the input`.
    /// - Returns: the token and id, or why there is none.
    static func read(_ bytes: [UInt8], range: Range<Int>, what: String) -> Result<ShapedToken, ShapeFailure> {
        let trimmed = bytes[range].trimmingASCIIWhitespace()
        switch trimmed.first {
        case UInt8(ascii: "{"):
            if let shaped = plainObject(in: bytes, range: trimmed.startIndex..<trimmed.endIndex) {
                return .success(shaped)
            }
            // The parser takes an array: reuse the buffer itself when it is the whole input, untrimmed.
            return object(trimmed.count == bytes.count ? bytes : Array(trimmed), what: what)
        case UInt8(ascii: "\""):
            switch jsonString(trimmed, what: what) {
            case .success(let token): return .success(ShapedToken(token: token))
            case .failure(let problem): return refuse(problem.text)
            }
        default:
            guard let token = String(validating: trimmed, as: UTF8.self) else {
                return refuse("\(what) is not UTF-8 text (binary data?)")
            }
            return .success(ShapedToken(token: token))
        }
    }

    /// The most members ``plainObject(_:)`` reads (its duplicate check compares every pair).
    static let plainObjectMemberLimit = 8

    /// The token of an object that is plainly valid, read without the parser: nil when the object is
    /// anything else, and the caller then parses it with the strict parser (``object(_:what:)``).
    ///
    /// The fast path of `batch`'s NDJSON wrapper line (`{"expect":"verified","token":"eyJ…"}`): it
    /// accepts only an object of at most ``plainObjectMemberLimit`` members whose names and values are
    /// strings of printable ASCII without escapes (0x20–0x7E except `"` and `\`), separated by spaces
    /// only, with distinct names and exactly one of ``tokenMembers``. The strict parser accepts every
    /// such object and reads it to the same token and `id`; every other input, valid or not, takes the
    /// parser's path, so that what is refused, and its message, stay the parser's.
    ///
    /// - Parameters:
    ///   - line: The input.
    ///   - range: Where in `line` the input is without its surrounding whitespace.
    /// - Returns: the token and id, or nil when the object is not plain.
    static func plainObject(in line: [UInt8], range: Range<Int>) -> ShapedToken? {
        let bytes = line
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
            guard let close = ByteScanning.firstIndex(of: quote, in: bytes, from: start), close < end,
                isPlainASCII(bytes.span.extracting(start..<close))
            else { return nil }
            position = close + 1
            return start..<close
        }
        guard position < end, bytes[position] == UInt8(ascii: "{") else { return nil }
        position += 1
        var names: [Range<Int>] = []
        var token: Range<Int>?
        var tokenMembersSeen = 0
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
            guard let value = plainString() else { return nil }
            guard names.count < plainObjectMemberLimit,
                !names.contains(where: { bytes[$0].elementsEqual(bytes[name]) })
            else { return nil }
            names.append(name)
            let nameBytes = bytes[name]
            if nameBytes.elementsEqual("token".utf8) || nameBytes.elementsEqual("signedPayload".utf8) {
                tokenMembersSeen += 1
                token = value
            } else if nameBytes.elementsEqual(idMember.utf8) {
                id = value
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
        guard tokenMembersSeen == 1, let token else { return nil }
        // The token is printable ASCII: its bytes go to the verifier as they are, without a `String`.
        return ShapedToken(
            utf8: Array(bytes[token]), id: id.map { .string(String(decoding: bytes[$0], as: UTF8.self)) })
    }

    /// Whether every byte is printable ASCII other than `\\` (0x20–0x7E, 0x5C excepted); written
    /// without early exit, so that the loop vectorizes.
    static func isPlainASCII(_ bytes: Span<UInt8>) -> Bool {
        var refused: UInt8 = 0
        for index in bytes.indices {
            let byte = bytes[index]
            refused |= (byte &- 0x20 >= 0x5F ? 1 : 0) | (byte == UInt8(ascii: "\\") ? 1 : 0)
        }
        return refused == 0
    }

    /// Reads an object with the strict parser (every shape and failure; see ``plainObject(_:)`` for the
    /// fast path).
    static func object(_ bytes: [UInt8], what: String) -> Result<ShapedToken, ShapeFailure> {
        let members: [String: JSONValue]
        do {
            members = try JSONParser.parseObject(bytes)
        } catch {
            return refuse(
                "\(what) starts with '{' but is not a JSON object: \(EscapedText.escaped(error.reason)) at byte"
                    + " \(error.offset)")
        }
        var id: JSONValue?
        if let given = members[idMember] {
            switch given {
            case .string, .integer, .double: id = given
            default: return refuse("the object's \"\(idMember)\" is neither a string nor a number")
            }
        }
        let present = tokenMembers.filter { members[$0] != nil }
        guard present.count == 1, let name = present.first else {
            let problem =
                present.isEmpty
                ? "the object has no \"token\" or \"signedPayload\" member"
                : "the object has both \"token\" and \"signedPayload\": ambiguous"
            return refuse(problem, id: id)
        }
        guard case .string(let token)? = members[name] else {
            return refuse("the object's \"\(name)\" is not a string", id: id)
        }
        return .success(ShapedToken(token: token, id: id))
    }

    /// A problem with the input's shape, before the list of expected shapes is appended.
    struct Problem: Error {
        let text: String
    }

    /// The string `trimmed` (which starts with '"') holds as a JSON string: a token, or a receipt's base64.
    static func jsonString(_ trimmed: ArraySlice<UInt8>, what: String) -> Result<String, Problem> {
        let value: JSONValue
        do {
            value = try JSONParser.parseValue(Array(trimmed))
        } catch {
            return .failure(
                Problem(
                    text: "\(what) starts with '\"' but is not a JSON string: \(EscapedText.escaped(error.reason)) at"
                        + " byte \(error.offset)"))
        }
        guard case .string(let text) = value else { return .failure(Problem(text: "\(what) is not a JSON string")) }
        return .success(text)
    }

    private static func refuse(_ problem: String, id: JSONValue? = nil) -> Result<ShapedToken, ShapeFailure> {
        .failure(ShapeFailure(message: "\(problem); \(expected)", id: id))
    }
}
