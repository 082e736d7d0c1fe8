import Foundation
import JWSVerify

/// Parsing and encoding helpers shared by the minter, the overrides and the vectors.
enum JSONText {
    /// Compact JSON with sorted keys, written by the library's ``JSONWriter``.
    static func compact(_ value: JSONValue) throws -> String {
        JSONWriter.write(value, pretty: false)
    }

    /// Compact JSON with sorted keys, as UTF-8.
    static func compactData(_ value: JSONValue) throws -> Data {
        Data(try compact(value).utf8)
    }

    /// A compact JSON object whose members keep the order given (a JWS header: `alg`, then `x5c`), each value
    /// with its own objects' keys sorted.
    static func compactData(orderedMembers members: [(String, JSONValue)]) -> Data {
        var writer = JSONWriter(style: .compact)
        writer.beginObject()
        for (key, value) in members {
            writer.key(key)
            writer.value(value)
        }
        writer.endObject()
        return Data(writer.bytes)
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
