import Foundation

/// An X.509 Name for ``CraftedCertificate``: an ordered list of attributes, each in its own
/// relative distinguished name, or DER given verbatim.
public struct CraftedName: Sendable, Hashable {
    /// One attribute: type OID, value and the ASN.1 string type it is written with.
    public struct Attribute: Sendable, Hashable {
        /// Dotted attribute type OID (for example `2.5.4.10`, organizationName).
        public var oid: String
        /// The value's text.
        public var value: String
        /// The string tag: 0x0C UTF8String (default), 0x13 PrintableString, 0x16 IA5String, ...
        public var stringTag: UInt8

        /// An attribute of any type.
        public init(oid: String, value: String, stringTag: UInt8 = 0x0C) {
            self.oid = oid
            self.value = value
            self.stringTag = stringTag
        }

        /// commonName (2.5.4.3), UTF8String.
        public static func commonName(_ value: String) -> Attribute { Attribute(oid: "2.5.4.3", value: value) }
        /// organizationName (2.5.4.10), UTF8String.
        public static func organization(_ value: String) -> Attribute { Attribute(oid: "2.5.4.10", value: value) }
        /// organizationalUnitName (2.5.4.11), UTF8String.
        public static func organizationalUnit(_ value: String) -> Attribute {
            Attribute(oid: "2.5.4.11", value: value)
        }
        /// countryName (2.5.4.6), PrintableString.
        public static func country(_ value: String) -> Attribute {
            Attribute(oid: "2.5.4.6", value: value, stringTag: 0x13)
        }
        /// serialNumber (2.5.4.5), PrintableString.
        public static func serialNumber(_ value: String) -> Attribute {
            Attribute(oid: "2.5.4.5", value: value, stringTag: 0x13)
        }
    }

    /// The DER Name (SEQUENCE OF RelativeDistinguishedName).
    public let der: Data

    /// A name of `attributes`, in order, one per RDN.
    public init(_ attributes: [Attribute]) throws {
        der = TestDER.sequence(
            try attributes.map { attribute in
                TestDER.set([
                    TestDER.sequence([
                        try TestDER.objectIdentifier(attribute.oid),
                        TestDER.tlv(attribute.stringTag, Data(attribute.value.utf8)),
                    ])
                ])
            })
    }

    /// The name of a ``TestDistinguishedName``, in the order the `.appStoreEC` profile writes it: CN, OU, O, C.
    public init(_ name: TestDistinguishedName) {
        var attributes: [Attribute] = [.commonName(name.commonName)]
        if let unit = name.organizationalUnit { attributes.append(.organizationalUnit(unit)) }
        attributes.append(.organization(name.organization))
        if let country = name.country { attributes.append(.country(country)) }
        // Only built-in OIDs: cannot fail.
        self = (try? CraftedName(attributes)) ?? CraftedName(der: TestDER.sequence([]))
    }

    /// A name written exactly as `der` (not checked).
    public init(der: Data) {
        self.der = der
    }
}
