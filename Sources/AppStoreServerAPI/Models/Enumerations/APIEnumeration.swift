import Foundation

/// What the API's enumerations share: a raw value, documented constants and their names.
protocol APIEnumeration: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible
where RawValue: Codable & Hashable & Sendable & CustomStringConvertible {
    init(rawValue: RawValue)
    static var constantNames: [RawValue: String] { get }
}

extension APIEnumeration {
    /// Decodes the raw JSON value.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(RawValue.self))
    }
    /// Encodes the raw JSON value, documented or not.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
    /// The constant's name for a documented value, `nil` for one this version doesn't know.
    public var name: String? { Self.constantNames[rawValue] }
    /// The constant's name, else the raw value.
    public var description: String { name ?? rawValue.description }
}
