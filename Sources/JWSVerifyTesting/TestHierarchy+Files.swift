import Foundation

extension TestHierarchy {
    /// The files ``write(to:)`` writes and ``load(from:)`` reads (those of `jwsverify mint pki`).
    public enum FileName {
        /// Root certificate, DER.
        public static let rootDER = "root.der"
        /// Root certificate, PEM.
        public static let rootPEM = "root.pem"
        /// Intermediate certificate, DER.
        public static let intermediateDER = "intermediate.der"
        /// Intermediate certificate, PEM.
        public static let intermediatePEM = "intermediate.pem"
        /// Leaf certificate, DER.
        public static let leafDER = "leaf.der"
        /// Leaf certificate, PEM.
        public static let leafPEM = "leaf.pem"
        /// Root private key, PKCS#8 PEM, mode 0600.
        public static let rootKey = "root.key.pem"
        /// Intermediate private key, PKCS#8 PEM, mode 0600.
        public static let intermediateKey = "intermediate.key.pem"
        /// Leaf private key, PKCS#8 PEM, mode 0600.
        public static let leafKey = "leaf.key.pem"
    }

    /// Writes root.der, root.pem, intermediate.der, intermediate.pem, leaf.der, leaf.pem and the PKCS#8 keys
    /// root.key.pem, intermediate.key.pem, leaf.key.pem (mode 0600) into `directory`, creating it when missing
    /// and replacing existing files.
    ///
    /// - Throws: ``JWSTestingError/file(path:message:)`` when a file cannot be written.
    public func write(to directory: URL) throws {
        try FileOutput.writeHierarchy(
            (root, intermediate, leaf), keyPEMs: (rootKey.pkcs8PEM(), intermediateKey.pkcs8PEM(), leafKey.pkcs8PEM()),
            to: directory)
    }

    /// Reads a hierarchy written by ``write(to:)``: certificates from the DER files (or the PEM files when a
    /// DER file is missing) and the keys from the PEM key files (EC: PKCS#8 or SEC1; RSA: PKCS#8 or PKCS#1).
    /// Each key must belong to its certificate. The profile is `.receiptRSA` when the leaf key is RSA,
    /// `.appStoreEC` otherwise.
    ///
    /// - Throws: ``JWSTestingError/file(path:message:)`` for a missing file, ``JWSTestingError/keyMismatch(_:)``
    ///   when a key is not its certificate's.
    public static func load(from directory: URL) throws -> TestHierarchy {
        func certificate(_ der: String, _ pem: String) throws -> TestCertificate {
            let derURL = directory.appendingPathComponent(der)
            if FileManager.default.fileExists(atPath: derURL.path) {
                return try TestCertificate(der: FileOutput.read(derURL))
            }
            return try TestCertificate(pem: FileOutput.readText(directory.appendingPathComponent(pem)))
        }
        func key(_ name: String, for certificate: TestCertificate) throws -> TestSigningKey {
            let pem = try FileOutput.readText(directory.appendingPathComponent(name))
            let key: TestSigningKey
            if let ec = try? TestPrivateKey(pem: pem) {
                key = .ec(ec)
            } else {
                key = .rsa(try TestRSAPrivateKey(pem: pem))
            }
            guard key.publicKeyDER == certificate.publicKeyDER else {
                throw JWSTestingError.keyMismatch("\(name) does not belong to \(certificate.subject.commonName)")
            }
            return key
        }
        let root = try certificate(FileName.rootDER, FileName.rootPEM)
        let intermediate = try certificate(FileName.intermediateDER, FileName.intermediatePEM)
        let leaf = try certificate(FileName.leafDER, FileName.leafPEM)
        let rootKey = try key(FileName.rootKey, for: root)
        let intermediateKey = try key(FileName.intermediateKey, for: intermediate)
        let leafKey = try key(FileName.leafKey, for: leaf)
        let profile: Profile
        if case .rsa = leafKey { profile = .receiptRSA } else { profile = .appStoreEC }
        return TestHierarchy(
            profile: profile, root: root, rootKey: rootKey, intermediate: intermediate,
            intermediateKey: intermediateKey, leaf: leaf, leafKey: leafKey)
    }

    /// Reads a hierarchy written by ``write(to:)``, as ``load(from:)`` does, and checks that its three keys are
    /// `profile`'s: EC for ``Profile/appStoreEC`` (a token minter's), RSA for ``Profile/receiptRSA`` (a receipt
    /// signer's).
    ///
    /// - Throws: what ``load(from:)`` throws, and ``JWSTestingError/invalidArgument(_:)`` when a key is of the
    ///   other kind.
    public static func load(from directory: URL, profile: Profile) throws -> TestHierarchy {
        var hierarchy = try load(from: directory)
        let keys = [("the root", hierarchy.rootKey), ("the intermediate", hierarchy.intermediateKey),
            ("the leaf", hierarchy.leafKey)]
        for (role, key) in keys {
            switch (profile, key) {
            case (.appStoreEC, .rsa): _ = try ecKey(key, role)
            case (.receiptRSA, .ec): throw JWSTestingError.invalidArgument("\(role) key is not RSA")
            default: break
            }
        }
        hierarchy.profile = profile
        return hierarchy
    }
}
