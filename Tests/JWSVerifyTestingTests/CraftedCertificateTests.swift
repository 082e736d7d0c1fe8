import Foundation
import JWSVerify
import JWSVerifyTesting
import Testing

/// Crafted certificates: every field the test chose comes back out of OpenSSL's own parser
/// (`openssl x509 -text`), and chains of crafted certificates verify where they should.
@Suite("Crafted certificates")
struct CraftedCertificateTests {
    static let notBefore: Int64 = 1_735_689_600  // 2025-01-01T00:00:00Z
    static let notAfter: Int64 = 2_051_222_400  // 2035-01-01T00:00:00Z
    static let rootKey = fixture { try TestPrivateKey.generate(curve: .p384, seed: 1, label: "crafted-root") }
    static let intermediateKey = fixture {
        try TestPrivateKey.generate(curve: .p384, seed: 1, label: "crafted-intermediate")
    }
    static let leafKey = fixture { try TestPrivateKey.generate(curve: .p256, seed: 1, label: "crafted-leaf") }
    static let rootName = fixture {
        try CraftedName([.commonName("Crafted Root"), .organization("Crafted Tests"), .country("US")])
    }
    static let intermediateName = fixture {
        try CraftedName([.commonName("Crafted Intermediate"), .organization("Crafted Tests")])
    }

    /// A fixture that cannot fail unless OpenSSL is broken, which stops the run.
    static func fixture<T>(_ make: () throws -> T) -> T {
        do { return try make() } catch { fatalError("fixture: \(error)") }
    }

    /// `openssl x509 -inform DER -text -noout` of `der`: status and output.
    static func openSSLText(_ der: Data) throws -> (Int32, String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("crafted-\(UUID().uuidString).der")
        try der.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl", "x509", "-inform", "DER", "-in", file.path, "-text", "-noout"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: text, as: UTF8.self))
    }

    static func root(extra: [TestExtension] = []) throws -> Data {
        try CraftedCertificate.rootProfile(
            name: rootName, key: rootKey, notBefore: notBefore, notAfter: notAfter, extra: extra
        ).sign(with: rootKey)
    }

    static func intermediate(extra: [TestExtension] = []) throws -> Data {
        try CraftedCertificate.intermediateProfile(
            name: intermediateName, issuer: rootName, key: intermediateKey, issuerKey: rootKey, notBefore: notBefore,
            notAfter: notAfter, extra: extra
        ).sign(with: rootKey)
    }

    /// Input: a leaf with arbitrary name attributes (serialNumber, two OUs), a chosen serial,
    /// GeneralizedTime notBefore and UTCTime notAfter, ecdsa-with-SHA512, and an unknown critical
    /// extension written twice. Expected: `openssl x509 -text` shows each of them.
    @Test("every chosen field of a crafted certificate is what OpenSSL reads back")
    func fieldsRoundTrip() throws {
        let subject = try CraftedName([
            .country("DE"), .organization("Evil Org"), .organizationalUnit("Unit A"), .organizationalUnit("Unit B"),
            .serialNumber("SN-42"), .commonName("Crafted Leaf"),
        ])
        let unknown = TestExtension(oid: "1.3.6.1.4.1.99999.7", critical: true, value: TestDER.utf8String("hello"))
        let certificate = CraftedCertificate(
            subject: subject, issuer: Self.intermediateName, serialNumber: Data([0x00, 0x9A, 0xBC]),
            notBefore: Self.notBefore, notAfter: Self.notAfter, notBeforeEncoding: .generalizedTime,
            notAfterEncoding: .utcTime, signatureDigest: .sha512, publicKey: .key(Self.leafKey),
            extensions: [.basicConstraints(ca: false), unknown, unknown, .appleLeafMarker()])
        let der = try certificate.sign(with: Self.intermediateKey)
        let (status, text) = try Self.openSSLText(der)
        #expect(status == 0, "\(text)")
        #expect(text.contains("Version: 3 (0x2)"))
        #expect(text.contains("Serial Number: 39612 (0x9abc)"))
        #expect(text.contains("ecdsa-with-SHA512"))
        #expect(
            text.contains("C = DE, O = Evil Org, OU = Unit A, OU = Unit B, serialNumber = SN-42, CN = Crafted Leaf"))
        #expect(text.contains("Issuer: CN = Crafted Intermediate, O = Crafted Tests"))
        #expect(text.contains("Not Before: Jan  1 00:00:00 2025 GMT"))
        #expect(text.contains("Not After : Jan  1 00:00:00 2035 GMT"))
        #expect(text.components(separatedBy: "1.3.6.1.4.1.99999.7: critical").count == 3, "\(text)")
        #expect(text.contains("1.2.840.113635.100.6.11.1"))
        // The time encodings themselves: GeneralizedTime 18 0F "20250101000000Z", UTCTime 17 0D.
        #expect(der.range(of: Data([0x18, 0x0F]) + Data("20250101000000Z".utf8)) != nil)
        #expect(der.range(of: Data([0x17, 0x0D]) + Data("350101000000Z".utf8)) != nil)
        let parsed = try TestCertificate(der: der)
        #expect(parsed.subject.organization == "Evil Org")
        #expect(parsed.notBefore == Date(timeIntervalSince1970: TimeInterval(Self.notBefore)))
        #expect(parsed.publicKeyDER == Self.leafKey.publicKeyDER)
    }

    /// Input: each ready-made extension helper in one certificate. Expected: OpenSSL names and
    /// decodes every one (so each helper's DER is what the RFC defines).
    @Test("the ready-made extension helpers are DER that OpenSSL decodes")
    func extensionHelpersDecode() throws {
        let goodOrg = try CraftedName([.organization("Good Org")])
        let extensions: [TestExtension] = [
            .basicConstraints(ca: true, pathLength: 3), .keyUsage([.digitalSignature, .keyCertSign, .cRLSign]),
            .subjectKeyIdentifier(Data(repeating: 0xAB, count: 20)),
            .authorityKeyIdentifier(Data(repeating: 0xCD, count: 20)),
            .nameConstraints(
                permitted: [.directoryName(goodOrg), .dnsName("good.example")], excluded: [.dnsName("evil.example")]),
            .ipAddressBlocks([.ipv4([TestExtension.AddressPrefix([10, 0, 0, 0], length: 8)]), .ipv6(nil)]),
            .autonomousSystemNumbers([64_500...64_510, 65_000...65_000]),
            try .certificatePolicies(["2.23.140.1.2.1", TestExtension.anyPolicyOID]),
            .policyConstraints(requireExplicitPolicy: 0, inhibitPolicyMapping: 1), .inhibitAnyPolicy(0),
            try .extendedKeyUsage(["1.3.6.1.5.5.7.3.1"]),
            .subjectAltName([.dnsName("leaf.example"), .ipAddress(Data([192, 0, 2, 1]))]),
            .ocspAccess("http://ocsp.example.invalid"), .appleLeafMarker(), .appleIntermediateMarker(),
        ]
        let der = try CraftedCertificate(
            subject: Self.intermediateName, issuer: Self.rootName, notBefore: Self.notBefore, notAfter: Self.notAfter,
            publicKey: .key(Self.intermediateKey), extensions: extensions
        ).sign(with: Self.rootKey)
        let (status, text) = try Self.openSSLText(der)
        #expect(status == 0, "\(text)")
        for expected in [
            "CA:TRUE, pathlen:3", "Digital Signature, Certificate Sign, CRL Sign",
            "AB:AB:AB:AB", "CD:CD:CD:CD", "Permitted:", "DirName:O = Good Org", "DNS:good.example", "Excluded:",
            "DNS:evil.example", "IPv4:", "10.0.0.0/8", "IPv6: inherit", "64500-64510", "65000",
            "Policy: 2.23.140.1.2.1", "Policy: X509v3 Any Policy", "Require Explicit Policy:0",
            "Inhibit Policy Mapping:1", "X509v3 Inhibit Any Policy: critical", "TLS Web Server Authentication",
            "DNS:leaf.example", "IP Address:192.0.2.1", "OCSP - URI:http://ocsp.example.invalid",
            "1.2.840.113635.100.6.11.1", "1.2.840.113635.100.6.2.1",
        ] {
            #expect(text.contains(expected), "missing \(expected) in\n\(text)")
        }
        #expect(!text.contains("<UNSUPPORTED>") && !text.contains("Unable to"), "\(text)")
    }

    /// Input: the point at infinity, a compressed point, explicit parameters and an off-curve point
    /// as leaf keys. Expected: each SubjectPublicKeyInfo is written byte for byte.
    @Test("a raw or re-encoded SubjectPublicKeyInfo is written verbatim")
    func publicKeyEncodings() throws {
        let compressed = try CraftedPublicKey.key(Self.leafKey, form: .compressed).der()
        let explicit = try CraftedPublicKey.key(Self.leafKey, explicitParameters: true).der()
        let cases: [CraftedPublicKey] = [
            .p256PointAtInfinity, .subjectPublicKeyInfo(compressed), .subjectPublicKeyInfo(explicit),
            .offCurve(Self.leafKey),
        ]
        let infinity = try CraftedPublicKey.p256PointAtInfinity.der()
        #expect(infinity.suffix(4) == Data([0x03, 0x02, 0x00, 0x00]))
        #expect(try CraftedPublicKey.publicPoint(ofSPKI: compressed).count == 33)
        #expect(explicit.count > 200, "explicit ECParameters carry the curve")
        for key in cases {
            let spki = try key.der()
            let der = try CraftedCertificate(
                subject: Self.intermediateName, issuer: Self.intermediateName, notBefore: Self.notBefore,
                notAfter: Self.notAfter, publicKey: key, extensions: [.appleLeafMarker()]
            ).sign(with: Self.intermediateKey)
            #expect(der.range(of: spki) != nil)
            let (status, text) = try Self.openSSLText(der)
            #expect(status == 0, "\(text)")
        }
    }

    /// Input: a crafted root, intermediate and leaf with the `.appStoreEC` test hierarchy's profiles, at times inside and at
    /// the edges of validity. Expected: `X509_verify_cert` accepts inside, reports
    /// CERT_NOT_YET_VALID (9) one second before notBefore and CERT_HAS_EXPIRED (10) at notAfter.
    @Test("a crafted chain verifies with OpenSSL inside its validity and not at notAfter")
    func chainVerdicts() throws {
        let root = try Self.root()
        let intermediate = try Self.intermediate()
        let leaf = try CraftedCertificate.leafProfile(
            name: try CraftedName([.commonName("Crafted Leaf"), .organization("Crafted Tests")]),
            issuer: Self.intermediateName, publicKey: .key(Self.leafKey), issuerKey: Self.intermediateKey,
            notBefore: Self.notBefore, notAfter: Self.notAfter
        ).sign(with: Self.intermediateKey)
        let inside = try OpenSSLChainVerdict.evaluate(
            leaf: leaf, intermediate: intermediate, root: root, at: Self.notBefore)
        #expect(inside.verified && inside.code == nil && inside.chainLength == 3, "\(inside)")
        let before = try OpenSSLChainVerdict.evaluate(
            leaf: leaf, intermediate: intermediate, root: root, at: Self.notBefore - 1)
        #expect(before.timeError?.code == 9 && before.code == .certificateExpired, "\(before)")
        let last = try OpenSSLChainVerdict.evaluate(
            leaf: leaf, intermediate: intermediate, root: root, at: Self.notAfter - 1)
        #expect(last.verified, "\(last)")
        let after = try OpenSSLChainVerdict.evaluate(
            leaf: leaf, intermediate: intermediate, root: root, at: Self.notAfter)
        #expect(after.timeError?.code == 10 && after.code == .certificateExpired, "\(after)")
        let otherRoot = try CraftedCertificate.rootProfile(
            name: Self.rootName, key: Self.intermediateKey, notBefore: Self.notBefore, notAfter: Self.notAfter
        ).sign(with: Self.intermediateKey)
        let untrusted = try OpenSSLChainVerdict.evaluate(
            leaf: leaf, intermediate: intermediate, root: otherRoot, at: Self.notBefore)
        #expect(!untrusted.verified && untrusted.code == .untrustedChain, "\(untrusted)")
    }

    /// Input: a token whose leaf key is the point at infinity, signed by
    /// `forgeES256ForPointAtInfinity`. Expected: the forged r‖s is 64 bytes, differs per k, and is
    /// the same for the same k.
    @Test("a forged ES256 signature for the point at infinity is deterministic in k")
    func forgedSignature() throws {
        let message = Data("header.payload".utf8)
        let one = try CraftedToken.forgeES256ForPointAtInfinity(message, k: Data([0x05]))
        let again = try CraftedToken.forgeES256ForPointAtInfinity(message, k: Data([0x05]))
        let other = try CraftedToken.forgeES256ForPointAtInfinity(message, k: Data([0x07]))
        #expect(one.count == 64 && one == again && one != other)
        #expect(throws: JWSTestingError.self) {
            try CraftedToken.forgeES256ForPointAtInfinity(message, k: Data([0x00]))
        }
    }

    /// Input: UTCTime for a year past 2049, and malformed OIDs. Expected: errors, not certificates.
    @Test("UTCTime after 2049 and malformed OIDs are refused")
    func refusedInputs() throws {
        let late = CraftedCertificate(
            subject: Self.rootName, issuer: Self.rootName, notBefore: Self.notBefore, notAfter: 2_556_144_000,
            notAfterEncoding: .utcTime, publicKey: .key(Self.rootKey))
        #expect(throws: JWSTestingError.self) { try late.sign(with: Self.rootKey) }
        for oid in ["", "1", "3.1", "1.40", "1..2", "1.2.", "a.b"] {
            #expect(throws: JWSTestingError.self) { try TestDER.objectIdentifier(oid) }
            let bad = CraftedCertificate(
                subject: Self.rootName, issuer: Self.rootName, notBefore: Self.notBefore, notAfter: Self.notAfter,
                publicKey: .key(Self.rootKey),
                extensions: [TestExtension(oid: oid, critical: false, value: TestDER.null)])
            #expect(throws: JWSTestingError.self) { try bad.sign(with: Self.rootKey) }
        }
        #expect(try TestDER.objectIdentifier("2.999.3") == Data([0x06, 0x03, 0x88, 0x37, 0x03]))
    }
}
