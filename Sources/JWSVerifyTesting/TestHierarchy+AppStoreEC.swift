import Foundation

extension TestHierarchy {
    /// The names, URLs and certificate profiles of ``Profile/appStoreEC``: the App Store's JWS chain, with
    /// names that say they are test certificates and not Apple's.
    public enum AppStoreEC {
        /// Subject of the root.
        public static let rootName = TestDistinguishedName(
            commonName: "JWSVerify Test Root CA - NOT APPLE", organizationalUnit: "JWSVerify Testing",
            organization: "JWSVerify Tests (not Apple Inc.)", country: "US")
        /// Subject of the intermediate.
        public static let intermediateName = TestDistinguishedName(
            commonName: "JWSVerify Test Developer Relations CA - NOT APPLE",
            organizationalUnit: "JWSVerify Testing", organization: "JWSVerify Tests (not Apple Inc.)",
            country: "US")
        /// Subject of the leaf.
        public static let leafName = TestDistinguishedName(
            commonName: "JWSVerify Test App Store Signing - NOT APPLE",
            organizationalUnit: "JWSVerify Testing", organization: "JWSVerify Tests (not Apple Inc.)",
            country: "US")
        /// The default OCSP URL written into the intermediate (the root's responder; never resolves).
        public static let rootOCSPURL = "http://ocsp.jwsverify.invalid/test-root"
        /// The default OCSP URL written into leaves (the intermediate's responder; never resolves).
        public static let intermediateOCSPURL = "http://ocsp.jwsverify.invalid/test-intermediate"

        static func rootSpec(
            name: TestDistinguishedName, serial: Data, validity: ClosedRange<Date>
        )
            -> TestCertificateSpec
        {
            TestCertificateSpec(
                subject: name, issuer: name, serialNumber: serial, notBefore: validity.lowerBound,
                notAfter: validity.upperBound, isCertificateAuthority: true,
                keyUsage: [.keyCertSign, .cRLSign], includeAuthorityKeyIdentifier: false)
        }

        static func intermediateSpec(
            name: TestDistinguishedName, issuer: TestDistinguishedName, serial: Data,
            validity: ClosedRange<Date>, includeAppleMarker: Bool,
            isCertificateAuthority: Bool, ocspURL: String? = rootOCSPURL
        ) -> TestCertificateSpec {
            TestCertificateSpec(
                subject: name, issuer: issuer, serialNumber: serial, notBefore: validity.lowerBound,
                notAfter: validity.upperBound, isCertificateAuthority: isCertificateAuthority,
                pathLengthConstraint: isCertificateAuthority ? 0 : nil,
                keyUsage: [.keyCertSign, .cRLSign],
                appleMarkerOID: includeAppleMarker ? TestHierarchy.intermediateMarkerOID : nil, ocspURL: ocspURL)
        }

        static func leafSpec(
            name: TestDistinguishedName, issuer: TestDistinguishedName, serial: Data,
            validity: ClosedRange<Date>, includeAppleMarker: Bool, ocspURL: String? = intermediateOCSPURL
        ) -> TestCertificateSpec {
            TestCertificateSpec(
                subject: name, issuer: issuer, serialNumber: serial, notBefore: validity.lowerBound,
                notAfter: validity.upperBound, isCertificateAuthority: false, keyUsage: [.digitalSignature],
                appleMarkerOID: includeAppleMarker ? TestHierarchy.leafMarkerOID : nil, ocspURL: ocspURL)
        }
    }

    /// The `.appStoreEC` hierarchy of `seed`: keys labelled root, intermediate and leaf, serial numbers in
    /// that order from one generator (the derivation the deprecated `TestPKI.generate(seed:)` has always used).
    static func generateAppStoreEC(seed: UInt64, options: Options) throws -> TestHierarchy {
        let validity = options.validity ?? defaultValidity
        let keyLabel = options.label.map { "\($0)-" } ?? ""
        func name(_ role: String, _ standard: TestDistinguishedName) -> TestDistinguishedName {
            guard let label = options.label else { return standard }
            return TestDistinguishedName(commonName: "\(label) \(role) NOT APPLE", organization: "JWSVerify Tests")
        }
        let rootKey = try TestPrivateKey.generate(curve: .p384, seed: seed, label: keyLabel + "root")
        var serials = SeededGenerator(seed: seed, label: "serial-numbers")
        let root = try TestCertificate.issue(
            AppStoreEC.rootSpec(
                name: name("Root", AppStoreEC.rootName), serial: serials.serialNumber(), validity: validity),
            subjectKey: rootKey, issuerKey: nil)

        let intermediateKey = try TestPrivateKey.generate(curve: .p384, seed: seed, label: keyLabel + "intermediate")
        let intermediateValidity = options.intermediateValidity ?? validity
        let intermediate = try TestCertificate.issue(
            AppStoreEC.intermediateSpec(
                name: name("Intermediate", AppStoreEC.intermediateName), issuer: root.subject,
                serial: serials.serialNumber(),
                validity: intermediateValidity, includeAppleMarker: true, isCertificateAuthority: true,
                ocspURL: options.rootOCSPURL),
            subjectKey: intermediateKey, issuerKey: rootKey)

        let leafKey = try TestPrivateKey.generate(curve: .p256, seed: seed, label: keyLabel + "leaf")
        let leaf = try TestCertificate.issue(
            AppStoreEC.leafSpec(
                name: name("Leaf", AppStoreEC.leafName), issuer: intermediate.subject,
                serial: serials.serialNumber(),
                validity: options.leafValidity ?? intermediateValidity, includeAppleMarker: true,
                ocspURL: options.intermediateOCSPURL),
            subjectKey: leafKey, issuerKey: intermediateKey)

        return TestHierarchy(
            profile: .appStoreEC, root: root, rootKey: .ec(rootKey), intermediate: intermediate,
            intermediateKey: .ec(intermediateKey), leaf: leaf, leafKey: .ec(leafKey))
    }

    func makeAppStoreECLeaf(
        key: TestSigningKey, validity: ClosedRange<Date>?, includeAppleMarker: Bool, commonName: String?,
        issuer: TestSigningCredential, seed: UInt64, serialNumber: Data?, ocspURL: String?
    ) throws -> TestSigningCredential {
        var serials = SeededGenerator(seed: seed, label: "extra-leaf-serial")
        var name = AppStoreEC.leafName
        if let commonName { name.commonName = commonName }
        let spec = AppStoreEC.leafSpec(
            name: name, issuer: issuer.certificate.subject, serial: serialNumber ?? serials.serialNumber(),
            validity: validity ?? issuer.certificate.notBefore...issuer.certificate.notAfter,
            includeAppleMarker: includeAppleMarker, ocspURL: ocspURL)
        let certificate = try TestCertificate.issue(
            spec, subjectKey: try Self.ecKey(key, "the leaf"),
            issuerKey: try Self.ecKey(issuer.privateKey, "the issuer"))
        return TestSigningCredential(certificate: certificate, privateKey: key)
    }

    func makeAppStoreECIntermediate(
        key: TestSigningKey, validity: ClosedRange<Date>?, includeAppleMarker: Bool, isCertificateAuthority: Bool,
        commonName: String?, seed: UInt64, serialNumber: Data?, ocspURL: String?
    ) throws -> TestSigningCredential {
        var serials = SeededGenerator(seed: seed, label: "extra-intermediate-serial")
        var name = AppStoreEC.intermediateName
        if let commonName { name.commonName = commonName }
        let spec = AppStoreEC.intermediateSpec(
            name: name, issuer: root.subject, serial: serialNumber ?? serials.serialNumber(),
            validity: validity ?? root.notBefore...root.notAfter,
            includeAppleMarker: includeAppleMarker, isCertificateAuthority: isCertificateAuthority, ocspURL: ocspURL)
        let certificate = try TestCertificate.issue(
            spec, subjectKey: try Self.ecKey(key, "the intermediate"), issuerKey: try Self.ecKey(rootKey, "the root"))
        return TestSigningCredential(certificate: certificate, privateKey: key)
    }

    /// `.appStoreEC`: a self-signed P-256 certificate with the leaf profile (marker included), issued by
    /// nobody in this hierarchy: a chain `[selfSigned, intermediate, root]` must not verify.
    ///
    /// - Throws: ``JWSTestingError/invalidArgument(_:)`` for a `.receiptRSA` hierarchy.
    public func makeSelfSignedLeaf(
        validity: ClosedRange<Date>? = nil, seed: UInt64? = nil
    ) throws
        -> TestSigningCredential
    {
        guard profile == .appStoreEC else {
            throw JWSTestingError.invalidArgument("a self-signed leaf is made for the .appStoreEC profile only")
        }
        let seed = seed ?? randomSeed()
        var serials = SeededGenerator(seed: seed, label: "self-signed-leaf-serial")
        let key = try TestPrivateKey.generate(curve: .p256, seed: seed, label: "self-signed-leaf")
        var name = AppStoreEC.leafName
        name.commonName = "JWSVerify Test Self-Signed Leaf - NOT APPLE"
        var spec = AppStoreEC.leafSpec(
            name: name, issuer: name, serial: serials.serialNumber(),
            validity: validity ?? intermediate.notBefore...intermediate.notAfter, includeAppleMarker: true)
        spec.ocspURL = nil
        let certificate = try TestCertificate.issue(spec, subjectKey: key, issuerKey: nil)
        return TestSigningCredential(certificate: certificate, privateKey: .ec(key))
    }

    /// The EC key of `key`, or an error naming `role`.
    static func ecKey(_ key: TestSigningKey, _ role: String) throws -> TestPrivateKey {
        guard case .ec(let ec) = key else {
            throw JWSTestingError.invalidArgument("\(role) of an .appStoreEC certificate needs an EC key, not RSA")
        }
        return ec
    }
}
