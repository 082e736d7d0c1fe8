import Foundation
import JWSVerify
import Testing

@testable import JWSVerifyTesting

/// The one seeded test hierarchy and its two profiles: the same certificates for the same seed, each profile
/// Apple's shape (the token chain verifies tokens, the receipt chain receipts). DeprecatedTestPKITests covers the
/// old names, views of it.
@Suite("Test hierarchy: profiles and seeds")
struct TestHierarchyTests {
    static let seed: UInt64 = 42
    /// Inside the default validity (2025 ... 2035).
    static let inside = Date(timeIntervalSince1970: 1_780_000_000)

    /// The TBSCertificate of `certificate` (everything its issuer signed) and its serial number's contents.
    static func signedPart(_ certificate: TestCertificate) throws -> (tbs: Data, serial: Data) {
        var outer = TestDERReader(certificate.der)
        var contents = try outer.read(tag: 0x30)
        let before = contents.remaining
        var fields = try contents.read(tag: 0x30)
        let tbs = Data(before.prefix(before.count - contents.remaining.count))
        _ = try fields.read(tag: 0xA0)
        return (tbs, try fields.read(tag: 0x02).remaining)
    }

    /// Input: `.appStoreEC` hierarchies of seed 42 made twice, and one of seed 43. Expected: the same keys and
    /// byte-identical TBSCertificates (only the ECDSA certificate signatures vary) for seed 42; other keys for seed
    /// 43; leaves issued later with one seed are the same too.
    @Test("the same seed gives the same token hierarchy")
    func appStoreECIsDeterministic() throws {
        let first = try TestHierarchy.generate(.appStoreEC, seed: Self.seed)
        let second = try TestHierarchy.generate(seed: Self.seed)
        #expect(second.profile == .appStoreEC)
        #expect(second.rootKey == first.rootKey && second.intermediateKey == first.intermediateKey)
        #expect(second.leafKey == first.leafKey)
        for (mine, theirs) in zip(first.certificateChain, second.certificateChain) {
            #expect(try Self.signedPart(mine).tbs == Self.signedPart(theirs).tbs)
        }
        let third = try TestHierarchy.generate(.appStoreEC, seed: Self.seed + 1)
        #expect(third.rootKey != first.rootKey && third.leafKey != first.leafKey)
        let leaf = try first.makeLeaf(seed: 9)
        #expect(try Self.signedPart(leaf.certificate).tbs == Self.signedPart(first.makeLeaf(seed: 9).certificate).tbs)
    }

    /// Input: `.receiptRSA` hierarchies of one seed, twice. Expected: RSA 2048 keys, fresh each time (OpenSSL's
    /// RSA generation takes no seed), the same serial numbers; Apple's receipt chain names.
    @Test("the receipt hierarchy is RSA with Apple's names, its serial numbers fixed by the seed")
    func receiptRSAShape() throws {
        let first = try TestHierarchy.generate(.receiptRSA, seed: Self.seed)
        let second = try TestHierarchy.generate(.receiptRSA, seed: Self.seed)
        #expect(first.profile == .receiptRSA)
        for key in [first.rootKey, first.intermediateKey, first.leafKey] {
            guard case .rsa(let rsa) = key else {
                Issue.record("not RSA: \(key)")
                continue
            }
            #expect(rsa.bitCount == 2048)
        }
        #expect(first.leafKey != second.leafKey)
        for (mine, theirs) in zip(first.certificateChain, second.certificateChain) {
            #expect(try Self.signedPart(mine).serial == Self.signedPart(theirs).serial)
        }
        #expect(first.leaf.subject.commonName == "Mac App Store and iTunes Store Receipt Signing")
        #expect(first.intermediate.subject.commonName == "Apple Worldwide Developer Relations Certification Authority")
        #expect(first.root.subject.commonName == "Apple Root CA")
    }

    /// Input: a token minted by `TokenMinter(hierarchy:)` over an `.appStoreEC` hierarchy, and a receipt signed by
    /// `ReceiptSigner(hierarchy:)` over a `.receiptRSA` one. Expected: each verifies with JWSVerify trusting its
    /// hierarchy's root; a minter over the RSA hierarchy is refused (ES256 needs an EC leaf).
    @Test("each profile signs what JWSVerify verifies: tokens with the EC one, receipts with the RSA one")
    func profilesVerify() throws {
        let tokens = try TestHierarchy.generate(.appStoreEC, seed: Self.seed)
        let token = try TokenMinter(hierarchy: tokens).mint(
            .transaction, parameters: PayloadParameters(bundleId: "com.example.app", signedDate: Self.inside),
            count: 1)[0]
        let verifier = try SignedDataVerifier(
            rootCertificates: [tokens.rootDER], bundleId: "com.example.app", environment: .sandbox)
        let verified = verifier.verifyAndDecodeTransaction(token)
        #expect(verified.isVerified, "\(String(describing: verified.error))")

        let receipts = try TestHierarchy.generate(.receiptRSA, seed: Self.seed)
        let content = ReceiptContentEncoder.content(
            AppReceipt(
                receiptType: "ProductionSandbox", bundleId: "com.example.app", applicationVersion: "1",
                receiptCreationDate: Self.inside))
        let receipt = try ReceiptSigner(hierarchy: receipts).sign(content: content)
        let receiptVerifier = try AppReceiptVerifier(
            rootCertificates: [receipts.rootDER], bundleId: "com.example.app", environments: [.sandbox])
        let result = receiptVerifier.verifyAndDecodeAppReceipt(Data(receipt))
        #expect(result.isVerified, "\(String(describing: result.error))")

        #expect(throws: JWSTestingError.self) { try TokenMinter(hierarchy: receipts) }
    }

    /// Input: a hierarchy of each profile written with `write(to:)`. Expected: `load(from:)` reads back the same
    /// certificates, keys and profile.
    @Test("write and load keep the certificates, the keys and the profile")
    func filesRoundTrip() throws {
        for profile in TestHierarchy.Profile.allCases {
            let hierarchy = try TestHierarchy.generate(profile, seed: Self.seed)
            let directory = try TemporaryDirectory()
            try hierarchy.write(to: directory.url)
            #expect(try TestHierarchy.load(from: directory.url) == hierarchy, "\(profile)")
        }
    }

    /// Input: `.appStoreEC` hierarchies with the label option (the crafted-chain tests' variant), and an
    /// intermediate and a leaf issued with a given serial number and OCSP URL, or none (the OCSP tests' variant).
    /// Expected: the certificates are named after the label, the keys are those of the seed and the
    /// "<label>-root", "-intermediate", "-leaf" labels; the serial numbers and URLs are as given, and without a
    /// URL the Authority Information Access extension is left out.
    @Test("the crafted and OCSP variants are options: a label, serial numbers and OCSP URLs")
    func variants() throws {
        let labelled = try TestHierarchy.generate(.appStoreEC, seed: 51, options: .init(label: "Store"))
        #expect(labelled.root.subject.commonName == "Store Root NOT APPLE")
        #expect(labelled.intermediate.subject.commonName == "Store Intermediate NOT APPLE")
        #expect(labelled.leaf.subject.commonName == "Store Leaf NOT APPLE")
        #expect(labelled.rootKey == .ec(try TestPrivateKey.generate(curve: .p384, seed: 51, label: "Store-root")))
        #expect(labelled.leafKey == .ec(try TestPrivateKey.generate(curve: .p256, seed: 51, label: "Store-leaf")))
        // The intermediate's subject as encoded is the leaf's issuer, byte for byte.
        let subject = try labelled.intermediate.subjectName.der
        #expect(subject.first == 0x30 && labelled.leaf.der.range(of: subject) != nil)

        let url = "http://127.0.0.1:8801"
        let intermediate = try labelled.makeIntermediate(serialNumber: Data([0x10, 0x02]), ocspURL: url)
        #expect(try Self.signedPart(intermediate.certificate).serial == Data([0x10, 0x02]))
        #expect(intermediate.certificate.der.range(of: Data(url.utf8)) != nil)
        let leaf = try labelled.replacing(intermediate: intermediate).makeLeaf(
            serialNumber: Data([0x10, 0x03]), ocspURL: nil)
        #expect(try Self.signedPart(leaf.certificate).serial == Data([0x10, 0x03]))
        let authorityInformationAccess = Data([0x06, 0x08, 0x2B, 0x06, 0x01, 0x05, 0x05, 0x07, 0x01, 0x01])
        #expect(leaf.certificate.der.range(of: authorityInformationAccess) == nil)
        #expect(labelled.leaf.der.range(of: authorityInformationAccess) != nil)
    }
}
