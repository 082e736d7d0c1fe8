/// A type that decodes itself from a parsed ``JSONValue``, without going through `Decoder`.
///
/// The verifier parses a payload once (``JSONParser``) and builds the model straight from that tree.
/// Going through `Codable` instead costs hundreds of microseconds per transaction on Linux (generic
/// metadata look-ups and boxed containers), more than the ES256 verification itself. The models'
/// `init(from:)` reads the same tree and calls the same code, so both paths agree by construction.
protocol JSONValueDecodable {
    /// Decodes from `value`; a value of the wrong JSON type throws `DecodingError.typeMismatch`.
    init(jsonValue value: JSONValue) throws
}

/// A model decoded from the members of a JSON object.
protocol JSONObjectDecodable: JSONValueDecodable {
    init(json reader: JSONObjectReader) throws
}

extension JSONObjectDecodable {
    init(jsonValue value: JSONValue) throws {
        guard case .object(let object) = value else { throw JSONObjectReader.mismatch(Self.self, value) }
        try self.init(json: JSONObjectReader(object: object))
    }
}

/// Reads the members of one JSON object for a model's `init(json:)`.
struct JSONObjectReader {
    let object: [String: JSONValue]

    init(object: [String: JSONValue]) {
        self.object = object
    }

    /// Reads the object that a `Decoder` holds (the `Codable` path).
    init(decoder: any Decoder) throws {
        object = try decoder.singleValueContainer().decode([String: JSONValue].self)
    }

    /// The value of a member, nil when absent or `null`; a value of the wrong type throws a
    /// `DecodingError` whose coding path names the member.
    func value<T: JSONValueDecodable>(_ key: String) throws -> T? {
        guard let value = object[key] else { return nil }
        if case .null = value { return nil }
        do {
            return try T(jsonValue: value)
        } catch let error as DecodingError {
            throw Self.prefixing(error, with: AnyCodingKey(key))
        }
    }

    /// The members that no modelled field holds: unknown keys, and known keys whose value is `null`.
    func additionalFields(known: Set<String>) -> [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        for (key, value) in object {
            if case .null = value {
                result[key] = value
            } else if !known.contains(key) {
                result[key] = value
            }
        }
        return result
    }

    static func mismatch(_ type: Any.Type, _ value: JSONValue) -> DecodingError {
        DecodingError.typeMismatch(
            type,
            DecodingError.Context(codingPath: [], debugDescription: "Expected \(type) but found \(value.kindName)."))
    }

    /// The same error with `key` in front of its coding path (paths are built only when failing).
    static func prefixing(_ error: DecodingError, with key: any CodingKey) -> DecodingError {
        func context(_ context: DecodingError.Context) -> DecodingError.Context {
            DecodingError.Context(
                codingPath: [key] + context.codingPath, debugDescription: context.debugDescription,
                underlyingError: context.underlyingError)
        }
        switch error {
        case .typeMismatch(let type, let value): return .typeMismatch(type, context(value))
        case .valueNotFound(let type, let value): return .valueNotFound(type, context(value))
        case .keyNotFound(let missing, let value): return .keyNotFound(missing, context(value))
        case .dataCorrupted(let value): return .dataCorrupted(context(value))
        @unknown default: return error
        }
    }
}

extension String: JSONValueDecodable {
    init(jsonValue value: JSONValue) throws {
        guard case .string(let string) = value else { throw JSONObjectReader.mismatch(String.self, value) }
        self = string
    }
}

extension Bool: JSONValueDecodable {
    init(jsonValue value: JSONValue) throws {
        guard case .bool(let bool) = value else { throw JSONObjectReader.mismatch(Bool.self, value) }
        self = bool
    }
}

extension Double: JSONValueDecodable {
    init(jsonValue value: JSONValue) throws {
        switch value {
        case .integer(let integer): self = Double(integer)
        case .double(let double): self = double
        default: throw JSONObjectReader.mismatch(Double.self, value)
        }
    }
}

/// Integers decode from numbers that they hold exactly, as with `JSONDecoder`.
extension JSONValueDecodable where Self: FixedWidthInteger {
    init(jsonValue value: JSONValue) throws {
        let exact: Self?
        switch value {
        case .integer(let integer): exact = Self(exactly: integer)
        case .double(let double): exact = Self(exactly: double)
        default: throw JSONObjectReader.mismatch(Self.self, value)
        }
        guard let exact else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: [], debugDescription: "The number does not fit in \(Self.self)."))
        }
        self = exact
    }
}

extension Int64: JSONValueDecodable {}
extension Int32: JSONValueDecodable {}

extension Array: JSONValueDecodable where Element: JSONValueDecodable {
    init(jsonValue value: JSONValue) throws {
        guard case .array(let array) = value else { throw JSONObjectReader.mismatch([Element].self, value) }
        var result: [Element] = []
        result.reserveCapacity(array.count)
        for (index, element) in array.enumerated() {
            do {
                result.append(try Element(jsonValue: element))
            } catch let error as DecodingError {
                throw JSONObjectReader.prefixing(error, with: AnyCodingKey("Index \(index)"))
            }
        }
        self = result
    }
}

extension Timestamp: JSONValueDecodable {
    init(jsonValue value: JSONValue) throws {
        self.init(millisecondsSince1970: try Double(jsonValue: value))
    }
}

extension AppStoreEnumeration where RawValue: JSONValueDecodable {
    init(jsonValue value: JSONValue) throws {
        self.init(rawValue: try RawValue(jsonValue: value))
    }
}
