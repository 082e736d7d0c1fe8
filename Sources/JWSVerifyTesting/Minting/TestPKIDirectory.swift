import Foundation

/// A directory holding a test PKI, as `jwsverify mint pki` writes it and `mint token` and `mint receipt` read it:
/// its files with what each one is, and writing and loading that say what is missing.
///
/// A ``Profile/tokens`` directory holds a ``TestHierarchy`` of the ``TestHierarchy/Profile/appStoreEC`` profile (signs
/// tokens); a ``Profile/receipts`` directory one of the ``TestHierarchy/Profile/receiptRSA`` profile (signs app
/// receipts) and an Xcode StoreKit Testing credential.
public enum TestPKIDirectory {
    /// Which hierarchy a directory holds.
    public enum Profile: Sendable, Hashable {
        /// The EC hierarchy that signs tokens.
        case tokens
        /// The RSA hierarchy that signs app receipts, with an Xcode StoreKit Testing credential.
        case receipts
    }

    /// A file of a PKI directory and what it is, as a listing shows it.
    public struct File: Sendable, Hashable {
        /// The file name.
        public var name: String
        /// What the file holds, one phrase.
        public var description: String
    }

    /// Why a directory holds no usable PKI.
    public enum LoadError: Error {
        /// Nothing is at the path.
        case noSuchDirectory
        /// The path is not a directory.
        case notADirectory
        /// The directory lacks these files (a certificate by its DER name when neither its DER nor its PEM file
        /// is there; a key by its name), in ``files(_:)`` order.
        case missingFiles([String])
        /// A file could not be read or does not hold what it should (a key not its certificate's, ...).
        case unreadable(any Error)
    }

    /// The files ``write(_:to:seed:)`` writes for `profile`, in the order a listing shows them.
    public static func files(_ profile: Profile) -> [File] {
        let names = TestHierarchy.FileName.self
        let receipts = profile == .receipts
        let keys = [
            File(name: names.rootKey, description: "root private key, PKCS#8 PEM, mode 0600"),
            File(name: names.intermediateKey, description: "intermediate private key, PKCS#8 PEM, mode 0600"),
            File(name: names.leafKey, description: "leaf private key, PKCS#8 PEM, mode 0600"),
        ]
        let certificates = [
            File(
                name: names.rootDER,
                description: receipts
                    ? "root certificate (RSA, named like Apple Root CA), DER: trust this one in your tests"
                    : "root certificate (P-384), DER: trust this one in your tests"),
            File(name: names.rootPEM, description: "root certificate, PEM"),
            File(
                name: names.intermediateDER,
                description: receipts
                    ? "intermediate certificate (RSA, WWDR G5's names and marker), DER"
                    : "intermediate certificate (P-384, Apple's intermediate marker), DER"),
            File(name: names.intermediatePEM, description: "intermediate certificate, PEM"),
            File(
                name: names.leafDER,
                description: receipts
                    ? "receipt signing leaf (RSA, receipt signing marker) that signs receipts, DER"
                    : "leaf certificate (P-256, receipt signing marker) that signs tokens, DER"),
            File(name: names.leafPEM, description: "leaf certificate, PEM"),
        ]
        guard receipts else { return certificates + keys }
        let xcode = TestHierarchy.XcodeFileName.self
        return certificates + keys + [
            File(
                name: xcode.certificateDER,
                description: "StoreKit Testing certificate (self-signed RSA), DER: for '--xcode-certificate'"),
            File(name: xcode.certificatePEM, description: "StoreKit Testing certificate, PEM"),
            File(name: xcode.key, description: "StoreKit Testing private key, PKCS#8 PEM, mode 0600"),
        ]
    }

    /// The names of the files of `profile` that exist in `directory` (a dangling symbolic link counts).
    public static func existingFiles(_ profile: Profile, in directory: URL) -> [String] {
        files(profile).map(\.name).filter { name in
            (try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)) != nil
        }
    }

    /// Generates a hierarchy of `profile` and writes its files into `directory` (created when missing; existing
    /// files replaced).
    ///
    /// - Parameters:
    ///   - profile: The hierarchy.
    ///   - directory: Where to write.
    ///   - seed: Makes the EC keys and serial numbers repeatable; nil for random. RSA keys are always random: a
    ///     seed is refused with ``Profile/receipts``.
    /// - Returns: the validity of the root.
    /// - Throws: ``JWSTestingError/invalidArgument(_:)`` for a seed with ``Profile/receipts``; the errors of
    ///   generating and writing.
    public static func write(_ profile: Profile, to directory: URL, seed: UInt64? = nil) throws -> ClosedRange<Date> {
        if profile == .receipts, seed != nil {
            throw JWSTestingError.invalidArgument("the RSA keys of a receipt PKI are always random")
        }
        let hierarchy = try TestHierarchy.generate(profile == .tokens ? .appStoreEC : .receiptRSA, seed: seed)
        try hierarchy.write(to: directory)
        if profile == .receipts {
            try TestHierarchy.writeXcodeStoreKitCredential(TestHierarchy.makeXcodeStoreKitCertificate(), to: directory)
        }
        return hierarchy.root.notBefore...hierarchy.root.notAfter
    }

    /// Loads a minter for the hierarchy of a ``Profile/tokens`` directory.
    ///
    /// - Throws: ``LoadError``: no directory, not one, files missing, or a file unusable (a key not EC, ...).
    public static func loadTokenMinter(from directory: URL) throws(LoadError) -> TokenMinter {
        try checkDirectory(directory)
        func exists(_ name: String) -> Bool {
            FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path)
        }
        let names = TestHierarchy.FileName.self
        let missing =
            [
                (names.rootDER, names.rootPEM), (names.intermediateDER, names.intermediatePEM),
                (names.leafDER, names.leafPEM),
            ].filter { !exists($0.0) && !exists($0.1) }.map(\.0)
            + [names.rootKey, names.intermediateKey, names.leafKey].filter { !exists($0) }
        guard missing.isEmpty else { throw .missingFiles(missing) }
        do {
            return try TokenMinter(hierarchy: TestHierarchy.load(from: directory))
        } catch {
            throw .unreadable(error)
        }
    }

    /// Loads the receipt signer of a ``Profile/receipts`` directory: its receipt signing leaf (App Store shape), or
    /// its StoreKit Testing credential (`xcode`).
    ///
    /// - Throws: ``LoadError``: no directory (``LoadError/notADirectory`` for either), or a file unusable (a key
    ///   not RSA, ...).
    public static func loadReceiptSigner(from directory: URL, xcode: Bool) throws(LoadError) -> ReceiptSigner {
        do {
            try checkDirectory(directory)
        } catch {
            throw .notADirectory
        }
        do {
            if xcode { return .xcode(try TestHierarchy.loadXcodeStoreKitCredential(from: directory)) }
            let hierarchy = try TestHierarchy.load(from: directory)
            for (key, role) in [
                (hierarchy.rootKey, "root"), (hierarchy.intermediateKey, "intermediate"), (hierarchy.leafKey, "leaf"),
            ] {
                guard case .rsa = key else { throw JWSTestingError.invalidArgument("the \(role) key is not RSA") }
            }
            return ReceiptSigner(hierarchy: hierarchy)
        } catch {
            throw .unreadable(error)
        }
    }

    private static func checkDirectory(_ directory: URL) throws(LoadError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) else {
            throw .noSuchDirectory
        }
        guard isDirectory.boolValue else { throw .notADirectory }
    }
}
