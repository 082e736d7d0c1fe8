import Foundation

extension TestHierarchy {
    /// The files of an Xcode StoreKit Testing credential (``TestHierarchy/makeXcodeStoreKitCertificate(validity:keyBits:)``)
    /// that ``writeXcodeStoreKitCredential(_:to:)`` writes beside a hierarchy and
    /// ``loadXcodeStoreKitCredential(from:)`` reads.
    public enum XcodeFileName {
        /// The certificate, DER: what a verifier pins (Xcode's Editor > Save Public Certificate).
        public static let certificateDER = "storekit.der"
        /// The certificate, PEM.
        public static let certificatePEM = "storekit.pem"
        /// Its private key, PKCS#8 PEM, mode 0600.
        public static let key = "storekit.key.pem"
    }

    /// Writes an Xcode StoreKit Testing credential into `directory` (created when missing) under the names of
    /// ``XcodeFileName``, replacing existing files; the key with mode 0600.
    ///
    /// - Throws: ``JWSTestingError/file(path:message:)`` when a file cannot be written.
    public static func writeXcodeStoreKitCredential(_ credential: TestSigningCredential, to directory: URL) throws {
        try FileOutput.makeDirectory(directory)
        try FileOutput.write(
            credential.certificate.der, to: directory.appendingPathComponent(XcodeFileName.certificateDER))
        try FileOutput.write(
            credential.certificate.pem, to: directory.appendingPathComponent(XcodeFileName.certificatePEM))
        try FileOutput.writeSecret(
            credential.privateKey.pkcs8PEM(), to: directory.appendingPathComponent(XcodeFileName.key))
    }

    /// Reads a credential written by ``writeXcodeStoreKitCredential(_:to:)``: the DER certificate and its RSA key.
    ///
    /// - Throws: ``JWSTestingError/file(path:message:)`` for a missing file, ``JWSTestingError/keyMismatch(_:)``
    ///   when the key is not the certificate's.
    public static func loadXcodeStoreKitCredential(from directory: URL) throws -> TestSigningCredential {
        let certificate = try TestCertificate(
            der: FileOutput.read(directory.appendingPathComponent(XcodeFileName.certificateDER)))
        let key = try TestRSAPrivateKey(pem: FileOutput.readText(directory.appendingPathComponent(XcodeFileName.key)))
        guard key.publicKeyDER == certificate.publicKeyDER else {
            throw JWSTestingError.keyMismatch("\(XcodeFileName.key) does not belong to \(XcodeFileName.certificateDER)")
        }
        return TestSigningCredential(certificate: certificate, privateKey: .rsa(key))
    }
}
