import Foundation
import JWSVerifyTesting
import Testing

/// Minted app receipts (StoreKit 1) checked with OpenSSL itself: the reference `CMS_verify`
/// (``ReceiptReference``), OpenSSL's CMS parser (``ReceiptReference/inspect(_:)``) and, where
/// installed, the `openssl` command. Each crafting option must produce exactly what it says.
@Suite("Receipt minting")
struct ReceiptMintingTests {
    /// One PKI for the suite: RSA key generation is slow.
    static let shared = Result { try TestHierarchy.generate(.receiptRSA) }
    static let developer = Result { try shared.get().makeDeveloperCertificate() }

    /// A time inside ``TestHierarchy/defaultValidity``.
    static let inside = Date(timeIntervalSince1970: 1_780_000_000)  // 2026-05-28

    static let idData = "1.2.840.113549.1.7.1"
    static let rsaEncryption = "1.2.840.113549.1.1.1"

    /// X509_V_ERR_* codes asserted below.
    enum PathCode {
        static let notYetValid = 9
        static let expired = 10
        static let selfSignedInChain = 19
        static let unableToGetIssuerLocally = 20
        static let invalidPurpose = 26
    }

    /// Receipt-shaped content: a DER SET OF { type, version, OCTET STRING value } with a bundle id
    /// (2), an application version (3) and a creation date (12), written with TestDER here.
    static let content: [UInt8] = {
        func attribute(_ type: Int64, _ value: Data) -> Data {
            TestDER.sequence([TestDER.integer(type), TestDER.integer(1), TestDER.octetString(value)])
        }
        return [UInt8](
            TestDER.set([
                attribute(2, TestDER.utf8String("com.example.jwsverify")),
                attribute(3, TestDER.utf8String("1.0")),
                attribute(12, TestDER.ia5String("2026-05-28T12:00:00Z")),
            ]))
    }()

    static var repositoryRoot: URL {
        var url = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
        while url.path != "/" {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
            url.deleteLastPathComponent()
        }
        return url
    }

    static func vector(_ path: String) -> URL {
        repositoryRoot.appendingPathComponent("TestVectors").appendingPathComponent(path)
    }

    static func base64File(_ url: URL) throws -> [UInt8] {
        let text = try String(contentsOf: url, encoding: .utf8).filter { !$0.isWhitespace }
        guard let data = Data(base64Encoded: text) else {
            throw JWSTestingError.invalidArgument("\(url.lastPathComponent) is not base64")
        }
        return [UInt8](data)
    }

    // MARK: Apple's shape verifies

    /// Input: receipts of the test PKI in DER and BER, SHA-1 and SHA-256. Expected: OpenSSL's
    /// CMS_verify accepts each against the PKI root inside the validity, returns the content and
    /// picks the leaf; the structure is Apple's (one signer by issuer and serial, no signed
    /// attributes, rsaEncryption, id-data, leaf-intermediate-root embedded).
    @Test(
        "Minted receipts verify with OpenSSL's CMS_verify and have Apple's structure",
        arguments: [ReceiptDigest.sha1, .sha256], [ReceiptEncoding.der, .berIndefiniteLength])
    func mintedReceiptsVerify(digest: ReceiptDigest, encoding: ReceiptEncoding) throws {
        let pki = try Self.shared.get()
        let receipt = try ReceiptSigner(hierarchy: pki).sign(
            content: Self.content, options: .init(digest: digest, encoding: encoding))
        let verdict = try ReceiptReference.verify(receipt, roots: [pki.rootDER], at: Self.inside)
        #expect(verdict.verified, "\(digest) \(encoding): \(verdict.reason)")
        #expect(verdict.failure == nil && verdict.x509Error == nil)
        #expect(verdict.content == Self.content)
        #expect(verdict.signerCertificate == pki.leaf.der)
        #expect(verdict.signerCount == 1 && verdict.trailingByteCount == 0)

        let structure = try ReceiptReference.inspect(receipt)
        #expect(structure.isIndefiniteLength == (encoding == .berIndefiniteLength))
        #expect(structure.contentTypeOID == "1.2.840.113549.1.7.2")
        #expect(structure.encapsulatedContentTypeOID == Self.idData)
        #expect(!structure.isDetached && structure.contentLength == Self.content.count)
        #expect(structure.certificateCount == 3)
        #expect(structure.signers.count == 1)
        let signer = try #require(structure.signers.first)
        #expect(signer.digestAlgorithmOID == digest.oid)
        #expect(signer.signatureAlgorithmOID == Self.rsaEncryption)
        #expect(signer.signedAttributeCount == 0)
        #expect(signer.identifiesByIssuerAndSerialNumber)
        #expect(signer.certificateIndex == 0)
    }

    /// Input: a DER receipt and a BER receipt. Expected: DER starts `30 82` (definite length), BER
    /// `30 80` and its eContent is a constructed OCTET STRING of indefinite length (`24 80`), as
    /// Xcode's receipts are.
    @Test("DER receipts have definite lengths; BER receipts stream the content with indefinite lengths")
    func encodings() throws {
        let signer = ReceiptSigner(hierarchy: try Self.shared.get())
        let der = try signer.sign(content: Self.content)
        let ber = try signer.sign(content: Self.content, options: .init(encoding: .berIndefiniteLength))
        #expect(Array(der.prefix(2)) == [0x30, 0x82])
        #expect(Array(ber.prefix(2)) == [0x30, 0x80])
        let constructedIndefinite: [UInt8] = [0x24, 0x80]
        #expect(ber.indices.dropLast().contains { Array(ber[$0...($0 + 1)]) == constructedIndefinite })
        #expect(try Data(base64Encoded: signer.signBase64(content: Self.content)).map([UInt8].init) != nil)
    }

    /// Input: a receipt, written to a file. Expected: the `openssl cms -verify` command (an
    /// independent reader) accepts it with the PKI root and prints the content.
    @Test("The openssl command verifies a minted receipt")
    func opensslCommandVerifies() throws {
        guard let openssl = Tools.requireOpenSSL("opensslCommandVerifies") else { return }
        let pki = try Self.shared.get()
        let directory = try TemporaryDirectory()
        try pki.write(to: directory.url)
        for encoding in ReceiptEncoding.allCases {
            let receipt = try ReceiptSigner(hierarchy: pki).sign(content: Self.content, options: .init(encoding: encoding))
            try Data(receipt).write(to: directory.file("receipt.der"))
            let output = try Tools.run(
                openssl,
                [
                    "cms", "-verify", "-inform", "DER", "-in", directory.file("receipt.der").path, "-CAfile",
                    directory.file("root.pem").path, "-attime", "\(Int(Self.inside.timeIntervalSince1970))",
                    "-out", directory.file("content.bin").path,
                ])
            #expect(output.status == 0, "\(encoding): \(output.text)")
            #expect(try [UInt8](Data(contentsOf: directory.file("content.bin"))) == Self.content)
        }
    }

    // MARK: The PKI

    /// Input: the generated PKI. Expected: openssl prints Apple's names in Apple's order, RSA 2048
    /// keys, sha256WithRSAEncryption, the marker on the intermediate and on the leaf only, and
    /// `openssl verify` accepts leaf <- intermediate <- root.
    @Test("The PKI's certificates have Apple's names, RSA keys, markers, and chain")
    func pkiCertificates() throws {
        guard let openssl = Tools.requireOpenSSL("pkiCertificates") else { return }
        let pki = try Self.shared.get()
        let directory = try TemporaryDirectory()
        try pki.write(to: directory.url)
        func text(_ name: String) throws -> String {
            let output = try Tools.run(openssl, ["x509", "-in", directory.file(name).path, "-noout", "-text"])
            #expect(output.status == 0, "\(output.text)")
            return output.text
        }
        let root = try text("root.pem")
        let intermediate = try text("intermediate.pem")
        let leaf = try text("leaf.pem")
        #expect(
            root.contains("Subject: C = US, O = Apple Inc., OU = Apple Certification Authority, CN = Apple Root CA"))
        #expect(
            intermediate.contains(
                "Subject: CN = Apple Worldwide Developer Relations Certification Authority, OU = G5, O = Apple Inc., C = US"
            ))
        #expect(
            intermediate.contains(
                "Issuer: C = US, O = Apple Inc., OU = Apple Certification Authority, CN = Apple Root CA"))
        #expect(
            leaf.contains(
                "Subject: CN = Mac App Store and iTunes Store Receipt Signing, OU = Apple Worldwide Developer Relations, O = Apple Inc., C = US"
            ))
        for certificate in [root, intermediate, leaf] {
            #expect(certificate.contains("Public-Key: (2048 bit)"))
            #expect(certificate.contains("Signature Algorithm: sha256WithRSAEncryption"))
        }
        #expect(intermediate.contains(TestHierarchy.intermediateMarkerOID))
        #expect(!leaf.contains(TestHierarchy.intermediateMarkerOID))
        #expect(leaf.contains(TestHierarchy.leafMarkerOID))
        #expect(!intermediate.contains(TestHierarchy.leafMarkerOID) && !root.contains("113635"))
        let verify = try Tools.run(
            openssl,
            [
                "verify", "-attime", "\(Int(Self.inside.timeIntervalSince1970))", "-CAfile",
                directory.file("root.pem").path,
                "-untrusted", directory.file("intermediate.pem").path, directory.file("leaf.pem").path,
            ])
        #expect(verify.status == 0, "\(verify.text)")
    }

    /// Input: a PKI with SHA-1 certificate signatures. Expected: openssl prints
    /// sha1WithRSAEncryption, and a SHA-1 receipt of it verifies (the shape before 2023).
    @Test("SHA-1 certificate signatures, as Apple's chains before 2023")
    func sha1Certificates() throws {
        let pki = try TestHierarchy.generate(.receiptRSA, options: .init(certificateDigest: .sha1))
        let receipt = try ReceiptSigner(hierarchy: pki).sign(content: Self.content, options: .init(digest: .sha1))
        let verdict = try ReceiptReference.verify(receipt, roots: [pki.rootDER], at: Self.inside)
        #expect(verdict.verified, "\(verdict.reason)")
        guard let openssl = Tools.requireOpenSSL("sha1Certificates") else { return }
        let directory = try TemporaryDirectory()
        try pki.write(to: directory.url)
        let output = try Tools.run(openssl, ["x509", "-in", directory.file("leaf.pem").path, "-noout", "-text"])
        #expect(output.text.contains("Signature Algorithm: sha1WithRSAEncryption"), "\(output.text)")
    }

    /// Input: a PKI written to a directory and read back. Expected: the same certificates and keys;
    /// a key file of another certificate is a key mismatch.
    @Test("The PKI round-trips through files; a wrong key file is a key mismatch")
    func pkiFiles() throws {
        let pki = try Self.shared.get()
        let directory = try TemporaryDirectory()
        try pki.write(to: directory.url)
        #expect(try TestHierarchy.load(from: directory.url) == pki)
        try FileManager.default.removeItem(at: directory.file(TestHierarchy.FileName.leafKey))
        try FileManager.default.copyItem(
            at: directory.file(TestHierarchy.FileName.rootKey), to: directory.file(TestHierarchy.FileName.leafKey))
        #expect {
            try TestHierarchy.load(from: directory.url)
        } throws: { error in
            guard case JWSTestingError.keyMismatch = error else { return false }
            return true
        }
    }

    /// Input: RSA keys of 1024, 2048 and 4096 bits. Expected: the sizes are as asked, a leaf with
    /// each signs a receipt that OpenSSL accepts (OpenSSL has no key-size rule at its default
    /// security level for 1024), and sizes outside 512...16384 are refused.
    @Test("RSA keys of 1024, 2048 and 4096 bits sign receipts; other sizes are refused")
    func keySizes() throws {
        let pki = try Self.shared.get()
        for bits in [1024, 2048, 4096] {
            let key = try TestRSAPrivateKey.generate(bits: bits)
            #expect(key.bitCount == bits)
            let leaf = try pki.makeLeaf(key: .rsa(key))
            let receipt = try ReceiptSigner(signer: leaf, certificates: [leaf.certificate, pki.intermediate]).sign(
                content: Self.content)
            let verdict = try ReceiptReference.verify(receipt, roots: [pki.rootDER], at: Self.inside)
            #expect(verdict.verified, "\(bits): \(verdict.reason)")
            #expect(verdict.signerCertificate == leaf.certificate.der)
            #expect(try TestRSAPrivateKey(pem: key.pkcs8PEM()) == key)
        }
        for bits in [256, 16385] {
            #expect(throws: JWSTestingError.self) { try TestRSAPrivateKey.generate(bits: bits) }
        }
    }

    // MARK: The reference rejects

    /// Input: a receipt of the test PKI, verified against an unrelated root with the same names,
    /// with the PKI's root embedded (as Apple's receipts embed theirs) and without. Expected: a
    /// certificate failure, X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN (19) at depth 2 when the embedded
    /// root ends the path, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY (20) at depth 1 otherwise.
    @Test("A receipt does not verify against another root")
    func wrongRootFails() throws {
        let pki = try Self.shared.get()
        let other = try pki.makeUnrelated()
        let signer = ReceiptSigner(hierarchy: pki)
        let cases: [([TestCertificate], Int, Int)] = [
            (pki.certificateChain, PathCode.selfSignedInChain, 2),
            ([pki.leaf, pki.intermediate], PathCode.unableToGetIssuerLocally, 1),
        ]
        for (certificates, code, depth) in cases {
            let receipt = try signer.sign(content: Self.content, options: .init(certificates: certificates))
            let verdict = try ReceiptReference.verify(receipt, roots: [other.rootDER], at: Self.inside)
            #expect(!verdict.verified)
            #expect(verdict.failure == .certificate)
            #expect(verdict.x509Error?.code == code && verdict.x509Error?.depth == depth, "\(verdict.reason)")
            #expect(verdict.reason.contains("certificate verify error"))
            #expect(verdict.signerCertificate == pki.leaf.der)
            #expect(verdict.content == nil)
        }
    }

    /// Input: a PKI whose leaf is valid only in 2026-01...2026-06, verified before, inside and after.
    /// Expected: not yet valid (9) and expired (10) at depth 0 outside; verified inside.
    @Test("Validity windows are the caller's; outside them the path fails with the date error")
    func validityWindows() throws {
        let pki = try Self.shared.get()
        let leaf = try pki.makeLeaf(
            validity: Date(timeIntervalSince1970: 1_767_225_600)...Date(timeIntervalSince1970: 1_782_864_000))
        let receipt = try ReceiptSigner(signer: leaf, certificates: [leaf.certificate, pki.intermediate, pki.root])
            .sign(content: Self.content)
        let cases: [(Date, Int?)] = [
            (Date(timeIntervalSince1970: 1_760_000_000), PathCode.notYetValid), (Self.inside, nil),
            (Date(timeIntervalSince1970: 1_790_000_000), PathCode.expired),
        ]
        for (time, code) in cases {
            let verdict = try ReceiptReference.verify(receipt, roots: [pki.rootDER], at: time)
            #expect(verdict.verified == (code == nil), "\(time): \(verdict.reason)")
            #expect(verdict.x509Error?.code == code)
            if code != nil {
                #expect(verdict.failure == .certificate && verdict.x509Error?.depth == 0)
            }
        }
    }

    /// Input: a receipt with one content byte changed, and bytes that are no CMS at all. Expected:
    /// a signature failure, and a parse failure.
    @Test("A changed content byte is a signature failure; non-CMS bytes are a parse failure")
    func tamperedAndGarbage() throws {
        let pki = try Self.shared.get()
        var receipt = try ReceiptSigner(hierarchy: pki).sign(content: Self.content)
        let marker: [UInt8] = Array("com.example.jwsverify".utf8)
        let offset = try #require(
            receipt.indices.first { Array(receipt[$0..<min($0 + marker.count, receipt.count)]) == marker })
        receipt[offset] ^= 0x01
        let tampered = try ReceiptReference.verify(receipt, roots: [pki.rootDER], at: Self.inside)
        #expect(!tampered.verified && tampered.failure == .signature, "\(tampered.reason)")
        let garbage = try ReceiptReference.verify(Array("not a receipt".utf8), roots: [pki.rootDER], at: Self.inside)
        #expect(!garbage.verified && garbage.failure == .parse && garbage.signerCount == 0)
        #expect(throws: JWSTestingError.self) { try ReceiptReference.inspect(Array("not a receipt".utf8)) }

        // ContentInfo { id-data, [0] EXPLICIT OCTET STRING }: CMS, but not SignedData.
        let data = [UInt8](
            TestDER.sequence([
                try TestDER.objectIdentifier(Self.idData),
                TestDER.context(0, constructed: true, TestDER.octetString(Data(Self.content))),
            ]))
        let notSigned = try ReceiptReference.verify(data, roots: [pki.rootDER], at: Self.inside)
        #expect(!notSigned.verified && notSigned.failure == .notSignedData, "\(notSigned.reason)")
    }

    /// Input: a valid receipt with three bytes appended. Expected: OpenSSL ignores them (the verdict
    /// counts them and still verifies): a stricter verifier differs from the reference here.
    @Test("Bytes after the ContentInfo are counted, and ignored by OpenSSL")
    func trailingBytes() throws {
        let pki = try Self.shared.get()
        let receipt = try ReceiptSigner(hierarchy: pki).sign(content: Self.content) + [0x00, 0x01, 0x02]
        let verdict = try ReceiptReference.verify(receipt, roots: [pki.rootDER], at: Self.inside)
        #expect(verdict.verified && verdict.trailingByteCount == 3, "\(verdict.reason)")
    }

    // MARK: Each crafting option

    /// Input: SHA-512 and MD5 digests. Expected: the SignerInfo's digestAlgorithm is that OID; OpenSSL
    /// itself accepts both (a receipt verifier restricted to SHA-1 and SHA-256 must not).
    @Test("The digest option sets digestAlgorithm (SHA-512, MD5)", arguments: [ReceiptDigest.sha512, .md5, .sha384])
    func digestOption(digest: ReceiptDigest) throws {
        let pki = try Self.shared.get()
        let receipt = try ReceiptSigner(hierarchy: pki).sign(content: Self.content, options: .init(digest: digest))
        #expect(try ReceiptReference.inspect(receipt).signers.first?.digestAlgorithmOID == digest.oid)
        let verdict = try ReceiptReference.verify(receipt, roots: [pki.rootDER], at: Self.inside)
        #expect(verdict.verified, "\(digest): \(verdict.reason)")
    }

    /// Input: signed attributes on. Expected: three signed attributes (contentType, signingTime,
    /// messageDigest) and a receipt OpenSSL still accepts.
    @Test("The signed-attributes option adds OpenSSL's three signed attributes")
    func signedAttributesOption() throws {
        let pki = try Self.shared.get()
        let receipt = try ReceiptSigner(hierarchy: pki).sign(content: Self.content, options: .init(signedAttributes: true))
        #expect(try ReceiptReference.inspect(receipt).signers.first?.signedAttributeCount == 3)
        #expect(try ReceiptReference.verify(receipt, roots: [pki.rootDER], at: Self.inside).verified)
    }

    /// Input: detached on (DER), and detached with BER. Expected: no eContent, OpenSSL's verdict is
    /// "no content"; BER detached is refused as an invalid argument.
    @Test("The detached option leaves out eContent; BER cannot be detached")
    func detachedOption() throws {
        let signer = ReceiptSigner(hierarchy: try Self.shared.get())
        let receipt = try signer.sign(content: Self.content, options: .init(detached: true))
        let structure = try ReceiptReference.inspect(receipt)
        #expect(structure.isDetached && structure.contentLength == 0)
        let verdict = try ReceiptReference.verify(receipt, roots: [signer.certificates[2].der], at: Self.inside)
        #expect(!verdict.verified && verdict.failure == .noContent, "\(verdict.reason)")
        #expect {
            try signer.sign(content: Self.content, options: .init(detached: true, encoding: .berIndefiniteLength))
        } throws: { error in
            guard case JWSTestingError.invalidArgument = error else { return false }
            return true
        }
    }

    /// Input: eContentType id-signedData instead of id-data. Expected: that OID in the structure;
    /// OpenSSL's CMS_verify accepts any eContentType (a receipt verifier must not).
    @Test("The content type option sets eContentType")
    func contentTypeOption() throws {
        let pki = try Self.shared.get()
        let receipt = try ReceiptSigner(hierarchy: pki).sign(
            content: Self.content, options: .init(contentTypeOID: "1.2.840.113549.1.7.2"))
        #expect(try ReceiptReference.inspect(receipt).encapsulatedContentTypeOID == "1.2.840.113549.1.7.2")
        let verdict = try ReceiptReference.verify(receipt, roots: [pki.rootDER], at: Self.inside)
        #expect(verdict.verified, "\(verdict.reason)")
    }

    /// Input: certificate lists reversed, with a duplicate, and empty. Expected: the embedded
    /// certificates are exactly those, in that order (the SignerInfo's certificate found at the
    /// matching index); reversed still verifies; none is "signer certificate not found".
    @Test("The certificates option embeds any list in its order, or none")
    func certificatesOption() throws {
        let pki = try Self.shared.get()
        let signer = ReceiptSigner(hierarchy: pki)
        let reversed = try signer.sign(
            content: Self.content, options: .init(certificates: [pki.root, pki.intermediate, pki.leaf]))
        let reversedStructure = try ReceiptReference.inspect(reversed)
        #expect(reversedStructure.certificateCount == 3 && reversedStructure.signers.first?.certificateIndex == 2)
        #expect(try ReceiptReference.verify(reversed, roots: [pki.rootDER], at: Self.inside).verified)

        let duplicated = try signer.sign(
            content: Self.content, options: .init(certificates: [pki.intermediate, pki.leaf, pki.leaf, pki.root]))
        let duplicatedStructure = try ReceiptReference.inspect(duplicated)
        #expect(duplicatedStructure.certificateCount == 4 && duplicatedStructure.signers.first?.certificateIndex == 1)

        let none = try signer.sign(content: Self.content, options: .init(certificates: []))
        #expect(try ReceiptReference.inspect(none).certificateCount == 0)
        let verdict = try ReceiptReference.verify(none, roots: [pki.rootDER], at: Self.inside)
        #expect(!verdict.verified && verdict.failure == .signerNotFound, "\(verdict.reason)")
        #expect(verdict.signerCertificate == nil)
    }

    /// Input: a second SignerInfo by the developer certificate, and no SignerInfo at all.
    /// Expected: two signers (each naming its certificate, with its digest), both verified by
    /// OpenSSL with purpose any; zero signers, which OpenSSL refuses ("no signers"); zero signers in
    /// BER cannot be written.
    @Test("The signer options add a second SignerInfo or leave out every one")
    func signerCountOptions() throws {
        let pki = try Self.shared.get()
        let developer = try Self.developer.get()
        let signer = ReceiptSigner(hierarchy: pki)
        let two = try signer.sign(
            content: Self.content,
            options: .init(
                certificates: pki.certificateChain + [developer.certificate],
                additionalSigners: [.init(credential: developer, digest: .sha1)]))
        let structure = try ReceiptReference.inspect(two)
        #expect(structure.signers.count == 2)
        // signerInfos is a SET OF: OpenSSL sorts it, so compare without order.
        #expect(Set(structure.signers.map(\.certificateIndex)) == [0, 3])
        #expect(
            Set(structure.signers.map { "\($0.certificateIndex ?? -1) \($0.digestAlgorithmOID)" })
                == ["0 \(ReceiptDigest.sha256.oid)", "3 \(ReceiptDigest.sha1.oid)"])
        let verdict = try ReceiptReference.verify(two, roots: [pki.rootDER], at: Self.inside, purpose: .any)
        #expect(verdict.verified && verdict.signerCount == 2, "\(verdict.reason)")

        let zero = try signer.sign(content: Self.content, options: .init(includesSigner: false))
        #expect(try ReceiptReference.inspect(zero).signers.isEmpty)
        let refused = try ReceiptReference.verify(zero, roots: [pki.rootDER], at: Self.inside)
        #expect(!refused.verified && refused.signerCount == 0 && refused.failure == .other)
        #expect(refused.reason.contains("no signers"), "\(refused.reason)")
        #expect(throws: JWSTestingError.self) {
            try signer.sign(
                content: Self.content, options: .init(includesSigner: false, encoding: .berIndefiniteLength))
        }
    }

    /// Input: a SignerInfo naming the leaf but signed with the developer's key, both certificates
    /// embedded (the shape of "a receipt that embeds Apple's real leaf but is signed by another
    /// embedded certificate"). Expected: the SignerInfo names the leaf (index 0); OpenSSL picks the
    /// leaf and the signature fails.
    @Test("A SignerInfo may name one certificate and be signed with another key")
    func signerNamedByAnotherCertificate() throws {
        let pki = try Self.shared.get()
        let developer = try Self.developer.get()
        let receipt = try ReceiptSigner(hierarchy: pki).sign(
            content: Self.content,
            options: .init(
                certificates: [pki.leaf, developer.certificate, pki.intermediate, pki.root],
                signerCertificate: pki.leaf, signingKey: developer.privateKey))
        #expect(try ReceiptReference.inspect(receipt).signers.first?.certificateIndex == 0)
        let verdict = try ReceiptReference.verify(receipt, roots: [pki.rootDER], at: Self.inside, purpose: .any)
        #expect(!verdict.verified && verdict.failure == .signature, "\(verdict.reason)")
        #expect(verdict.signerCertificate == pki.leaf.der)
    }

    /// Input: the classic forgery, a receipt signed by a developer certificate of the same
    /// intermediate. Expected: the certificate lacks the leaf marker; OpenSSL's CMS_verify with
    /// purpose any accepts it (it chains to the root), and its default purpose rejects it only for
    /// codeSigning (26, unsupported certificate purpose): no OpenSSL check looks at the marker.
    @Test("The developer-certificate forgery passes plain CMS verification")
    func classicForgery() throws {
        let pki = try Self.shared.get()
        let developer = try Self.developer.get()
        #expect(developer.keyMatchesCertificate)
        let receipt = try ReceiptSigner(
            signer: developer, certificates: [developer.certificate, pki.intermediate, pki.root]
        ).sign(content: Self.content)
        let any = try ReceiptReference.verify(receipt, roots: [pki.rootDER], at: Self.inside, purpose: .any)
        #expect(any.verified, "\(any.reason)")
        #expect(any.signerCertificate == developer.certificate.der)
        let strict = try ReceiptReference.verify(receipt, roots: [pki.rootDER], at: Self.inside)
        #expect(!strict.verified && strict.failure == .certificate)
        #expect(strict.x509Error?.code == PathCode.invalidPurpose && strict.x509Error?.depth == 0)
        guard let openssl = Tools.requireOpenSSL("classicForgery") else { return }
        let directory = try TemporaryDirectory()
        try Data(developer.certificate.der).write(to: directory.file("developer.der"))
        let text = try Tools.run(
            openssl, ["x509", "-inform", "DER", "-in", directory.file("developer.der").path, "-noout", "-text"])
        #expect(!text.text.contains(TestHierarchy.leafMarkerOID) && text.text.contains("Code Signing"), "\(text.text)")
        #expect(text.text.contains("Issuer: CN = Apple Worldwide Developer Relations Certification Authority, OU = G5"))
    }

    /// Input: a leaf with an EC P-256 key. Expected: the SignerInfo's signatureAlgorithm is
    /// ecdsa-with-SHA256 and OpenSSL accepts it (a receipt verifier requiring RSA must not).
    @Test("A leaf with an EC key signs with ECDSA")
    func ecLeaf() throws {
        let pki = try Self.shared.get()
        let leaf = try pki.makeLeaf(key: .ec(TestPrivateKey.generate(curve: .p256)))
        let receipt = try ReceiptSigner(signer: leaf, certificates: [leaf.certificate, pki.intermediate, pki.root])
            .sign(content: Self.content)
        #expect(try ReceiptReference.inspect(receipt).signers.first?.signatureAlgorithmOID == "1.2.840.10045.4.3.2")
        #expect(try ReceiptReference.verify(receipt, roots: [pki.rootDER], at: Self.inside).verified)
    }

    // MARK: Xcode

    /// Input: an Xcode StoreKit Testing style certificate and receipt. Expected: BER, one embedded
    /// self-signed `CN=StoreKit` certificate; verified by OpenSSL with that certificate as root and
    /// purpose any; refused for its purpose (codeSigning) under OpenSSL's default, as Apple's own
    /// Xcode receipts are.
    @Test("Xcode-style receipts: self-signed CN=StoreKit, BER")
    func xcodeStyle() throws {
        let credential = try TestHierarchy.makeXcodeStoreKitCertificate()
        #expect(credential.certificate.subject.commonName == "StoreKit")
        let receipt = try ReceiptSigner.xcode(credential).sign(content: Self.content)
        let structure = try ReceiptReference.inspect(receipt)
        #expect(structure.isIndefiniteLength && structure.certificateCount == 1)
        #expect(structure.signers.first?.certificateIndex == 0)
        let any = try ReceiptReference.verify(
            receipt, roots: [credential.certificate.der], at: Self.inside, purpose: .any)
        #expect(any.verified, "\(any.reason)")
        let strict = try ReceiptReference.verify(receipt, roots: [credential.certificate.der], at: Self.inside)
        #expect(strict.x509Error?.code == PathCode.invalidPurpose)
    }

    // MARK: Real receipts

    /// Input: Apple's two Xcode receipts (apple-library, BER), verified at their creation time
    /// (2023-10-19) first against the test PKI's root, then against the certificate OpenSSL names
    /// as their signer. Expected: the first fails on the path and names an embedded self-signed
    /// `CN=StoreKit` certificate (not the EC one of Xcode's JWS tokens); trusting that certificate,
    /// OpenSSL verifies the signature with purpose any, and with its default purpose refuses it for
    /// codeSigning (26), like the minted Xcode-style receipts.
    @Test("The reference verifies Apple's Xcode receipts against their StoreKit certificate")
    func realXcodeReceipts() throws {
        let jwsCertificate = try Data(contentsOf: Self.vector("apple-library/xcode/StoreKitTestCertificate.cer"))
        let time = Date(timeIntervalSince1970: 1_697_678_334)
        for name in ["xcode-app-receipt-empty", "xcode-app-receipt-with-transaction"] {
            let receipt = try Self.base64File(Self.vector("apple-library/xcode/" + name))
            let structure = try ReceiptReference.inspect(receipt)
            #expect(structure.isIndefiniteLength && structure.certificateCount == 1, "\(name)")
            let untrusted = try ReceiptReference.verify(
                receipt, roots: [try Self.shared.get().rootDER], at: time, purpose: .any)
            #expect(untrusted.failure == .certificate, "\(name)")
            let signerDER = try #require(untrusted.signerCertificate)
            let signer = try TestCertificate(der: signerDER)
            #expect(signer.subject.commonName == "StoreKit" && signerDER != jwsCertificate, "\(name)")
            let verdict = try ReceiptReference.verify(receipt, roots: [signerDER], at: time, purpose: .any)
            #expect(verdict.verified, "\(name): \(verdict.reason)")
            #expect(verdict.content?.count == structure.contentLength, "\(name)")
            let strict = try ReceiptReference.verify(receipt, roots: [signerDER], at: time)
            #expect(strict.x509Error?.code == PathCode.invalidPurpose, "\(name)")
        }
    }

    /// Input: the real sandbox receipt of 2025 (`TestVectors/receipts/04_...`, SHA-256, G5) with
    /// Apple Inc. Root at its creation date. Expected: OpenSSL verifies it with its default
    /// purpose and picks the "Mac App Store and iTunes Store Receipt Signing" leaf; the test PKI's
    /// root does not verify it. Skipped (with a message) while the receipt is not in TestVectors.
    @Test("The reference verifies a real App Store receipt against Apple Inc. Root")
    func realAppStoreReceipt() throws {
        let url = Self.vector("receipts/04_sandbox_2025_sha256-G5_2iap_tpinappreceipt.b64")
        guard FileManager.default.fileExists(atPath: url.path) else {
            print("SKIPPED realAppStoreReceipt: \(url.path) is not in this checkout yet")
            return
        }
        let receipt = try Self.base64File(url)
        let root = try Data(contentsOf: Self.vector("apple-roots/AppleIncRootCertificate.cer"))
        let created = Date(timeIntervalSince1970: 1_766_774_387)  // 2025-12-26T18:39:47Z
        let verdict = try ReceiptReference.verify(receipt, roots: [root], at: created)
        #expect(verdict.verified, "\(verdict.reason)")
        let signer = try TestCertificate(der: try #require(verdict.signerCertificate))
        #expect(signer.subject.commonName == "Mac App Store and iTunes Store Receipt Signing")
        let structure = try ReceiptReference.inspect(receipt)
        #expect(structure.signers.first?.digestAlgorithmOID == ReceiptDigest.sha256.oid)
        #expect(structure.signers.first?.signedAttributeCount == 0 && structure.certificateCount == 3)
        let other = try ReceiptReference.verify(receipt, roots: [try Self.shared.get().rootDER], at: created)
        #expect(other.failure == .certificate)
    }
}
