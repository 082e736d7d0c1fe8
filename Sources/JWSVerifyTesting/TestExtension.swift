import Foundation

/// One certificate extension, written verbatim: OID, critical flag and the extnValue contents.
public struct TestExtension: Sendable, Hashable {
    /// Dotted OID; unknown OIDs are allowed.
    public var oid: String
    /// Whether the extension is marked critical.
    public var critical: Bool
    /// The extnValue OCTET STRING's contents (normally the extension's DER).
    public var value: Data

    /// An extension of any OID and value.
    public init(oid: String, critical: Bool, value: Data) {
        self.oid = oid
        self.critical = critical
        self.value = value
    }

    /// OID of basicConstraints.
    public static let basicConstraintsOID = "2.5.29.19"
    /// OID of keyUsage.
    public static let keyUsageOID = "2.5.29.15"
    /// OID of subjectKeyIdentifier.
    public static let subjectKeyIdentifierOID = "2.5.29.14"
    /// OID of authorityKeyIdentifier.
    public static let authorityKeyIdentifierOID = "2.5.29.35"
    /// OID of nameConstraints.
    public static let nameConstraintsOID = "2.5.29.30"
    /// OID of certificatePolicies.
    public static let certificatePoliciesOID = "2.5.29.32"
    /// OID of policyConstraints.
    public static let policyConstraintsOID = "2.5.29.36"
    /// OID of inhibitAnyPolicy.
    public static let inhibitAnyPolicyOID = "2.5.29.54"
    /// OID of extendedKeyUsage.
    public static let extendedKeyUsageOID = "2.5.29.37"
    /// OID of subjectAltName.
    public static let subjectAltNameOID = "2.5.29.17"
    /// OID of sbgp-ipAddrBlock (RFC 3779).
    public static let ipAddressBlocksOID = "1.3.6.1.5.5.7.1.7"
    /// OID of sbgp-autonomousSysNum (RFC 3779).
    public static let autonomousSystemNumbersOID = "1.3.6.1.5.5.7.1.8"
    /// OID of authorityInfoAccess.
    public static let authorityInfoAccessOID = "1.3.6.1.5.5.7.1.1"
    /// anyPolicy (2.5.29.32.0).
    public static let anyPolicyOID = "2.5.29.32.0"

    /// basicConstraints: `cA` (written only when true, as DER wants) and `pathLenConstraint`.
    public static func basicConstraints(ca: Bool, pathLength: Int? = nil, critical: Bool = true) -> TestExtension {
        var fields: [Data] = []
        if ca { fields.append(TestDER.boolean(true)) }
        if let pathLength { fields.append(TestDER.integer(Int64(pathLength))) }
        return TestExtension(oid: basicConstraintsOID, critical: critical, value: TestDER.sequence(fields))
    }

    /// keyUsage as a DER named-bit BIT STRING (trailing zero bits dropped).
    public static func keyUsage(_ usage: TestKeyUsage, critical: Bool = true) -> TestExtension {
        let bits = usage.rawValue & 0x1FF
        var bytes: [UInt8] = []
        var highest = -1
        for bit in 0..<9 where bits & (1 << UInt32(bit)) != 0 { highest = bit }
        if highest >= 0 {
            bytes = [UInt8](repeating: 0, count: highest / 8 + 1)
            for bit in 0...highest where bits & (1 << UInt32(bit)) != 0 { bytes[bit / 8] |= 0x80 >> UInt8(bit % 8) }
        }
        let unused = highest >= 0 ? UInt8(7 - highest % 8) : 0
        return TestExtension(
            oid: keyUsageOID, critical: critical, value: TestDER.bitString(Data(bytes), unusedBits: unused))
    }

    /// subjectKeyIdentifier with the given identifier bytes.
    public static func subjectKeyIdentifier(_ identifier: Data) -> TestExtension {
        TestExtension(oid: subjectKeyIdentifierOID, critical: false, value: TestDER.octetString(identifier))
    }

    /// authorityKeyIdentifier with `keyIdentifier` ([0] IMPLICIT KeyIdentifier).
    public static func authorityKeyIdentifier(_ keyIdentifier: Data) -> TestExtension {
        TestExtension(
            oid: authorityKeyIdentifierOID, critical: false,
            value: TestDER.sequence([TestDER.context(0, constructed: false, keyIdentifier)]))
    }

    /// A GeneralName (RFC 5280 section 4.2.1.6).
    public enum GeneralName: Sendable, Hashable {
        /// dNSName [2].
        case dnsName(String)
        /// rfc822Name [1].
        case rfc822Name(String)
        /// uniformResourceIdentifier [6].
        case uri(String)
        /// iPAddress [7]: 4 or 16 bytes (SAN), 8 or 32 bytes address and mask (nameConstraints).
        case ipAddress(Data)
        /// directoryName [4] EXPLICIT Name.
        case directoryName(CraftedName)
        /// Any GeneralName DER, verbatim.
        case der(Data)

        /// The DER of this GeneralName.
        public var der: Data {
            switch self {
            case .rfc822Name(let text): return TestDER.context(1, constructed: false, Data(text.utf8))
            case .dnsName(let text): return TestDER.context(2, constructed: false, Data(text.utf8))
            case .uri(let text): return TestDER.context(6, constructed: false, Data(text.utf8))
            case .ipAddress(let bytes): return TestDER.context(7, constructed: false, bytes)
            case .directoryName(let name): return TestDER.context(4, constructed: true, name.der)
            case .der(let bytes): return bytes
            }
        }
    }

    /// nameConstraints with permitted and excluded subtrees (minimum 0, no maximum).
    public static func nameConstraints(
        permitted: [GeneralName] = [], excluded: [GeneralName] = [], critical: Bool = true
    ) -> TestExtension {
        func subtrees(_ names: [GeneralName]) -> Data { names.map { TestDER.sequence([$0.der]) }.reduce(Data(), +) }
        var fields: [Data] = []
        if !permitted.isEmpty { fields.append(TestDER.context(0, constructed: true, subtrees(permitted))) }
        if !excluded.isEmpty { fields.append(TestDER.context(1, constructed: true, subtrees(excluded))) }
        return TestExtension(oid: nameConstraintsOID, critical: critical, value: TestDER.sequence(fields))
    }

    /// subjectAltName of `names`.
    public static func subjectAltName(_ names: [GeneralName], critical: Bool = false) -> TestExtension {
        TestExtension(oid: subjectAltNameOID, critical: critical, value: TestDER.sequence(names.map(\.der)))
    }

    /// One address family of an RFC 3779 IPAddrBlocks: `inherit`, or prefixes.
    public struct AddressFamily: Sendable, Hashable {
        /// Address family identifier: 1 IPv4, 2 IPv6.
        public var afi: UInt16
        /// The prefixes (address bytes and prefix length in bits), sorted; nil means inherit.
        public var prefixes: [AddressPrefix]?

        /// A family with prefixes, or inheriting (nil).
        public init(afi: UInt16, prefixes: [AddressPrefix]?) {
            self.afi = afi
            self.prefixes = prefixes
        }

        /// IPv4 with `prefixes` (nil: inherit).
        public static func ipv4(_ prefixes: [AddressPrefix]?) -> AddressFamily {
            AddressFamily(afi: 1, prefixes: prefixes)
        }
        /// IPv6 with `prefixes` (nil: inherit).
        public static func ipv6(_ prefixes: [AddressPrefix]?) -> AddressFamily {
            AddressFamily(afi: 2, prefixes: prefixes)
        }
    }

    /// An address prefix: the leading `length` bits of `address`.
    public struct AddressPrefix: Sendable, Hashable {
        /// The address bytes (4 for IPv4, 16 for IPv6; extra bytes are cut).
        public var address: [UInt8]
        /// The prefix length in bits.
        public var length: Int

        /// A prefix.
        public init(_ address: [UInt8], length: Int) {
            self.address = address
            self.length = length
        }

        /// The BIT STRING of the prefix, with the bits past `length` cleared.
        var der: Data {
            let count = (length + 7) / 8
            var bytes = Array(address.prefix(count))
            while bytes.count < count { bytes.append(0) }
            let unused = UInt8(count * 8 - length)
            if count > 0 { bytes[count - 1] &= UInt8(truncatingIfNeeded: 0xFF << unused) }
            return TestDER.bitString(Data(bytes), unusedBits: unused)
        }
    }

    /// sbgp-ipAddrBlock (RFC 3779 section 2.2.3), critical as the RFC requires by default.
    public static func ipAddressBlocks(_ families: [AddressFamily], critical: Bool = true) -> TestExtension {
        let value = TestDER.sequence(
            families.map { family in
                let afi = TestDER.octetString(Data([UInt8(family.afi >> 8), UInt8(family.afi & 0xFF)]))
                let choice = family.prefixes.map { TestDER.sequence($0.map(\.der)) } ?? TestDER.null
                return TestDER.sequence([afi, choice])
            })
        return TestExtension(oid: ipAddressBlocksOID, critical: critical, value: value)
    }

    /// sbgp-autonomousSysNum (RFC 3779 section 3.2.3): `asnum` as ids and ranges, or inherit (nil).
    public static func autonomousSystemNumbers(_ ranges: [ClosedRange<UInt32>]?, critical: Bool = true) -> TestExtension
    {
        let choice =
            ranges.map { ranges in
                TestDER.sequence(
                    ranges.map { range in
                        range.lowerBound == range.upperBound
                            ? TestDER.integer(Int64(range.lowerBound))
                            : TestDER.sequence([
                                TestDER.integer(Int64(range.lowerBound)), TestDER.integer(Int64(range.upperBound)),
                            ])
                    })
            } ?? TestDER.null
        return TestExtension(
            oid: autonomousSystemNumbersOID, critical: critical,
            value: TestDER.sequence([TestDER.context(0, constructed: true, choice)]))
    }

    /// certificatePolicies with one PolicyInformation (no qualifiers) per OID.
    public static func certificatePolicies(_ oids: [String], critical: Bool = false) throws -> TestExtension {
        TestExtension(
            oid: certificatePoliciesOID, critical: critical,
            value: TestDER.sequence(try oids.map { TestDER.sequence([try TestDER.objectIdentifier($0)]) }))
    }

    /// policyConstraints: requireExplicitPolicy [0] and inhibitPolicyMapping [1] (IMPLICIT INTEGERs).
    public static func policyConstraints(
        requireExplicitPolicy: Int? = nil, inhibitPolicyMapping: Int? = nil, critical: Bool = true
    ) -> TestExtension {
        func implicit(_ number: UInt8, _ value: Int) -> Data {
            TestDER.context(number, constructed: false, Data(TestDER.integer(Int64(value)).dropFirst(2)))
        }
        var fields: [Data] = []
        if let requireExplicitPolicy { fields.append(implicit(0, requireExplicitPolicy)) }
        if let inhibitPolicyMapping { fields.append(implicit(1, inhibitPolicyMapping)) }
        return TestExtension(oid: policyConstraintsOID, critical: critical, value: TestDER.sequence(fields))
    }

    /// inhibitAnyPolicy: SkipCerts INTEGER.
    public static func inhibitAnyPolicy(_ skipCerts: Int, critical: Bool = true) -> TestExtension {
        TestExtension(oid: inhibitAnyPolicyOID, critical: critical, value: TestDER.integer(Int64(skipCerts)))
    }

    /// extendedKeyUsage of the purpose OIDs.
    public static func extendedKeyUsage(_ oids: [String], critical: Bool = false) throws -> TestExtension {
        TestExtension(
            oid: extendedKeyUsageOID, critical: critical,
            value: TestDER.sequence(try oids.map(TestDER.objectIdentifier)))
    }

    /// authorityInfoAccess with one OCSP URL.
    public static func ocspAccess(_ url: String) -> TestExtension {
        // id-ad-ocsp 1.3.6.1.5.5.7.48.1, built in: cannot fail.
        let method = (try? TestDER.objectIdentifier("1.3.6.1.5.5.7.48.1")) ?? Data()
        return TestExtension(
            oid: authorityInfoAccessOID, critical: false,
            value: TestDER.sequence([TestDER.sequence([method, GeneralName.uri(url).der])]))
    }

    /// Apple's leaf marker 1.2.840.113635.100.6.11.1 (value DER NULL).
    public static func appleLeafMarker(critical: Bool = false) -> TestExtension {
        TestExtension(oid: TestHierarchy.leafMarkerOID, critical: critical, value: TestDER.null)
    }

    /// Apple's intermediate marker 1.2.840.113635.100.6.2.1 (value DER NULL).
    public static func appleIntermediateMarker(critical: Bool = false) -> TestExtension {
        TestExtension(oid: TestHierarchy.intermediateMarkerOID, critical: critical, value: TestDER.null)
    }
}
