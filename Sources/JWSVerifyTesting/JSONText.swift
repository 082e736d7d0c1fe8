import Foundation
import JWSVerify

/// JSON with ordered object members, for output whose bytes must be stable: JWS headers
/// (`alg` before `x5c`, as Apple writes them), payloads (keys sorted), the vectors manifest.
indirect enum OrderedJSON: Sendable {
    case value(JSONValue)
    case object([(String, OrderedJSON)])
    case array([OrderedJSON])

    /// A JSON value with object keys sorted, recursively.
    static func sorted(_ value: JSONValue) -> OrderedJSON {
        switch value {
        case .object(let members):
            return .object(members.sorted { $0.key < $1.key }.map { ($0.key, sorted($0.value)) })
        case .array(let elements):
            return .array(elements.map(sorted))
        default:
            return .value(value)
        }
    }

    /// Compact JSON text.
    func compact() throws -> String {
        var output = ""
        try write(into: &output, indent: nil, level: 0)
        return output
    }

    /// JSON text indented by two spaces, ending with a newline.
    func pretty() throws -> String {
        var output = ""
        try write(into: &output, indent: "  ", level: 0)
        return output + "\n"
    }

    private func write(into output: inout String, indent: String?, level: Int) throws {
        func newline(_ level: Int) {
            guard let indent else { return }
            output += "\n" + String(repeating: indent, count: level)
        }
        switch self {
        case .value(.object(let members)):
            try OrderedJSON.sorted(.object(members)).write(into: &output, indent: indent, level: level)
        case .value(.array(let elements)):
            try OrderedJSON.array(elements.map(OrderedJSON.sorted)).write(into: &output, indent: indent, level: level)
        case .value(let scalar):
            output += try OrderedJSON.scalarText(scalar)
        case .array(let elements):
            if elements.isEmpty { output += "[]"; return }
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                newline(level + 1)
                try element.write(into: &output, indent: indent, level: level + 1)
            }
            newline(level)
            output += "]"
        case .object(let members):
            if members.isEmpty { output += "{}"; return }
            output += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { output += "," }
                newline(level + 1)
                output += OrderedJSON.quoted(key) + (indent == nil ? ":" : ": ")
                try value.write(into: &output, indent: indent, level: level + 1)
            }
            newline(level)
            output += "}"
        }
    }

    private static func scalarText(_ value: JSONValue) throws -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .integer(let number): return String(number)
        case .double(let number):
            guard number.isFinite else {
                throw JWSTestingError.invalidArgument("JSON cannot carry the number \(number)")
            }
            if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
            return "\(number)"
        case .string(let text): return quoted(text)
        case .array, .object: preconditionFailure("containers are written by write(into:)")
        }
    }

    /// A JSON string literal; escapes quotes, backslashes and control characters only.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{08}": result += "\\b"
            case "\u{0C}": result += "\\f"
            default:
                if scalar.value < 0x20 {
                    result += String(format: "\\u%04x", scalar.value)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}

/// Parsing and encoding helpers shared by the minter, the overrides and the vectors.
enum JSONText {
    /// Compact JSON with sorted keys.
    static func compact(_ value: JSONValue) throws -> String {
        try OrderedJSON.sorted(value).compact()
    }

    /// Compact JSON with sorted keys, as UTF-8.
    static func compactData(_ value: JSONValue) throws -> Data {
        Data(try compact(value).utf8)
    }

    /// Parses any JSON text (objects, arrays and scalars) into a ``JSONValue``.
    static func parse(_ data: Data) throws -> JSONValue {
        do {
            return try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw JWSTestingError.invalidArgument("not JSON: \(error)")
        }
    }

    /// Parses a JSON object.
    static func parseObject(_ data: Data) throws -> [String: JSONValue] {
        guard case .object(let members) = try parse(data) else {
            throw JWSTestingError.invalidArgument("JSON text is not an object")
        }
        return members
    }
}

/// base64url without padding (RFC 7515 section 2).
enum Base64URL {
    /// Encodes `data` as base64url without `=` padding.
    static func encode(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Decodes base64url with or without padding; nil when malformed.
    static func decode(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        switch base64.count % 4 {
        case 0: break
        case 2: base64 += "=="
        case 3: base64 += "="
        default: return nil
        }
        return Data(base64Encoded: base64)
    }
}
