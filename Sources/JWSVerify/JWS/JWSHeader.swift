import Foundation

/// The JOSE header of a compact JWS (RFC 7515 §4), as decoded, before any check.
///
/// Members this type names are typed; a named member of the wrong JSON type (say `"alg": 1`) is
/// left `nil` here and kept in ``additionalMembers``, so the checks see "absent" and nothing is lost.
public struct JWSHeader: Hashable, Sendable, Codable {
    /// `alg`: the signature algorithm; App Store tokens use `ES256`.
    public var alg: String?
    /// `x5c`: the certificate chain, each entry standard base64 (not base64url) of a DER certificate,
    /// leaf first (RFC 7515 §4.1.6).
    public var x5c: [String]?
    /// `kid`: key identifier (`Apple_Xcode_Key` in StoreKit Testing tokens).
    public var kid: String?
    /// `typ`: media type, usually `JWT`.
    public var typ: String?
    /// `crit`: extensions that must be understood. JWSVerify understands none and rejects a token that has it.
    public var crit: JSONValue?
    /// Every other member, unchanged.
    public var additionalMembers: [String: JSONValue]

    /// Creates a header.
    public init(
        alg: String? = nil, x5c: [String]? = nil, kid: String? = nil, typ: String? = nil, crit: JSONValue? = nil,
        additionalMembers: [String: JSONValue] = [:]
    ) {
        self.alg = alg
        self.x5c = x5c
        self.kid = kid
        self.typ = typ
        self.crit = crit
        self.additionalMembers = additionalMembers
    }

    private static let namedMembers: Set<String> = ["alg", "x5c", "kid", "typ", "crit"]

    /// Builds a header from the members of its JSON object.
    init(members: [String: JSONValue]) {
        var additional = members
        func take<T>(_ name: String, _ extract: (JSONValue) -> T?) -> T? {
            guard let value = members[name], let typed = extract(value) else { return nil }
            additional[name] = nil
            return typed
        }
        alg = take("alg") { $0.stringValue }
        x5c = take("x5c") { value -> [String]? in
            guard case .array(let entries) = value else { return nil }
            var strings: [String] = []
            strings.reserveCapacity(entries.count)
            for entry in entries {
                guard case .string(let string) = entry else { return nil }
                strings.append(string)
            }
            return strings
        }
        kid = take("kid") { $0.stringValue }
        typ = take("typ") { $0.stringValue }
        crit = take("crit") { $0 }
        additionalMembers = additional
    }

    /// Decodes a header; named members of the wrong type go to ``additionalMembers``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        var additional: [String: JSONValue] = [:]
        func typed<T: Decodable>(_ type: T.Type, _ name: String) throws -> T? {
            let key = AnyCodingKey(name)
            guard container.contains(key) else { return nil }
            if let value = try? container.decode(T.self, forKey: key) { return value }
            additional[name] = try container.decode(JSONValue.self, forKey: key)
            return nil
        }
        alg = try typed(String.self, "alg")
        x5c = try typed([String].self, "x5c")
        kid = try typed(String.self, "kid")
        typ = try typed(String.self, "typ")
        // Present is present, even as null (`decodeIfPresent` would read null as absent): a header with
        // `crit` is rejected whatever its value, as the token parser sees it.
        let critKey = AnyCodingKey("crit")
        crit = container.contains(critKey) ? try container.decode(JSONValue.self, forKey: critKey) : nil
        additionalMembers = try container.unknownMembers(excluding: Self.namedMembers).merging(additional) { a, _ in a }
    }

    /// Encodes every member, named and additional.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        try container.encodeUnknownMembers(additionalMembers)
        try container.encodeIfPresent(alg, forKey: AnyCodingKey("alg"))
        try container.encodeIfPresent(x5c, forKey: AnyCodingKey("x5c"))
        try container.encodeIfPresent(kid, forKey: AnyCodingKey("kid"))
        try container.encodeIfPresent(typ, forKey: AnyCodingKey("typ"))
        try container.encodeIfPresent(crit, forKey: AnyCodingKey("crit"))
    }
}

extension JWSHeader: JSONValueEncodable {
    /// The header as a JSON tree: the members ``encode(to:)`` writes, named and additional.
    package var jsonValue: JSONValue {
        var members = additionalMembers
        if let alg { members["alg"] = .string(alg) }
        if let x5c { members["x5c"] = .array(x5c.map(JSONValue.string)) }
        if let kid { members["kid"] = .string(kid) }
        if let typ { members["typ"] = .string(typ) }
        if let crit { members["crit"] = crit }
        return .object(members)
    }
}
