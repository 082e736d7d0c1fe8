/// The behaviour shared by the App Store enumerations, such as ``AppStoreEnvironment`` or ``OfferType``.
///
/// Each enumeration is a struct that wraps the raw JSON value (a string or an integer) instead of a Swift `enum`, so
/// that a value Apple adds later decodes and encodes unchanged rather than failing the whole payload. Its static
/// constants are the values Apple documents, and `constantNames` maps each of them to the constant's name.
protocol AppStoreEnumeration: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible,
    JSONValueDecodable,
    JSONValueEncodable
where RawValue: Codable & Hashable & Sendable & CustomStringConvertible & JSONValueDecodable & JSONValueEncodable {
    /// Wraps any raw value, documented or not.
    init(rawValue: RawValue)

    /// The name of the Swift constant of each documented raw value.
    static var constantNames: [RawValue: String] { get }
}

extension AppStoreEnumeration {
    /// Decodes the raw JSON value; a value of the wrong JSON type throws a `DecodingError`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.init(rawValue: try container.decode(RawValue.self))
    }

    /// Encodes the raw JSON value, documented or not.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The constant name for a documented value (`sandbox`), else the raw value (`Staging`, `99`).
    public var description: String {
        constantName ?? rawValue.description
    }

    /// The name of the Swift constant for a documented value, `nil` for a value this version doesn't know.
    var constantName: String? {
        Self.constantNames[rawValue]
    }

    /// The name of the Swift constant of a JSON value, when it is a documented value of this enumeration whose
    /// name differs from the value as text (what ``JSONFieldKind/enumeration(_:)`` annotates); nil otherwise.
    static func constantName(ofJSON value: JSONValue) -> String? {
        guard let raw = try? RawValue(jsonValue: value), let name = constantNames[raw], name != raw.description else {
            return nil
        }
        return name
    }
}
