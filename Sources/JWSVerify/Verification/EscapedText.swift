/// Text that came from a token, made safe for a log line or a terminal.
///
/// Every message and report detail that quotes token bytes (an `alg`, a bundle id, a member name, an
/// environment) passes through ``escaped(_:)``: anyone who can send a token chooses those bytes, and a
/// raw newline or escape sequence in a log line forges the lines after it.
public enum EscapedText {
    /// `text` with every character that does not print as itself escaped: C0 controls (`\n`, `\r`,
    /// `\t`, else `\u001B` style), DEL and C1 controls, the line and paragraph separators (U+2028,
    /// U+2029) and the bidirectional formatting characters (U+200E, U+200F, U+202A–U+202E,
    /// U+2066–U+2069), which reorder what a terminal shows. Everything else is kept as is.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                out.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            }
        }
        return out
    }

    /// Whether `scalar` is escaped by ``escaped(_:)``: the one escape set of the library, which ``JSONWriter``
    /// escapes too (besides `"` and `\\`).
    package static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
