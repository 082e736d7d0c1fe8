import Foundation
import JWSVerifyTesting

@testable import JWSVerify

/// The minted receipts of `TestVectors/receipts/minted/`: a fixed Apple-shaped test PKI (`pki/`, made once by
/// ``TestHierarchy/generate(_:seed:options:)``, profile `.receiptRSA`) and receipts
/// signed with it, one per shape the `receipts` fuzz target starts from and the tests check (DER and BER, SHA-1 and
/// SHA-256, base64, Xcode, and one crafted failure per receipt check), with `manifest.json` giving each its
/// expected verdict.
///
/// RSA PKCS #1 v1.5 signatures without signed attributes are deterministic: ``mint()`` with the committed PKI
/// gives the committed files byte for byte, which `MintedReceiptVectorTests` checks. Regenerate (new keys, new
/// receipts) with `JWSVERIFY_WRITE_VECTORS=1 swift test --filter writeMintedReceiptVectors`.
public enum ReceiptFuzzVectors {
    /// The bundle id of the minted receipts (but `wrong-bundle-id`).
    public static let bundleId = "com.example.receipts"
    /// The app Apple id (field 1) of the minted receipts.
    public static let appAppleId: Int64 = 1234
    /// The creation date (field 12) of the minted receipts, their validation time: 2026-03-15T12:00:00Z.
    public static let created = Date(timeIntervalSince1970: 1_773_576_000)
    /// The device identifier whose SHA-1 hash (with the opaque value and bundle id) the minted receipts carry.
    public static let deviceIdentifier: [UInt8] = Array(0..<16)
    /// The opaque value (field 4) of the minted receipts.
    public static let opaqueValue: [UInt8] = [0x5E, 0xED, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05]

    /// `TestVectors/receipts/minted`, relative to `TestVectors`.
    public static let folder = "receipts/minted"

    /// The fixed PKI: root, WWDR-style intermediate and receipt-signing leaf (`pki/`).
    public static let pki: TestHierarchy = {
        do {
            return try TestHierarchy.load(
                from: FuzzVectors.directory.appendingPathComponent(folder + "/pki"), profile: .receiptRSA)
        } catch {
            fatalError("\(folder)/pki does not load: \(error)")
        }
    }()

    /// A developer certificate issued by the PKI's intermediate (`pki/developer.*`): the classic forgery's signer.
    public static let developer: TestSigningCredential = credential("developer")
    /// A self-signed Xcode StoreKit Testing certificate (`pki/xcode.*`).
    public static let xcode: TestSigningCredential = credential("xcode")

    private static func credential(_ name: String) -> TestSigningCredential {
        let directory = FuzzVectors.directory.appendingPathComponent(folder + "/pki")
        do {
            let certificate = try TestCertificate(
                der: Data(contentsOf: directory.appendingPathComponent(name + ".der")))
            let pem = try String(contentsOf: directory.appendingPathComponent(name + ".key.pem"), encoding: .utf8)
            return TestSigningCredential(certificate: certificate, privateKey: .rsa(try TestRSAPrivateKey(pem: pem)))
        } catch {
            fatalError("\(folder)/pki/\(name) does not load: \(error)")
        }
    }

    /// Generates a new PKI (new RSA keys) with a developer and an Xcode certificate and writes it into
    /// `directory` (`root.*`, `intermediate.*`, `leaf.*`, `developer.*`, `xcode.*`; DER certificates, PKCS #8 keys).
    ///
    /// - Throws: ``JWSTestingError`` when a key, a certificate or a file cannot be made.
    public static func writeNewPKI(to directory: URL) throws {
        let pki = try TestHierarchy.generate(.receiptRSA)
        try pki.write(to: directory)
        let credentials = [
            ("developer", try pki.makeDeveloperCertificate()),
            ("xcode", try TestHierarchy.makeXcodeStoreKitCertificate()),
        ]
        for (name, credential) in credentials {
            try credential.certificate.der.write(to: directory.appendingPathComponent(name + ".der"))
            try Data(try credential.privateKey.pkcs8PEM().utf8).write(
                to: directory.appendingPathComponent(name + ".key.pem"))
        }
    }

    /// Which verifier configuration a minted receipt is checked with.
    public enum Configuration: String, Sendable, Codable {
        /// Roots: the minted root; bundle id ``bundleId``; app Apple id ``appAppleId``; Production and Sandbox.
        case appStore
        /// Xcode only, pinned to ``xcode``'s certificate.
        case xcode
    }

    /// One minted receipt and its expected verdict.
    public struct Vector: Sendable {
        /// Also the file name without extension.
        public let id: String
        /// What it is, in a sentence.
        public let comment: String
        /// The verifier it is checked with.
        public let configuration: Configuration
        /// The receipt file: DER or BER bytes, or base64 text (`.b64`).
        public let bytes: [UInt8]
        /// Whether ``bytes`` is base64 text.
        public let isBase64: Bool
        /// The expected code, nil when the receipt verifies.
        public let code: VerificationError.Code?
        /// Whether minting again gives the same bytes (not with OpenSSL's signed attributes, which hold the
        /// signing time).
        public let isDeterministic: Bool

        /// The file name under ``folder``.
        public var file: String { id + (isBase64 ? ".b64" : ".der") }
    }

    /// A receipt's content as the minted receipts have it: `purchases` purchases, the device hash of
    /// ``deviceIdentifier``.
    public static func receipt(
        purchases: Int, receiptType: String = "ProductionSandbox", bundleId: String = bundleId,
        created: Date = created,
        transactionIds: (Int) -> (String, String) = { ("\(2_000_000_100_000_000 + $0)", "2000000100000000") }
    ) -> AppReceipt {
        let rawBundleId = ReceiptContentEncoder.utf8String(bundleId)
        let inApp = (0..<purchases).map { index -> InAppPurchaseReceipt in
            let (transactionId, originalTransactionId) = transactionIds(index)
            return InAppPurchaseReceipt(
                quantity: 1, productId: "com.example.receipts.monthly", transactionId: transactionId,
                originalTransactionId: originalTransactionId,
                purchaseDate: created.addingTimeInterval(Double(index - purchases) * 2_592_000),
                originalPurchaseDate: created.addingTimeInterval(Double(-purchases) * 2_592_000),
                expiresDate: created.addingTimeInterval(Double(index - purchases + 1) * 2_592_000),
                webOrderLineItemId: 2_000_000_050_000_000 + Int64(index), isTrialPeriod: index == 0,
                isInIntroOfferPeriod: false)
        }
        return AppReceipt(
            receiptType: receiptType, appItemId: appAppleId, bundleId: bundleId, applicationVersion: "42",
            opaqueValue: opaqueValue, sha1Hash: SHA1.hash(deviceIdentifier + opaqueValue + rawBundleId),
            bundleIdRawValue: rawBundleId, receiptCreationDate: created, originalApplicationVersion: "1.0",
            inApp: inApp)
    }

    /// Every minted receipt, signed with the committed PKI (deterministic).
    ///
    /// - Throws: ``JWSTestingError`` when OpenSSL refuses to sign.
    public static func mint() throws -> [Vector] {
        let signer = ReceiptSigner(hierarchy: pki)
        let two = ReceiptContentEncoder.content(receipt(purchases: 2))
        var vectors: [Vector] = []
        func add(
            _ id: String, _ comment: String, _ code: VerificationError.Code?, configuration: Configuration = .appStore,
            base64: Bool = false, deterministic: Bool = true, _ bytes: () throws -> [UInt8]
        ) throws {
            vectors.append(
                Vector(
                    id: id, comment: comment, configuration: configuration, bytes: try bytes(), isBase64: base64,
                    code: code, isDeterministic: deterministic))
        }
        typealias Options = ReceiptSigner.Options
        try add("der-sha256-2iap", "App Store shape since 2023: DER, SHA-256, two purchases", nil) {
            try signer.sign(content: two)
        }
        try add("der-sha1-1iap", "App Store shape before 2023: DER, SHA-1, one purchase", nil) {
            try signer.sign(
                content: ReceiptContentEncoder.content(receipt(purchases: 1)), options: Options(digest: .sha1))
        }
        try add(
            "base64-sha256-3iap", "base64 text with line breaks every 76 characters, three purchases", nil, base64: true
        ) {
            let text = Data(try signer.sign(content: ReceiptContentEncoder.content(receipt(purchases: 3))))
                .base64EncodedString(options: [.lineLength76Characters, .endLineWithLineFeed])
            return Array((text + "\n").utf8)
        }
        try add("der-sha256-noiap", "no purchase", nil) {
            try signer.sign(content: ReceiptContentEncoder.content(receipt(purchases: 0)))
        }
        try add("der-sha256-40iap", "forty purchases", nil) {
            try signer.sign(content: ReceiptContentEncoder.content(receipt(purchases: 40)))
        }
        try add(
            "der-sha256-short-original-id",
            "one purchase whose original transaction id (1705) is shorter than its transaction id (1703), so DER puts"
                + " it first", nil
        ) {
            let content = ReceiptContentEncoder.content(
                receipt(purchases: 1, transactionIds: { _ in ("2000000100000777", "777") }))
            return try signer.sign(content: content)
        }
        try add("ber-sha256-2iap", "the App Store chain, BER with indefinite lengths (full path only)", nil) {
            try signer.sign(content: two, options: Options(encoding: .berIndefiniteLength))
        }
        try add("production-1iap", "receipt type Production with the app Apple id", nil) {
            try signer.sign(content: ReceiptContentEncoder.content(receipt(purchases: 1, receiptType: "Production")))
        }
        try add(
            "xcode-ber-1iap", "Xcode StoreKit Testing shape: self-signed certificate, BER", nil, configuration: .xcode
        ) {
            try ReceiptSigner.xcode(xcode).sign(
                content: ReceiptContentEncoder.content(receipt(purchases: 1, receiptType: "Xcode"), sorted: false))
        }
        try add("wrong-bundle-id", "signed, another bundle id", .invalidAppIdentifier) {
            try signer.sign(
                content: ReceiptContentEncoder.content(receipt(purchases: 1, bundleId: "com.example.other")))
        }
        try add("wrong-environment", "signed by the App Store chain, receipt type Xcode", .invalidEnvironment) {
            try signer.sign(content: ReceiptContentEncoder.content(receipt(purchases: 1, receiptType: "Xcode")))
        }
        try add("expired", "created after every certificate expired (2036)", .certificateExpired) {
            let late = Date(timeIntervalSince1970: 2_082_758_400)
            return try signer.sign(content: ReceiptContentEncoder.content(receipt(purchases: 1, created: late)))
        }
        try add(
            "developer-signed", "the classic forgery: a WWDR-issued developer certificate signs", .missingAppleExtension
        ) {
            try ReceiptSigner(
                signer: developer, certificates: [developer.certificate, pki.intermediate, pki.root]
            ).sign(content: two)
        }
        try add("leaf-named-other-key", "names the real leaf, signed with the developer key", .invalidSignature) {
            try signer.sign(content: two, options: Options(signingKey: developer.privateKey))
        }
        try add("self-signed", "a self-signed certificate signs an App Store receipt type", .untrustedChain) {
            try ReceiptSigner(signer: xcode, certificates: [xcode.certificate]).sign(content: two)
        }
        try add("sha512-digest", "SignerInfo digest SHA-512", .unsupportedAlgorithm) {
            try signer.sign(content: two, options: Options(digest: .sha512))
        }
        try add(
            "signed-attributes", "OpenSSL's signed attributes (Apple's receipts have none)", nil, deterministic: false
        ) {
            try signer.sign(content: two, options: Options(signedAttributes: true))
        }
        try add("two-signers", "a second SignerInfo", .malformedReceipt) {
            try signer.sign(content: two, options: Options(additionalSigners: [.init(credential: developer)]))
        }
        try add("unsigned", "no SignerInfo at all: nothing is signed", .malformedReceipt) {
            try signer.sign(content: two, options: Options(includesSigner: false))
        }
        try add("detached", "no eContent (a detached signature)", .malformedReceipt) {
            try signer.sign(content: two, options: Options(detached: true))
        }
        try add("content-type-not-data", "eContentType id-ct-TSTInfo", .malformedReceipt) {
            try signer.sign(content: two, options: Options(contentTypeOID: "1.2.840.113549.1.9.16.1.4"))
        }
        try add("no-certificates", "no embedded certificate", .missingCertificateChain) {
            try signer.sign(content: two, options: Options(certificates: []))
        }
        try add("content-not-der", "signed content that is not a DER set of attributes", .malformedReceipt) {
            try signer.sign(content: Array("not a receipt".utf8))
        }
        try add("content-duplicate-bundle-id", "signed content with attribute 2 twice", .malformedReceipt) {
            var attributes = ReceiptContentEncoder.attributes(receipt(purchases: 1))
            attributes.append(ReceiptAttribute(type: 2, value: ReceiptContentEncoder.utf8String("com.example.evil")))
            return try signer.sign(content: ReceiptContentEncoder.content(attributes: attributes))
        }
        return vectors
    }

    /// `manifest.json` for `vectors`: id, file, comment, configuration and expected `{result, code}`.
    public static func manifest(_ vectors: [Vector]) throws -> Data {
        let cases: [[String: String]] = vectors.map { vector in
            [
                "id": vector.id, "file": vector.file, "comment": vector.comment,
                "configuration": vector.configuration.rawValue,
                "result": vector.code == nil ? "verified" : "failed", "code": vector.code?.rawValue ?? "",
            ]
        }
        return try JSONSerialization.data(
            withJSONObject: ["bundleId": bundleId, "cases": cases], options: [.prettyPrinted, .sortedKeys])
    }

    /// The verifier `configuration` names, with the given cache capacity and a fixed clock.
    public static func verifier(_ configuration: Configuration, cacheCapacity: Int = 64) throws -> AppReceiptVerifier {
        switch configuration {
        case .appStore:
            return try AppReceiptVerifier(
                rootCertificates: [pki.root.der], bundleId: bundleId, appAppleId: appAppleId,
                environments: [.production, .sandbox], chainCacheCapacity: cacheCapacity, clock: { created })
        case .xcode:
            return try AppReceiptVerifier(
                bundleId: bundleId, environments: [.xcode], xcodeCertificate: xcode.certificate.der,
                chainCacheCapacity: cacheCapacity, clock: { created })
        }
    }
}
