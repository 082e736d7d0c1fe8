import Foundation

extension TestHierarchy {
    /// The names and OIDs of ``Profile/receiptRSA``: the chain that signs App Store app receipts (StoreKit 1),
    /// named like Apple's (only the keys differ, so no certificate here verifies under Apple's real root).
    public enum ReceiptRSA {
        /// OID of the marker Apple writes into development (code signing) certificates.
        public static let developerMarkerOID = "1.2.840.113635.100.6.1.2"
        /// id-kp-codeSigning, the extended key usage of developer and Xcode StoreKit certificates.
        public static let codeSigningOID = "1.3.6.1.5.5.7.3.3"

        /// Subject of the root: "C=US, O=Apple Inc., OU=Apple Certification Authority, CN=Apple Root CA"
        /// (PrintableStrings in that order).
        public static let rootName = name([
            .country("US"), printable("2.5.4.10", "Apple Inc."),
            printable("2.5.4.11", "Apple Certification Authority"), printable("2.5.4.3", "Apple Root CA"),
        ])
        /// Subject of the intermediate: "CN=Apple Worldwide Developer Relations Certification Authority,
        /// OU=G5, O=Apple Inc., C=US".
        public static let intermediateName = name([
            .commonName("Apple Worldwide Developer Relations Certification Authority"), .organizationalUnit("G5"),
            .organization("Apple Inc."), .country("US"),
        ])
        /// Subject of the leaf: "CN=Mac App Store and iTunes Store Receipt Signing, OU=Apple Worldwide
        /// Developer Relations, O=Apple Inc., C=US".
        public static let leafName = name([
            .commonName("Mac App Store and iTunes Store Receipt Signing"),
            .organizationalUnit("Apple Worldwide Developer Relations"), .organization("Apple Inc."), .country("US"),
        ])
        /// Subject of ``TestHierarchy/makeDeveloperCertificate(keyBits:validity:)``: an "Apple Development"
        /// code signing identity of a made-up team.
        public static let developerName = name([
            .commonName("Apple Development: JWSVerify Test Developer (TESTTEAM01)"),
            .organizationalUnit("TESTTEAM01"), .organization("JWSVerify Test Developer"), .country("US"),
        ])
        /// Subject (and issuer) of ``TestHierarchy/makeXcodeStoreKitCertificate(validity:keyBits:)``, as Xcode
        /// writes it: "CN=StoreKit, O=StoreKit, OU=StoreKit, C=US, emailAddress=StoreKit".
        public static let xcodeStoreKitName = name([
            .commonName("StoreKit"), .organization("StoreKit"), .organizationalUnit("StoreKit"), .country("US"),
            CraftedName.Attribute(oid: "1.2.840.113549.1.9.1", value: "StoreKit", stringTag: 0x16),
        ])

        static func name(_ attributes: [CraftedName.Attribute]) -> CraftedName {
            // Built-in OIDs only: cannot fail.
            (try? CraftedName(attributes)) ?? CraftedName(der: TestDER.sequence([]))
        }

        static func printable(_ oid: String, _ value: String) -> CraftedName.Attribute {
            CraftedName.Attribute(oid: oid, value: value, stringTag: 0x13)
        }
    }

    /// The `.receiptRSA` hierarchy: a fresh RSA key per certificate; the root's serial 2, the others' from
    /// `seed`.
    static func generateReceiptRSA(seed: UInt64, options: Options) throws -> TestHierarchy {
        let validity = options.validity ?? defaultValidity
        let digest = options.certificateDigest
        let rootKey = try TestRSAPrivateKey.generate(bits: options.rsaKeyBits)
        let rootSPKI = rootKey.publicKeyDER
        let rootCertificate = CraftedCertificate(
            subject: ReceiptRSA.rootName, issuer: ReceiptRSA.rootName, serialNumber: Data([0x02]),
            notBefore: seconds(validity.lowerBound), notAfter: seconds(validity.upperBound),
            signatureDigest: digest, publicKey: .subjectPublicKeyInfo(rootSPKI),
            extensions: [
                .keyUsage([.keyCertSign, .cRLSign]), .basicConstraints(ca: true),
                .subjectKeyIdentifier(try keyIdentifier(rootSPKI)),
                .authorityKeyIdentifier(try keyIdentifier(rootSPKI)),
            ])
        let root = try TestCertificate(der: rootCertificate.sign(with: .rsa(rootKey)))
        var seeds = SeededGenerator(seed: seed, label: "receipt-hierarchy")
        var hierarchy = TestHierarchy(
            profile: .receiptRSA, root: root, rootKey: .rsa(rootKey), intermediate: root,
            intermediateKey: .rsa(rootKey),
            leaf: root, leafKey: .rsa(rootKey))
        let intermediate = try hierarchy.makeIntermediate(
            validity: options.intermediateValidity, keyBits: options.rsaKeyBits, certificateDigest: digest,
            seed: seeds.next())
        hierarchy = hierarchy.replacing(intermediate: intermediate)
        let leaf = try hierarchy.makeLeaf(
            validity: options.leafValidity, keyBits: options.rsaKeyBits, certificateDigest: digest, seed: seeds.next())
        return hierarchy.replacing(leaf: leaf)
    }

    func makeReceiptRSAIntermediate(
        key: TestSigningKey, validity: ClosedRange<Date>?, includeAppleMarker: Bool, isCertificateAuthority: Bool,
        commonName: String?, certificateDigest: CraftedDigest, seed: UInt64, serialNumber: Data?
    ) throws -> TestSigningCredential {
        let subject =
            commonName.map {
                ReceiptRSA.name([
                    .commonName($0), .organizationalUnit("G5"), .organization("Apple Inc."), .country("US"),
                ])
            } ?? ReceiptRSA.intermediateName
        var extensions: [TestExtension] = [
            .basicConstraints(ca: isCertificateAuthority, pathLength: isCertificateAuthority ? 0 : nil),
            .authorityKeyIdentifier(try Self.keyIdentifier(root.publicKeyDER)),
            .subjectKeyIdentifier(try Self.keyIdentifier(key.publicKeyDER)),
            .keyUsage([.keyCertSign, .cRLSign]),
        ]
        if includeAppleMarker { extensions.append(.appleIntermediateMarker()) }
        return try issue(
            subject: subject, key: key, validity: validity ?? root.notBefore...root.notAfter, extensions: extensions,
            digest: certificateDigest, issuer: rootCredential, seed: seed, serialNumber: serialNumber)
    }

    func makeReceiptRSALeaf(
        key: TestSigningKey, validity: ClosedRange<Date>?, includeAppleMarker: Bool, commonName: String?,
        issuer: TestSigningCredential, certificateDigest: CraftedDigest, seed: UInt64, serialNumber: Data?
    ) throws -> TestSigningCredential {
        let subject =
            commonName.map {
                ReceiptRSA.name([
                    .commonName($0), .organizationalUnit("Apple Worldwide Developer Relations"),
                    .organization("Apple Inc."), .country("US"),
                ])
            } ?? ReceiptRSA.leafName
        var extensions: [TestExtension] = [
            .basicConstraints(ca: false),
            .authorityKeyIdentifier(try Self.keyIdentifier(issuer.certificate.publicKeyDER)),
            .subjectKeyIdentifier(try Self.keyIdentifier(key.publicKeyDER)),
            .keyUsage([.digitalSignature]),
        ]
        if includeAppleMarker { extensions.append(.appleLeafMarker()) }
        return try issue(
            subject: subject, key: key,
            validity: validity ?? issuer.certificate.notBefore...issuer.certificate.notAfter,
            extensions: extensions, digest: certificateDigest, issuer: issuer, seed: seed, serialNumber: serialNumber)
    }

    /// `.receiptRSA`: a developer's code signing certificate issued by this hierarchy's intermediate: keyUsage
    /// digitalSignature, extendedKeyUsage codeSigning (critical) and Apple's developer marker
    /// 1.2.840.113635.100.6.1.2 (non-critical here, so that OpenSSL's path check does not stop at it), but not
    /// the receipt leaf marker. It chains to ``root`` like the real leaf: a receipt it signs is the classic
    /// forgery, which only the marker check stops.
    ///
    /// - Parameters:
    ///   - keyBits: the RSA key size.
    ///   - validity: nil means the intermediate's validity.
    public func makeDeveloperCertificate(
        keyBits: Int = 2048, validity: ClosedRange<Date>? = nil
    ) throws
        -> TestSigningCredential
    {
        let key = TestSigningKey.rsa(try TestRSAPrivateKey.generate(bits: keyBits))
        let extensions: [TestExtension] = [
            .basicConstraints(ca: false),
            .authorityKeyIdentifier(try Self.keyIdentifier(intermediate.publicKeyDER)),
            .keyUsage([.digitalSignature]),
            try .extendedKeyUsage([ReceiptRSA.codeSigningOID], critical: true),
            .subjectKeyIdentifier(try Self.keyIdentifier(key.publicKeyDER)),
            TestExtension(oid: ReceiptRSA.developerMarkerOID, critical: false, value: TestDER.null),
        ]
        return try issue(
            subject: ReceiptRSA.developerName, key: key,
            validity: validity ?? intermediate.notBefore...intermediate.notAfter, extensions: extensions,
            digest: .sha256, issuer: intermediateCredential, seed: randomSeed())
    }

    /// An Xcode StoreKit Testing style certificate: self-signed RSA, serial 1, named
    /// ``ReceiptRSA/xcodeStoreKitName``, basicConstraints CA:TRUE, keyUsage digitalSignature and keyCertSign,
    /// extendedKeyUsage codeSigning (all critical, as Xcode writes them), sha256WithRSAEncryption. Sign with
    /// ``ReceiptSigner/xcode(_:)``, which embeds only this certificate and writes BER.
    ///
    /// - Parameters:
    ///   - validity: nil means ``defaultValidity`` (Xcode's own run for 20 years).
    ///   - keyBits: the RSA key size (Xcode's: 2048).
    public static func makeXcodeStoreKitCertificate(
        validity: ClosedRange<Date>? = nil, keyBits: Int = 2048
    ) throws
        -> TestSigningCredential
    {
        let validity = validity ?? defaultValidity
        let key = try TestRSAPrivateKey.generate(bits: keyBits)
        let certificate = CraftedCertificate(
            subject: ReceiptRSA.xcodeStoreKitName, issuer: ReceiptRSA.xcodeStoreKitName, serialNumber: Data([0x01]),
            notBefore: seconds(validity.lowerBound), notAfter: seconds(validity.upperBound),
            signatureDigest: .sha256, publicKey: .subjectPublicKeyInfo(key.publicKeyDER),
            extensions: [
                .basicConstraints(ca: true), .keyUsage([.digitalSignature, .keyCertSign]),
                try .extendedKeyUsage([ReceiptRSA.codeSigningOID], critical: true),
            ])
        return TestSigningCredential(
            certificate: try TestCertificate(der: certificate.sign(with: .rsa(key))), privateKey: .rsa(key))
    }

    // MARK: Parts

    private func issue(
        subject: CraftedName, key: TestSigningKey, validity: ClosedRange<Date>, extensions: [TestExtension],
        digest: CraftedDigest, issuer: TestSigningCredential, seed: UInt64, serialNumber: Data? = nil
    ) throws -> TestSigningCredential {
        var serials = SeededGenerator(seed: seed, label: "receipt-serial")
        let certificate = CraftedCertificate(
            subject: subject, issuer: CraftedName(der: try Self.subjectDER(of: issuer.certificate)),
            serialNumber: serialNumber ?? serials.serialNumber(), notBefore: Self.seconds(validity.lowerBound),
            notAfter: Self.seconds(validity.upperBound), signatureDigest: digest,
            publicKey: .subjectPublicKeyInfo(key.publicKeyDER), extensions: extensions)
        return TestSigningCredential(
            certificate: try TestCertificate(der: certificate.sign(with: issuer.privateKey)), privateKey: key)
    }

    /// The subject Name DER of a certificate, so that an issued certificate's issuer is byte-identical.
    static func subjectDER(of certificate: TestCertificate) throws -> Data {
        // Certificate { TBSCertificate { [0] version, serial, signature, issuer, validity, subject, ... } }
        var outer = TestDERReader(certificate.der)
        var contents = try outer.read(tag: 0x30)
        var fields = try contents.read(tag: 0x30)
        for tag: UInt8 in [0xA0, 0x02, 0x30, 0x30, 0x30] { _ = try fields.read(tag: tag) }
        let before = fields.remaining
        _ = try fields.read(tag: 0x30)
        return Data(before.prefix(before.count - fields.remaining.count))
    }

    private static func keyIdentifier(_ spki: Data) throws -> Data {
        try CraftedPublicKey.keyIdentifier(ofSPKI: spki)
    }

    private static func seconds(_ date: Date) -> Int64 {
        Int64(date.timeIntervalSince1970.rounded(.down))
    }
}
