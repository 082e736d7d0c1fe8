import Foundation
import JWSVerify

/// Reads a response model from the ``JSONValue`` tree that the library's strict parser built, so that a response
/// body is read once: the same tree gives the model and the signed members `APIResponseKind` names.
///
/// Rules (the client's API format, as `JSONDecoder` with the client's date strategy had them): a `Date` is a number
/// of milliseconds since 1970; an integer type takes a number only when its value fits exactly; a `Double` or
/// `Float` takes any number; `null` and a missing key are absent for an optional. Every other type decodes itself
/// (`UUID`, the API's enumerations, `AppStoreEnvironment`) through the containers below.
enum JSONTreeDecoder {
    /// Decodes `type` from `value`; throws `DecodingError` when the tree is not the model's shape.
    static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try TreeDecoder(value: value, codingPath: []).decodeValue(T.self)
    }

    /// Where and why a decoding failed, for a message: ` (at data[0].lastTransactions[2]: expected String, found a
    /// number)`; empty for another error. The caller escapes the text (member names come from the response).
    static func `where`(_ error: any Error) -> String {
        let context: DecodingError.Context
        switch error as? DecodingError {
        case .typeMismatch(_, let found), .valueNotFound(_, let found), .keyNotFound(_, let found),
            .dataCorrupted(let found):
            context = found
        default: return ""
        }
        var path = ""
        for key in context.codingPath {
            if let index = key.intValue {
                path += "[\(index)]"
            } else {
                path += (path.isEmpty ? "" : ".") + key.stringValue
            }
        }
        if case .keyNotFound(let key, _)? = error as? DecodingError {
            path += (path.isEmpty ? "" : ".") + key.stringValue
        }
        return " (at \(path.isEmpty ? "the top" : path): \(context.debugDescription))"
    }
}

/// The decoder of one value of the tree.
private struct TreeDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else {
            throw TreeDecoder.mismatch([String: JSONValue].self, value, codingPath)
        }
        return KeyedDecodingContainer(KeyedContainer<Key>(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else {
            throw TreeDecoder.mismatch([JSONValue].self, value, codingPath)
        }
        return UnkeyedContainer(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(value: value, codingPath: codingPath)
    }

    /// Decodes `T` from this value: dates as milliseconds, scalars directly, everything else by its own
    /// `init(from:)`.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == Date.self {
            let milliseconds: Double = try scalar(Double.self)
            guard milliseconds.isFinite, let date = Date(timeIntervalSince1970: milliseconds / 1000) as? T else {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(codingPath: codingPath, debugDescription: "a date that is not finite"))
            }
            return date
        }
        return try T(from: self)
    }

    /// A JSON scalar as one of the standard library's types.
    func scalar<T>(_ type: T.Type) throws -> T {
        switch (value, type) {
        case (.string(let string), is String.Type): if let result = string as? T { return result }
        case (.bool(let bool), is Bool.Type): if let result = bool as? T { return result }
        case (.integer(let integer), is Double.Type): if let result = Double(integer) as? T { return result }
        case (.double(let double), is Double.Type): if let result = double as? T { return result }
        case (.integer(let integer), is Float.Type): if let result = Float(integer) as? T { return result }
        case (.double(let double), is Float.Type): if let result = Float(double) as? T { return result }
        case (.integer(let integer), let integerType as any FixedWidthInteger.Type):
            if let result = integerType.init(exactly: integer) as? T { return result }
            throw TreeDecoder.outOfRange(T.self, value, codingPath)
        case (.double(let double), let integerType as any FixedWidthInteger.Type):
            if let result = integerType.init(exactly: double) as? T { return result }
            throw TreeDecoder.outOfRange(T.self, value, codingPath)
        default: break
        }
        throw TreeDecoder.mismatch(T.self, value, codingPath)
    }

    static func mismatch(_ type: Any.Type, _ value: JSONValue, _ codingPath: [any CodingKey]) -> DecodingError {
        DecodingError.typeMismatch(
            type,
            DecodingError.Context(codingPath: codingPath, debugDescription: "expected \(type), found \(value.kindName)")
        )
    }

    static func outOfRange(_ type: Any.Type, _ value: JSONValue, _ codingPath: [any CodingKey]) -> DecodingError {
        DecodingError.dataCorrupted(
            DecodingError.Context(codingPath: codingPath, debugDescription: "a number that does not fit in \(type)"))
    }
}

/// The members of a JSON object, by key.
private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: [String: JSONValue]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

    private func child(_ key: Key) throws -> TreeDecoder {
        guard let value = object[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key, DecodingError.Context(codingPath: codingPath, debugDescription: "no member \"\(key.stringValue)\"")
            )
        }
        return TreeDecoder(value: value, codingPath: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool { try child(key).value == .null }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try child(key).decodeValue(T.self) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try child(key).scalar(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try child(key).scalar(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try child(key).scalar(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try child(key).scalar(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try child(key).scalar(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try child(key).scalar(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try child(key).scalar(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try child(key).scalar(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try child(key).scalar(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try child(key).scalar(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try child(key).scalar(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try child(key).scalar(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try child(key).scalar(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try child(key).scalar(type) }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try child(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try child(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        TreeDecoder(value: object["super"] ?? .null, codingPath: codingPath)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        TreeDecoder(value: object[key.stringValue] ?? .null, codingPath: codingPath + [key])
    }
}

/// The elements of a JSON array, in order.
private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(elements: [JSONValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private struct IndexKey: CodingKey {
        let intValue: Int?
        var stringValue: String { "Index \(intValue ?? 0)" }
        init(intValue: Int) { self.intValue = intValue }
        init?(stringValue: String) { nil }
    }

    private mutating func next() throws -> TreeDecoder {
        guard currentIndex < elements.count else {
            throw DecodingError.valueNotFound(
                JSONValue.self,
                DecodingError.Context(codingPath: codingPath, debugDescription: "the array has no more elements"))
        }
        defer { currentIndex += 1 }
        return TreeDecoder(value: elements[currentIndex], codingPath: codingPath + [IndexKey(intValue: currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard currentIndex < elements.count, elements[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decodeValue(T.self) }
    mutating func decode(_ type: Bool.Type) throws -> Bool { try next().scalar(type) }
    mutating func decode(_ type: String.Type) throws -> String { try next().scalar(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try next().scalar(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try next().scalar(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try next().scalar(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next().scalar(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next().scalar(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next().scalar(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next().scalar(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next().scalar(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next().scalar(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next().scalar(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next().scalar(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next().scalar(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }

    mutating func superDecoder() throws -> any Decoder { try next() }
}

/// One scalar value.
private struct SingleValueContainer: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]

    private var decoder: TreeDecoder { TreeDecoder(value: value, codingPath: codingPath) }

    func decodeNil() -> Bool { value == .null }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(T.self) }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.scalar(type) }
    func decode(_ type: String.Type) throws -> String { try decoder.scalar(type) }
    func decode(_ type: Double.Type) throws -> Double { try decoder.scalar(type) }
    func decode(_ type: Float.Type) throws -> Float { try decoder.scalar(type) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.scalar(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.scalar(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.scalar(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.scalar(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.scalar(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.scalar(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.scalar(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.scalar(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.scalar(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.scalar(type) }
}
