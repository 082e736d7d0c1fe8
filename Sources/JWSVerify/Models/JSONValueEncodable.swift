/// A value that writes itself as a ``JSONValue`` tree, without going through `Encoder`.
///
/// The mirror of `JSONValueDecodable`: the CLI renders every verified payload as JSON, and building
/// the tree directly costs a small fraction of `JSONEncoder` followed by `JSONDecoder`. The tree holds
/// the same values that `encode(to:)` writes (numbers classified by value, as the parser does).
package protocol JSONValueEncodable {
    /// The value as a JSON tree.
    var jsonValue: JSONValue { get }
}

/// A model that writes itself as the members of a JSON object.
package protocol JSONObjectEncodable: JSONValueEncodable {
    /// The members `encode(to:)` writes.
    var jsonObject: [String: JSONValue] { get }

    /// The members that are timestamps, App Store enumerations or nested models, by JSON key (generated).
    static var jsonFieldKinds: [String: JSONFieldKind] { get }
}

extension JSONObjectEncodable {
    package var jsonValue: JSONValue { .object(jsonObject) }
}

extension JSONValue: JSONValueEncodable {
    package var jsonValue: JSONValue { self }
}

extension String: JSONValueEncodable {
    package var jsonValue: JSONValue { .string(self) }
}

extension Bool: JSONValueEncodable {
    package var jsonValue: JSONValue { .bool(self) }
}

extension Double: JSONValueEncodable {
    package var jsonValue: JSONValue { JSONValue(number: self) }
}

extension Int64: JSONValueEncodable {
    package var jsonValue: JSONValue { .integer(self) }
}

extension Int32: JSONValueEncodable {
    package var jsonValue: JSONValue { .integer(Int64(self)) }
}

extension Array: JSONValueEncodable where Element: JSONValueEncodable {
    package var jsonValue: JSONValue { .array(map(\.jsonValue)) }
}

extension Timestamp: JSONValueEncodable {
    package var jsonValue: JSONValue { JSONValue(number: millisecondsSince1970) }
}
