import Foundation

extension CraftedCertificate {
    /// The extensions of a ``TestHierarchy`` `.appStoreEC` root (basicConstraints CA critical, keyUsage keyCertSign and
    /// cRLSign critical, subjectKeyIdentifier), then `extra`.
    public static func rootProfile(
        name: CraftedName, key: TestPrivateKey, notBefore: Int64, notAfter: Int64, serialNumber: Data = Data([0x01]),
        extra: [TestExtension] = []
    ) throws -> CraftedCertificate {
        CraftedCertificate(
            subject: name, issuer: name, serialNumber: serialNumber, notBefore: notBefore, notAfter: notAfter,
            publicKey: .key(key),
            extensions: [
                .basicConstraints(ca: true), .keyUsage([.keyCertSign, .cRLSign]),
                .subjectKeyIdentifier(try CraftedPublicKey.keyIdentifier(ofSPKI: key.publicKeyDER)),
            ] + extra)
    }

    /// The extensions of a ``TestHierarchy`` `.appStoreEC` intermediate (basicConstraints CA pathLen 0 critical,
    /// keyUsage keyCertSign and cRLSign critical, key identifiers, OCSP access, Apple's
    /// intermediate marker), then `extra`.
    public static func intermediateProfile(
        name: CraftedName, issuer: CraftedName, key: TestPrivateKey, issuerKey: TestPrivateKey, notBefore: Int64,
        notAfter: Int64, serialNumber: Data = Data([0x02]), extra: [TestExtension] = []
    ) throws -> CraftedCertificate {
        CraftedCertificate(
            subject: name, issuer: issuer, serialNumber: serialNumber, notBefore: notBefore, notAfter: notAfter,
            publicKey: .key(key),
            extensions: [
                .basicConstraints(ca: true, pathLength: 0), .keyUsage([.keyCertSign, .cRLSign]),
                .subjectKeyIdentifier(try CraftedPublicKey.keyIdentifier(ofSPKI: key.publicKeyDER)),
                .authorityKeyIdentifier(try CraftedPublicKey.keyIdentifier(ofSPKI: issuerKey.publicKeyDER)),
                .ocspAccess(TestHierarchy.AppStoreEC.rootOCSPURL), .appleIntermediateMarker(),
            ] + extra)
    }

    /// The extensions of a ``TestHierarchy`` `.appStoreEC` leaf (basicConstraints CA false critical, keyUsage
    /// digitalSignature critical, key identifiers, OCSP access, Apple's leaf marker), then `extra`.
    /// The subject key identifier is computed from `publicKey`'s SPKI when it has an EC point.
    public static func leafProfile(
        name: CraftedName, issuer: CraftedName, publicKey: CraftedPublicKey, issuerKey: TestPrivateKey,
        notBefore: Int64, notAfter: Int64, serialNumber: Data = Data([0x03]), signatureDigest: CraftedDigest = .sha384,
        extra: [TestExtension] = []
    ) throws -> CraftedCertificate {
        let spki = try publicKey.der()
        let identifier = (try? CraftedPublicKey.keyIdentifier(ofSPKI: spki)) ?? TestSHA1.hash(spki)
        return CraftedCertificate(
            subject: name, issuer: issuer, serialNumber: serialNumber, notBefore: notBefore, notAfter: notAfter,
            signatureDigest: signatureDigest, publicKey: publicKey,
            extensions: [
                .basicConstraints(ca: false), .keyUsage([.digitalSignature]), .subjectKeyIdentifier(identifier),
                .authorityKeyIdentifier(try CraftedPublicKey.keyIdentifier(ofSPKI: issuerKey.publicKeyDER)),
                .ocspAccess(TestHierarchy.AppStoreEC.intermediateOCSPURL), .appleLeafMarker(),
            ] + extra)
    }
}
