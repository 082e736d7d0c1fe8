import Foundation

/// The SubjectPublicKeyInfo of a crafted certificate.
public enum CraftedPublicKey: Sendable, Hashable {
    /// How an EC point is written.
    public enum PointForm: Sendable, Hashable {
        /// 04 ‖ X ‖ Y.
        case uncompressed
        /// 02/03 ‖ X.
        case compressed
    }

    /// A key's public point, with the curve named by OID or, with `explicitParameters`, written out.
    case key(TestPrivateKey, form: PointForm = .uncompressed, explicitParameters: Bool = false)
    /// SubjectPublicKeyInfo DER, written verbatim.
    case subjectPublicKeyInfo(Data)

    /// id-ecPublicKey.
    public static let ecPublicKeyOID = "1.2.840.10045.2.1"
    /// prime256v1 (P-256).
    public static let p256OID = "1.2.840.10045.3.1.7"
    /// secp384r1 (P-384).
    public static let p384OID = "1.3.132.0.34"

    /// An EC SubjectPublicKeyInfo: id-ecPublicKey with a named curve and `point` as the BIT STRING
    /// contents (after the unused-bits byte, which is 0).
    public static func ecSPKI(curveOID: String = p256OID, point: Data) throws -> Data {
        TestDER.sequence([
            TestDER.sequence([try TestDER.objectIdentifier(ecPublicKeyOID), try TestDER.objectIdentifier(curveOID)]),
            TestDER.bitString(point),
        ])
    }

    /// P-256 with the point at infinity: BIT STRING `03 02 00 00` (the one octet 00 of SEC 1).
    public static var p256PointAtInfinity: CraftedPublicKey {
        // Built-in OIDs: cannot fail.
        .subjectPublicKeyInfo((try? ecSPKI(point: Data([0x00]))) ?? Data())
    }

    /// `key`'s uncompressed point with the last byte of Y changed: a point that is not on the curve.
    public static func offCurve(_ key: TestPrivateKey) -> CraftedPublicKey {
        var point = (try? publicPoint(ofSPKI: key.publicKeyDER)) ?? Data([0x04])
        point[point.index(before: point.endIndex)] ^= 0x01
        let curve = key.curve == .p256 ? p256OID : p384OID
        return .subjectPublicKeyInfo((try? ecSPKI(curveOID: curve, point: point)) ?? Data())
    }

    /// The DER SubjectPublicKeyInfo.
    public func der() throws -> Data {
        switch self {
        case .subjectPublicKeyInfo(let der): return der
        case .key(let key, let form, let explicit):
            if form == .uncompressed && !explicit { return key.publicKeyDER }
            return try OpenSSLCrafting.publicKeyDER(key, compressed: form == .compressed, explicit: explicit)
        }
    }

    /// The subjectPublicKey BIT STRING contents (without the unused-bits byte) of an SPKI.
    public static func publicPoint(ofSPKI spki: Data) throws -> Data {
        var outer = TestDERReader(spki)
        var fields = try outer.read(tag: 0x30)
        _ = try fields.read(tag: 0x30)
        let bits = try fields.read(tag: 0x03).remaining
        guard let first = bits.first, first == 0 else {
            throw JWSTestingError.invalidArgument("subjectPublicKey has unused bits")
        }
        return Data(bits.dropFirst())
    }

    /// RFC 5280 section 4.2.1.2 method 1: SHA-1 of the subjectPublicKey bits of `spki`.
    public static func keyIdentifier(ofSPKI spki: Data) throws -> Data {
        TestSHA1.hash(try publicPoint(ofSPKI: spki))
    }
}

/// A minimal DER reader (for SPKIs in tests).
struct TestDERReader {
    private(set) var remaining: Data

    init(_ data: Data) { remaining = data }

    /// Reads one TLV with `tag` and returns a reader over its contents.
    mutating func read(tag: UInt8) throws -> TestDERReader {
        let bytes = [UInt8](remaining)
        guard bytes.count >= 2, bytes[0] == tag else { throw JWSTestingError.invalidArgument("DER: tag") }
        var length = Int(bytes[1])
        var offset = 2
        if length >= 0x80 {
            let count = length & 0x7F
            guard count > 0, count <= 4, bytes.count >= 2 + count else {
                throw JWSTestingError.invalidArgument("DER: length")
            }
            length = bytes[2..<(2 + count)].reduce(0) { $0 << 8 | Int($1) }
            offset += count
        }
        guard bytes.count >= offset + length else { throw JWSTestingError.invalidArgument("DER: truncated") }
        let contents = Data(bytes[offset..<(offset + length)])
        remaining = Data(bytes[(offset + length)...])
        return TestDERReader(contents)
    }
}
