import JWSVerify

/// A token as an input held it, with the caller's `id` when the input was an object carrying one.
struct ShapedToken: Sendable {
    /// The token text.
    var token: String
    /// The input object's `id` member (a string or a number), echoed in `batch` results as given.
    var id: JSONValue?
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
/// parser reads every shape in one parse, so the `id` and `token` shapes need no second parse.
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
        let trimmed = bytes.trimmingASCIIWhitespace()
        switch trimmed.first {
        case UInt8(ascii: "{"):
            // The parser takes an array: reuse the line's own when nothing was trimmed.
            return object(trimmed.count == bytes.count ? bytes : Array(trimmed), what: what)
        case UInt8(ascii: "\""):
            let value: JSONValue
            do {
                value = try JSONParser.parseValue(Array(trimmed))
            } catch {
                return refuse(
                    "\(what) starts with '\"' but is not a JSON string: \(EscapedText.escaped(error.reason)) at byte"
                        + " \(error.offset)")
            }
            guard case .string(let token) = value else { return refuse("\(what) is not a JSON string") }
            return .success(ShapedToken(token: token))
        default:
            guard let token = String(validating: trimmed, as: UTF8.self) else {
                return refuse("\(what) is not UTF-8 text (binary data?)")
            }
            return .success(ShapedToken(token: token))
        }
    }

    private static func object(_ bytes: [UInt8], what: String) -> Result<ShapedToken, ShapeFailure> {
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

    private static func refuse(_ problem: String, id: JSONValue? = nil) -> Result<ShapedToken, ShapeFailure> {
        .failure(ShapeFailure(message: "\(problem); \(expected)", id: id))
    }
}
