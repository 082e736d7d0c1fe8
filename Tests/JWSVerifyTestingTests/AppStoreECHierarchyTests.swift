import Foundation
import JWSVerifyTesting
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("Test hierarchy, App Store EC profile")
struct AppStoreECHierarchyTests {
    static let seed: UInt64 = 42

    /// DER of the extension `SEQUENCE { OID, OCTET STRING { NULL } }` (non-critical) for `oid`.
    static func markerExtensionDER(_ lastArcs: [UInt8]) -> Data {
        let oid: [UInt8] = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x63, 0x64, 0x06] + lastArcs
        let body: [UInt8] = [0x06, UInt8(oid.count)] + oid + [0x04, 0x02, 0x05, 0x00]
        return Data([0x30, UInt8(body.count)] + body)
    }

    static let intermediateMarker = markerExtensionDER([0x02, 0x01])
    static let leafMarker = markerExtensionDER([0x0b, 0x01])

    func written(_ pki: TestHierarchy) throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        try pki.write(to: directory.url)
        return directory
    }

    @Test("openssl parses every generated certificate as X.509 v3 signed with ecdsa-with-SHA384")
    func certificatesParse() throws {
        guard let openssl = Tools.requireOpenSSL("certificatesParse") else { return }
        let directory = try written(TestHierarchy.generate(.appStoreEC, seed: Self.seed))
        for name in ["root.der", "intermediate.der", "leaf.der"] {
            let output = try Tools.run(
                openssl, ["x509", "-inform", "DER", "-in", directory.file(name).path, "-noout", "-text"])
            #expect(output.status == 0, "\(name): \(output.text)")
            #expect(output.text.contains("Version: 3 (0x2)"), "\(name)")
            #expect(output.text.contains("Signature Algorithm: ecdsa-with-SHA384"), "\(name)")
            #expect(output.text.contains("NOT APPLE"), "\(name) must say it is not Apple's")
            #expect(output.text.contains("X509v3 Basic Constraints: critical"), "\(name)")
            #expect(output.text.contains("X509v3 Key Usage: critical"), "\(name)")
            #expect(output.text.contains("X509v3 Subject Key Identifier"), "\(name)")
        }
    }

    @Test("openssl verify accepts leaf <- intermediate <- root, also with -x509_strict")
    func chainVerifies() throws {
        guard let openssl = Tools.requireOpenSSL("chainVerifies") else { return }
        let directory = try written(TestHierarchy.generate(.appStoreEC, seed: Self.seed))
        for strict in [false, true] {
            let output = try Tools.run(
                openssl,
                ["verify"] + (strict ? ["-x509_strict"] : []) + [
                    "-CAfile", directory.file("root.pem").path,
                    "-untrusted", directory.file("intermediate.pem").path,
                    directory.file("leaf.pem").path,
                ])
            #expect(output.status == 0, "\(output.text)")
            #expect(output.text.contains("leaf.pem: OK"), "\(output.text)")
        }
    }

    @Test("openssl verify rejects a leaf under another root")
    func chainFromOtherRootFails() throws {
        guard let openssl = Tools.requireOpenSSL("chainFromOtherRootFails") else { return }
        let pki = try TestHierarchy.generate(.appStoreEC, seed: Self.seed)
        let directory = try written(pki)
        let other = try pki.makeUnrelated(seed: 7)
        try other.root.pem.write(to: directory.file("other-root.pem"), atomically: true, encoding: .utf8)
        let output = try Tools.run(
            openssl,
            [
                "verify", "-CAfile", directory.file("other-root.pem").path,
                "-untrusted", directory.file("intermediate.pem").path, directory.file("leaf.pem").path,
            ])
        #expect(output.status != 0, "\(output.text)")
    }

    @Test("The Apple marker extensions are present, non-critical, DER NULL, only where Apple puts them")
    func markersPresent() throws {
        let pki = try TestHierarchy.generate(.appStoreEC, seed: Self.seed)
        #expect(pki.intermediate.der.range(of: Self.intermediateMarker) != nil)
        #expect(pki.leaf.der.range(of: Self.leafMarker) != nil)
        #expect(pki.root.der.range(of: Self.intermediateMarker) == nil)
        #expect(pki.root.der.range(of: Self.leafMarker) == nil)
        #expect(pki.leaf.der.range(of: Self.intermediateMarker) == nil)
        let plainLeaf = try pki.makeLeaf(includeAppleMarker: false)
        #expect(plainLeaf.certificate.der.range(of: Self.leafMarker) == nil)
        let plainIntermediate = try pki.makeIntermediate(includeAppleMarker: false)
        #expect(plainIntermediate.certificate.der.range(of: Self.intermediateMarker) == nil)

        guard let openssl = Tools.requireOpenSSL("markersPresent (openssl part)") else { return }
        let directory = try written(pki)
        let intermediate = try Tools.run(
            openssl, ["x509", "-inform", "DER", "-in", directory.file("intermediate.der").path, "-noout", "-text"])
        #expect(intermediate.text.contains("1.2.840.113635.100.6.2.1:"))
        #expect(!intermediate.text.contains("1.2.840.113635.100.6.2.1: critical"))
        #expect(intermediate.text.contains("OCSP - URI:http://ocsp.jwsverify.invalid/test-root"))
        let leaf = try Tools.run(
            openssl, ["x509", "-inform", "DER", "-in", directory.file("leaf.der").path, "-noout", "-text"])
        #expect(leaf.text.contains("1.2.840.113635.100.6.11.1:"))
        #expect(!leaf.text.contains("1.2.840.113635.100.6.11.1: critical"))
        #expect(leaf.text.contains("CA:FALSE"))
        #expect(leaf.text.contains("Digital Signature"))
    }

    @Test("the rootOCSPURL and intermediateOCSPURL options put the URLs in the intermediate's and leaf's AIA")
    func ocspURLs() throws {
        let rootURL = "http://127.0.0.1:8801"
        let intermediateURL = "http://127.0.0.1:8802/intermediate"
        let pki = try TestHierarchy.generate(
            .appStoreEC, seed: Self.seed, options: .init(rootOCSPURL: rootURL, intermediateOCSPURL: intermediateURL))
        let defaults = try TestHierarchy.generate(.appStoreEC, seed: Self.seed)
        // The URL is an IA5String in the DER; the defaults are gone.
        #expect(pki.intermediate.der.range(of: Data(rootURL.utf8)) != nil)
        #expect(pki.leaf.der.range(of: Data(intermediateURL.utf8)) != nil)
        #expect(pki.intermediate.der.range(of: Data(TestHierarchy.AppStoreEC.rootOCSPURL.utf8)) == nil)
        #expect(pki.leaf.der.range(of: Data(TestHierarchy.AppStoreEC.intermediateOCSPURL.utf8)) == nil)
        #expect(defaults.leaf.der.range(of: Data(TestHierarchy.AppStoreEC.intermediateOCSPURL.utf8)) != nil)
        // Only the URLs differ: the same seed gives the same keys.
        #expect(pki.leaf.publicKeyDER == defaults.leaf.publicKeyDER)
        // Leaves issued later keep the default URL.
        #expect(try pki.makeLeaf(seed: 3).certificate.der.range(of: Data(TestHierarchy.AppStoreEC.intermediateOCSPURL.utf8)) != nil)

        guard let openssl = Tools.requireOpenSSL("ocspURLs (openssl part)") else { return }
        let directory = try written(pki)
        let defaultsDirectory = try written(defaults)
        func ocspURI(_ name: String, in directory: TemporaryDirectory) throws -> String {
            let output = try Tools.run(
                openssl, ["x509", "-inform", "DER", "-in", directory.file(name).path, "-noout", "-ocsp_uri"])
            #expect(output.status == 0, "\(name): \(output.text)")
            return output.text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(try ocspURI("intermediate.der", in: directory) == rootURL)
        #expect(try ocspURI("leaf.der", in: directory) == intermediateURL)
        #expect(try ocspURI("root.der", in: directory) == "")
        #expect(try ocspURI("intermediate.der", in: defaultsDirectory) == TestHierarchy.AppStoreEC.rootOCSPURL)
        #expect(try ocspURI("leaf.der", in: defaultsDirectory) == TestHierarchy.AppStoreEC.intermediateOCSPURL)
    }

    @Test("The leaf is prime256v1, the root and intermediate secp384r1")
    func curves() throws {
        let pki = try TestHierarchy.generate(.appStoreEC, seed: Self.seed)
        #expect(pki.leafKey.ec?.curve == .p256)
        #expect(pki.intermediateKey.ec?.curve == .p384)
        #expect(pki.rootKey.ec?.curve == .p384)
        guard let openssl = Tools.requireOpenSSL("curves (openssl part)") else { return }
        let directory = try written(pki)
        let expectations = ["root.der": "secp384r1", "intermediate.der": "secp384r1", "leaf.der": "prime256v1"]
        for (name, curve) in expectations {
            let output = try Tools.run(
                openssl, ["x509", "-inform", "DER", "-in", directory.file(name).path, "-noout", "-text"])
            #expect(output.text.contains("ASN1 OID: \(curve)"), "\(name) should be \(curve)")
        }
        let p384Leaf = try pki.makeLeaf(key: .ec(TestPrivateKey.generate(curve: .p384)))
        #expect(p384Leaf.privateKey.ec?.curve == .p384)
    }

    @Test("The same seed gives identical keys and serials; another seed gives other keys")
    func deterministicSeeds() throws {
        let first = try TestHierarchy.generate(.appStoreEC, seed: Self.seed)
        let second = try TestHierarchy.generate(.appStoreEC, seed: Self.seed)
        #expect(try first.rootKey.pkcs8PEM() == second.rootKey.pkcs8PEM())
        #expect(try first.intermediateKey.pkcs8PEM() == second.intermediateKey.pkcs8PEM())
        #expect(try first.leafKey.pkcs8PEM() == second.leafKey.pkcs8PEM())
        #expect(first.leaf.publicKeyDER == second.leaf.publicKeyDER)
        #expect(first.leaf.notAfter == second.leaf.notAfter)
        let third = try TestHierarchy.generate(.appStoreEC, seed: Self.seed + 1)
        #expect(first.rootKey != third.rootKey)
        #expect(first.leafKey != third.leafKey)
        let random = try TestHierarchy.generate(.appStoreEC)
        #expect(first.leafKey != random.leafKey)
        #expect(try first.makeLeaf(seed: 9).privateKey == first.makeLeaf(seed: 9).privateKey)
    }

    @Test("A seed is the private scalar mod n: 1 and n + 1 give the generator, n is rejected")
    func seedIsScalar() throws {
        // P-256 group order n.
        let order: [UInt8] = [
            0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
            0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17, 0x9e, 0x84, 0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x51,
        ]
        let generatorX: [UInt8] = [
            0x6b, 0x17, 0xd1, 0xf2, 0xe1, 0x2c, 0x42, 0x47, 0xf8, 0xbc, 0xe6, 0xe5, 0x63, 0xa4, 0x40, 0xf2,
            0x77, 0x03, 0x7d, 0x81, 0x2d, 0xeb, 0x33, 0xa0, 0xf4, 0xa1, 0x39, 0x45, 0xd8, 0x98, 0xc2, 0x96,
        ]
        let one = Data(repeating: 0, count: 31) + [1]
        let key = try TestPrivateKey.generate(curve: .p256, seed: one)
        #expect(key.publicKeyDER.range(of: Data([0x04] + generatorX)) != nil)
        var orderPlusOne = order
        orderPlusOne[31] += 1
        #expect(try TestPrivateKey.generate(curve: .p256, seed: Data(orderPlusOne)) == key)
        #expect(throws: JWSTestingError.self) { try TestPrivateKey.generate(curve: .p256, seed: Data(order)) }
        #expect(throws: JWSTestingError.self) { try TestPrivateKey.generate(curve: .p256, seed: Data(count: 32)) }
        #expect(throws: JWSTestingError.self) { try TestPrivateKey.generate(curve: .p384, seed: one) }
    }

    /// Input: a PEM that is not a key, then a P-256 seed equal to the group order (it reduces to 0), then a good
    /// seed. Expected: `JWSTestingError.openSSL` whose message is OpenSSL's error queue drained by
    /// `cjws_error_text` (the one drain of both C modules): OpenSSL's reasons first, then the failed CJWSTesting
    /// function and step; a failure leaves nothing behind for the next call, which succeeds.
    @Test("A CJWSTesting failure carries OpenSSL's reason and the failed function and step")
    func failureMessages() throws {
        func message(_ body: () throws -> Void) -> String? {
            do {
                try body()
            } catch let JWSTestingError.openSSL(_, message) {
                return message
            } catch {
                Issue.record("unexpected error \(error)")
            }
            return nil
        }
        let pem = message { _ = try TestPrivateKey(pem: "not a key") }
        #expect(pem?.hasSuffix("cjwst_key_from_private_pem: PEM_read_bio_PrivateKey") == true, "\(pem ?? "")")
        #expect(pem?.contains("routines") == true, "\(pem ?? "")")
        let order = Data([
            0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
            0xBC, 0xE6, 0xFA, 0xAD, 0xA7, 0x17, 0x9E, 0x84, 0xF3, 0xB9, 0xCA, 0xC2, 0xFC, 0x63, 0x25, 0x51,
        ])
        let seed = message { _ = try TestPrivateKey.generate(curve: .p256, seed: order) }
        #expect(seed?.contains("cjwst_key_generate: ") == true, "\(seed ?? "")")
        _ = try TestPrivateKey.generate(curve: .p256, seed: Data(repeating: 7, count: 32))
    }

    @Test("Key files are written with mode 0600 and certificates beside them")
    func keyFileModes() throws {
        let directory = try written(TestHierarchy.generate(.appStoreEC, seed: Self.seed))
        for name in ["root.key.pem", "intermediate.key.pem", "leaf.key.pem"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: directory.file(name).path)
            let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
            #expect(mode == 0o600, "\(name) has mode \(String(mode, radix: 8))")
        }
        for name in ["root.der", "root.pem", "intermediate.der", "intermediate.pem", "leaf.der", "leaf.pem"] {
            #expect(FileManager.default.fileExists(atPath: directory.file(name).path), "\(name)")
        }
        // Rewriting over a key file that was world-readable tightens it again.
        chmod(directory.file("leaf.key.pem").path, 0o644)
        try TestHierarchy.generate(.appStoreEC, seed: Self.seed).write(to: directory.url)
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.file("leaf.key.pem").path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test("load(from:) reads back what write(to:) wrote and refuses a key of another certificate")
    func loadRoundTrip() throws {
        let pki = try TestHierarchy.generate(.appStoreEC, seed: Self.seed)
        let directory = try written(pki)
        let loaded = try TestHierarchy.load(from: directory.url)
        #expect(loaded == pki)
        let leaf = try loaded.makeLeaf()
        #expect(leaf.certificate.subject.commonName == TestHierarchy.AppStoreEC.leafName.commonName)

        try FileManager.default.copyItem(at: directory.file("root.key.pem"), to: directory.file("swap.pem"))
        try FileManager.default.removeItem(at: directory.file("leaf.key.pem"))
        try FileManager.default.moveItem(at: directory.file("swap.pem"), to: directory.file("leaf.key.pem"))
        #expect(throws: JWSTestingError.self) { try TestHierarchy.load(from: directory.url) }
    }

    @Test("Private keys round-trip through PKCS#8 and SEC1 PEM, which openssl reads")
    func keyPEMs() throws {
        let key = try TestPrivateKey.generate(curve: .p256, seed: 5, label: "pem")
        let pkcs8 = try key.pkcs8PEM()
        let sec1 = try key.sec1PEM()
        #expect(pkcs8.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        #expect(sec1.hasPrefix("-----BEGIN EC PRIVATE KEY-----"))
        #expect(try TestPrivateKey(pem: pkcs8) == key)
        #expect(try TestPrivateKey(pem: sec1) == key)
        #expect(throws: JWSTestingError.self) { try TestPrivateKey(pem: "not a key") }
        guard let openssl = Tools.requireOpenSSL("keyPEMs (openssl part)") else { return }
        let directory = try TemporaryDirectory()
        try sec1.write(to: directory.file("k.pem"), atomically: true, encoding: .utf8)
        let output = try Tools.run(
            openssl,
            [
                "pkey", "-in", directory.file("k.pem").path, "-pubout", "-outform", "DER", "-out",
                directory.file("k.spki").path,
            ])
        #expect(output.status == 0, "\(output.text)")
        #expect(try Data(contentsOf: directory.file("k.spki")) == key.publicKeyDER)
    }

    @Test("Negative-test certificates: expired, self-signed, not-CA intermediate, forged leaf")
    func negativeCertificates() throws {
        let pki = try TestHierarchy.generate(.appStoreEC, seed: Self.seed)
        let start = Date(timeIntervalSince1970: 1_735_689_600)
        let end = Date(timeIntervalSince1970: 1_767_225_599)
        let expired = try pki.makeLeaf(validity: start...end)
        #expect(expired.certificate.notBefore == start)
        #expect(expired.certificate.notAfter == end)
        let selfSigned = try pki.makeSelfSignedLeaf()
        #expect(selfSigned.keyMatchesCertificate)
        #expect(selfSigned.certificate.der.range(of: Self.leafMarker) != nil)
        guard let openssl = Tools.requireOpenSSL("negativeCertificates (openssl part)") else { return }
        let directory = try written(pki)
        func verify(leaf: TestCertificate, intermediate: TestCertificate) throws -> Tools.Output {
            try leaf.pem.write(to: directory.file("x-leaf.pem"), atomically: true, encoding: .utf8)
            try intermediate.pem.write(to: directory.file("x-int.pem"), atomically: true, encoding: .utf8)
            return try Tools.run(
                openssl,
                [
                    "verify", "-CAfile", directory.file("root.pem").path, "-untrusted",
                    directory.file("x-int.pem").path,
                    directory.file("x-leaf.pem").path,
                ])
        }
        #expect(try verify(leaf: selfSigned.certificate, intermediate: pki.intermediate).status != 0)
        let notCA = try pki.makeIntermediate(isCertificateAuthority: false)
        let underNotCA = try pki.makeLeaf(issuer: notCA)
        #expect(try verify(leaf: underNotCA.certificate, intermediate: notCA.certificate).status != 0)
        let forger = try TestPrivateKey.generate(curve: .p384)
        let forged = try pki.makeLeaf(issuer: TestSigningCredential(certificate: pki.intermediate, privateKey: .ec(forger)))
        #expect(try verify(leaf: forged.certificate, intermediate: pki.intermediate).status != 0)
        let fresh = try pki.makeLeaf()
        #expect(try verify(leaf: fresh.certificate, intermediate: pki.intermediate).status == 0)
    }
}
