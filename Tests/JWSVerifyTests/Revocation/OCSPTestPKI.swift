import Foundation
import JWSVerifyTesting

@testable import JWSVerify

/// The OCSP tests' variant of ``TestHierarchy`` (`.appStoreEC`: root P-384, intermediate P-384 with
/// 1.2.840.113635.100.6.2.1, leaf P-256 with 1.2.840.113635.100.6.11.1), written into a temporary folder,
/// with one real OCSP responder per issuer (`openssl ocsp`): the root's answers for the intermediate, the
/// intermediate's for the leaf. Each certificate's Authority Information Access
/// names its issuer's responder, so each responder starts (on a port the kernel picks) before the
/// certificates it answers for are made.
///
/// Call ``stop()`` when done (in a `defer`): it terminates the responders and removes the folder.
final class OCSPTestPKI: @unchecked Sendable {
    /// Who answers for a certificate, and with which signing certificate.
    enum Responder {
        /// `openssl ocsp` signing with a delegated responder certificate: issued by the issuer,
        /// with the OCSPSigning extended key usage.
        case delegated
        /// `openssl ocsp` signing with the issuer's own certificate and key.
        case issuer
        /// `openssl ocsp` signing with a self-signed certificate (OCSPSigning) the issuer never signed.
        case unrelated
        /// `openssl ocsp` signing with a certificate issued by the issuer but without OCSPSigning.
        case delegatedWithoutOCSPSigning
        /// No responder: the certificate's AIA names this stub server.
        case stub(OCSPStubServer)
        /// The certificate has no Authority Information Access at all.
        case none
    }

    struct Options {
        var leafRevoked = false
        var intermediateRevoked = false
        /// Whether the leaf's serial is in its responder's index (else the answer is `unknown`).
        var leafKnown = true
        var leafResponder: Responder = .delegated
        var intermediateResponder: Responder = .delegated
        /// Extra `openssl ocsp` arguments, such as `-nmin 1` or `-rcid sha256`.
        var leafResponderArguments = ["-ndays", "1"]
        var intermediateResponderArguments = ["-ndays", "1"]
    }

    static let bundleId = "com.example.ocsp"
    static let leafSerial = "1003"
    static let intermediateSerial = "1002"

    let directory: URL
    let rootDER: [UInt8]
    let intermediateDER: [UInt8]
    let leafDER: [UInt8]
    /// The OCSP URLs in the leaf's and the intermediate's AIA.
    let leafResponderURL: String?
    let intermediateResponderURL: String?
    /// The running `openssl ocsp` processes: the root's (for the intermediate) and the
    /// intermediate's (for the leaf), when they are real responders.
    let intermediateResponder: OCSPResponderProcess?
    let leafResponder: OCSPResponderProcess?

    init(_ options: Options = Options()) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "jwsverify-ocsp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.directory = directory
        do {
            try Self.writeConfiguration(in: directory)
            func openssl(_ arguments: [String]) throws { try OCSPOpenSSLTool.run(arguments, in: directory) }

            // The hierarchy: TestHierarchy's .appStoreEC profile, each certificate issued once its issuer's
            // responder runs, with that responder's URL (or none) and the serial its index names.
            let hierarchy = try TestHierarchy.generate(.appStoreEC)
            try Self.write("root", hierarchy.rootCredential, in: directory)

            // The root's responder, then the intermediate that names it.
            try Self.writeIndex(
                "root-index.txt",
                entries: [(Self.intermediateSerial, "OCSP Test Intermediate", options.intermediateRevoked)],
                in: directory)
            let (intermediateProcess, intermediateURL) = try Self.startResponder(
                options.intermediateResponder, name: "root-responder", issuer: "root", index: "root-index.txt",
                arguments: options.intermediateResponderArguments, in: directory)
            let intermediate = try hierarchy.makeIntermediate(
                commonName: "OCSP Test Intermediate", serialNumber: Self.serialBytes(Self.intermediateSerial),
                ocspURL: intermediateURL)
            try Self.write("intermediate", intermediate, in: directory)

            // The intermediate's responder, then the leaf that names it.
            var leafEntries = [("2003", "OCSP Test Other Leaf", false)]
            if options.leafKnown { leafEntries.append((Self.leafSerial, "OCSP Test Leaf", options.leafRevoked)) }
            try Self.writeIndex("intermediate-index.txt", entries: leafEntries, in: directory)
            let (leafProcess, leafURL) = try Self.startResponder(
                options.leafResponder, name: "intermediate-responder", issuer: "intermediate",
                index: "intermediate-index.txt", arguments: options.leafResponderArguments, in: directory)
            let leaf = try hierarchy.replacing(intermediate: intermediate).makeLeaf(
                commonName: "OCSP Test Leaf", serialNumber: Self.serialBytes(Self.leafSerial), ocspURL: leafURL)
            try Self.write("leaf", leaf, in: directory)

            rootDER = try Self.der(ofPEM: "root.pem", in: directory)
            intermediateDER = try Self.der(ofPEM: "intermediate.pem", in: directory)
            leafDER = try Self.der(ofPEM: "leaf.pem", in: directory)
            intermediateResponder = intermediateProcess
            leafResponder = leafProcess
            intermediateResponderURL = intermediateURL
            leafResponderURL = leafURL
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    /// Terminates the responders and removes the folder.
    func stop() {
        intermediateResponder?.stop()
        leafResponder?.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Terminates the responders only: afterwards nothing listens at their URLs.
    func stopResponders() {
        intermediateResponder?.stop()
        leafResponder?.stop()
    }

    /// Leaf, intermediate and root, parsed.
    var chain: [Certificate] {
        [leafDER, intermediateDER, rootDER].compactMap { Certificate(der: $0) }
    }

    /// A verifier that trusts this root, in Sandbox, with online checks.
    func verifier(
        timeout: Duration = .seconds(3), clock: @escaping @Sendable () -> Date = { Date() }
    ) throws -> SignedDataVerifier {
        try SignedDataVerifier(
            rootCertificates: [Data(rootDER)], bundleId: Self.bundleId, environment: .sandbox, enableOnlineChecks: true,
            revocationTimeout: timeout, clock: clock)
    }

    /// A signed transaction: ES256 with the leaf key over {"alg":"ES256","x5c":[leaf, intermediate,
    /// root]} and {"bundleId", "environment":"Sandbox", "signedDate", "transactionId":"1"}.
    func token(signedDate: Date = Date()) throws -> String {
        let x5c = [leafDER, intermediateDER, rootDER].map { "\"\(Data($0).base64EncodedString())\"" }
        let header = #"{"alg":"ES256","x5c":[\#(x5c.joined(separator: ","))]}"#
        let milliseconds = Int64(signedDate.timeIntervalSince1970 * 1000)
        let payload =
            #"{"bundleId":"\#(Self.bundleId)","environment":"Sandbox","signedDate":\#(milliseconds),"transactionId":"1"}"#
        let signingInput = Self.base64URL(Array(header.utf8)) + "." + Self.base64URL(Array(payload.utf8))
        let name = "input-\(UUID().uuidString)"
        try Data(signingInput.utf8).write(to: directory.appendingPathComponent(name))
        let der = try OCSPOpenSSLTool.run(["dgst", "-sha256", "-sign", "leaf.key", name], in: directory)
        return signingInput + "." + Self.base64URL(try Self.rawSignature(fromDER: Array(der)))
    }

    /// An answer recorded from the leaf's (delegated) responder, for replaying through a stub: for
    /// this leaf or another leaf of the same intermediate (serial 2003), to a request with or
    /// without a nonce of its own.
    func recordedLeafAnswer(forOtherLeaf: Bool, nonce: Bool) throws -> [UInt8] {
        let id = UUID().uuidString
        var subject = "leaf.pem"
        if forOtherLeaf {
            subject = "other-\(id).pem"
            try OCSPOpenSSLTool.run(
                ["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "other-\(id).key"], in: directory)
            try OCSPOpenSSLTool.run(
                [
                    "req", "-new", "-key", "other-\(id).key", "-subj", "/CN=OCSP Test Other Leaf", "-config", "pki.cnf",
                    "-extensions", "plain", "-days", "30", "-set_serial", "0x2003", "-CA", "intermediate.pem", "-CAkey",
                    "intermediate.key", "-out", subject,
                ], in: directory)
        }
        try Self.makeSigner(
            "intermediate-delegated", issuer: "intermediate", extensions: "responder", in: directory, ifMissing: true)
        try OCSPOpenSSLTool.run(
            ["ocsp", "-issuer", "intermediate.pem", "-cert", subject, "-reqout", "request-\(id).der"]
                + (nonce ? [] : ["-no_nonce"]), in: directory)
        try OCSPOpenSSLTool.run(
            [
                "ocsp", "-index", "intermediate-index.txt", "-CA", "intermediate.pem", "-rsigner",
                "intermediate-delegated.pem", "-rkey", "intermediate-delegated.key", "-reqin", "request-\(id).der",
                "-respout", "response-\(id).der", "-ndays", "1",
            ], in: directory)
        return Array(try Data(contentsOf: directory.appendingPathComponent("response-\(id).der")))
    }

    // MARK: - Making it

    private static func writeConfiguration(in directory: URL) throws {
        let text = """
            [req]
            distinguished_name = dn
            [dn]
            [responder]
            basicConstraints = critical,CA:false
            keyUsage = critical,digitalSignature
            extendedKeyUsage = OCSPSigning
            [plain]
            basicConstraints = critical,CA:false
            keyUsage = critical,digitalSignature

            """
        try Data(text.utf8).write(to: directory.appendingPathComponent("pki.cnf"))
    }

    /// `name.pem` (the certificate) and `name.key` (its PKCS#8 key), as `openssl ocsp` and `openssl req -CA` read them.
    private static func write(_ name: String, _ credential: TestSigningCredential, in directory: URL) throws {
        try Data(credential.certificate.pem.utf8).write(to: directory.appendingPathComponent("\(name).pem"))
        try Data(credential.privateKey.pkcs8PEM().utf8).write(to: directory.appendingPathComponent("\(name).key"))
    }

    /// The contents of a serial number written in hex, as the index files write it ("1002": 0x10 0x02).
    private static func serialBytes(_ hex: String) -> Data {
        var bytes: [UInt8] = []
        var digits = Substring(hex.count % 2 == 1 ? "0" + hex : hex)
        while !digits.isEmpty {
            bytes.append(UInt8(digits.prefix(2), radix: 16) ?? 0)
            digits = digits.dropFirst(2)
        }
        return Data(bytes)
    }

    /// A responder signing certificate `name.pem`/`name.key`: issued by `issuer` with the section
    /// `extensions` of pki.cnf, or self-signed when `issuer` is nil.
    private static func makeSigner(
        _ name: String, issuer: String?, extensions: String, in directory: URL, ifMissing: Bool = false
    ) throws {
        if ifMissing && FileManager.default.fileExists(atPath: directory.appendingPathComponent("\(name).pem").path) {
            return
        }
        try OCSPOpenSSLTool.run(
            ["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", "\(name).key"], in: directory)
        var arguments = [
            "req", "-new", "-key", "\(name).key", "-subj", "/CN=OCSP Test Responder \(name)", "-config", "pki.cnf",
            "-extensions", extensions, "-days", "30", "-set_serial",
            "0x\(String(UInt32.random(in: 0x10000...0xFFFFFF), radix: 16))",
            "-out", "\(name).pem",
        ]
        if let issuer {
            arguments += ["-CA", "\(issuer).pem", "-CAkey", "\(issuer).key"]
        } else {
            arguments += ["-x509"]
        }
        try OCSPOpenSSLTool.run(arguments, in: directory)
    }

    /// An `index.txt` in the format of `openssl ca`: V (valid) or R (revoked, keyCompromise) per serial.
    private static func writeIndex(_ name: String, entries: [(String, String, Bool)], in directory: URL) throws {
        var text = ""
        for (serial, commonName, revoked) in entries {
            let status = revoked ? "R" : "V"
            let revocation = revoked ? "250102030405Z,keyCompromise" : ""
            text += "\(status)\t491231235959Z\t\(revocation)\t\(serial)\tunknown\t/CN=\(commonName)\n"
        }
        try Data(text.utf8).write(to: directory.appendingPathComponent(name))
    }

    /// Starts the responder for the certificates of `issuer`, or returns the stub's URL or nil.
    private static func startResponder(
        _ kind: Responder, name: String, issuer: String, index: String, arguments: [String], in directory: URL
    ) throws -> (OCSPResponderProcess?, String?) {
        let signer: String
        switch kind {
        case .none: return (nil, nil)
        case .stub(let server): return (nil, server.url)
        case .issuer: signer = issuer
        case .delegated:
            signer = "\(issuer)-delegated"
            try makeSigner(signer, issuer: issuer, extensions: "responder", in: directory)
        case .delegatedWithoutOCSPSigning:
            signer = "\(issuer)-no-eku"
            try makeSigner(signer, issuer: issuer, extensions: "plain", in: directory)
        case .unrelated:
            signer = "\(issuer)-unrelated"
            try makeSigner(signer, issuer: nil, extensions: "responder", in: directory)
        }
        func file(_ name: String) -> URL { directory.appendingPathComponent(name) }
        let process = try OCSPResponderProcess(
            index: file(index), ca: file("\(issuer).pem"), signer: file("\(signer).pem"),
            signerKey: file("\(signer).key"),
            extraArguments: arguments, in: directory, name: name)
        return (process, process.url)
    }

    private static func der(ofPEM name: String, in directory: URL) throws -> [UInt8] {
        let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        let base64 = text.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        guard let data = Data(base64Encoded: base64) else {
            throw OCSPOpenSSLTool.Failure(description: "\(name) is not PEM")
        }
        return Array(data)
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// A DER ECDSA-Sig-Value (SEQUENCE { INTEGER r, INTEGER s }) as the 64-byte R‖S of JWS.
    static func rawSignature(fromDER der: [UInt8]) throws -> [UInt8] {
        var index = 0
        func fail() -> OCSPOpenSSLTool.Failure { OCSPOpenSSLTool.Failure(description: "not a DER ECDSA signature") }
        func length() throws -> Int {
            guard index < der.count else { throw fail() }
            let first = Int(der[index])
            index += 1
            if first < 0x80 { return first }
            guard first == 0x81, index < der.count else { throw fail() }
            index += 1
            return Int(der[index - 1])
        }
        func integer() throws -> [UInt8] {
            guard index < der.count, der[index] == 0x02 else { throw fail() }
            index += 1
            let count = try length()
            guard count > 0, index + count <= der.count else { throw fail() }
            var bytes = Array(der[index..<index + count])
            index += count
            while bytes.count > 32, bytes.first == 0 { bytes.removeFirst() }
            guard bytes.count <= 32 else { throw fail() }
            return [UInt8](repeating: 0, count: 32 - bytes.count) + bytes
        }
        guard der.first == 0x30 else { throw fail() }
        index = 1
        guard try length() == der.count - index else { throw fail() }
        let r = try integer()
        let s = try integer()
        guard index == der.count else { throw fail() }
        return r + s
    }
}
