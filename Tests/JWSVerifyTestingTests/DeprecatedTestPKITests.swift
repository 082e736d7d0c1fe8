import Foundation
import JWSVerify
import Testing

@testable import JWSVerifyTesting

/// `TestPKI` and `ReceiptTestPKI`, deprecated views of ``TestHierarchy`` kept for users: they make the same
/// hierarchies, convert both ways, and their minter and signer still make what JWSVerify verifies. Every other
/// test uses ``TestHierarchy``.
///
/// Swift Testing refuses a deprecated `@Test` or `@Suite`, and calling a deprecated name warns. So each test's
/// body is a deprecated member of ``DeprecatedTestPKIBodies`` (where the deprecated names warn nobody), and the
/// test calls it through the protocol ``DeprecatedTestPKIChecks``, whose requirements are not deprecated.
@Suite("Test hierarchy: the deprecated TestPKI and ReceiptTestPKI")
struct DeprecatedTestPKITests {
    static var bodies: any DeprecatedTestPKIChecks.Type { DeprecatedTestPKIBodies.self }

    /// Input: an `.appStoreEC` hierarchy of seed 42 through ``TestHierarchy`` and through
    /// `TestPKI.generate(seed:)`, and a leaf of seed 9 issued by each. Expected: the same keys and byte-identical
    /// TBSCertificates (only the ECDSA certificate signatures vary).
    @Test("the same seed gives the same token hierarchy through TestPKI as through TestHierarchy")
    func testPKIIsTheAppStoreECProfile() throws { try Self.bodies.testPKIIsTheAppStoreECProfile() }

    /// Input: a hierarchy of each profile through the old names' views, and through the wrong one. Expected:
    /// `TestPKI(_:)` and `ReceiptTestPKI(_:)` give back the same hierarchy; the other profile's keys are refused.
    @Test("TestPKI and ReceiptTestPKI are views of the two profiles")
    func oldNamesAreViews() throws { try Self.bodies.oldNamesAreViews() }

    /// Input: a token minted by `TokenMinter(pki:)` over `TestPKI.generate()`, a receipt signed by
    /// `ReceiptSigner(pki:)` over `ReceiptTestPKI.generate()`, both hierarchies written and loaded back through
    /// the old names. Expected: each verifies with JWSVerify trusting its root; the minter's `pki` is the
    /// hierarchy it was given; the loaded hierarchies equal the written ones.
    @Test("the deprecated minter, signer and files keep working")
    func oldNamesStillSign() throws { try Self.bodies.oldNamesStillSign() }
}

/// The bodies of ``DeprecatedTestPKITests``, as requirements that are not deprecated.
protocol DeprecatedTestPKIChecks {
    static func testPKIIsTheAppStoreECProfile() throws
    static func oldNamesAreViews() throws
    static func oldNamesStillSign() throws
}

/// The bodies of ``DeprecatedTestPKITests``, each deprecated so that the deprecated names in it warn nobody.
enum DeprecatedTestPKIBodies: DeprecatedTestPKIChecks {
    static let seed: UInt64 = 42
    /// Inside the default validity (2025 ... 2035).
    static let inside = Date(timeIntervalSince1970: 1_780_000_000)

    @available(*, deprecated, message: "tests the deprecated TestPKI and ReceiptTestPKI")
    static func testPKIIsTheAppStoreECProfile() throws {
        let hierarchy = try TestHierarchy.generate(.appStoreEC, seed: Self.seed)
        let old = try TestPKI.generate(seed: Self.seed)
        #expect(old.hierarchy.profile == .appStoreEC)
        #expect(old.hierarchy.rootKey == hierarchy.rootKey && old.hierarchy.leafKey == hierarchy.leafKey)
        #expect(old.hierarchy.intermediateKey == hierarchy.intermediateKey)
        for (mine, theirs) in zip(hierarchy.certificateChain, old.certificateChain) {
            #expect(try TestHierarchyTests.signedPart(mine).tbs == TestHierarchyTests.signedPart(theirs).tbs)
        }
        let leaf = try hierarchy.makeLeaf(seed: 9)
        let oldLeaf = try old.makeLeaf(seed: 9)
        #expect(
            try TestHierarchyTests.signedPart(leaf.certificate).tbs
                == TestHierarchyTests.signedPart(oldLeaf.certificate).tbs)
        #expect(leaf.privateKey == .ec(oldLeaf.privateKey))
    }

    @available(*, deprecated, message: "tests the deprecated TestPKI and ReceiptTestPKI")
    static func oldNamesAreViews() throws {
        let tokens = try TestHierarchy.generate(.appStoreEC, seed: Self.seed)
        let receipts = try TestHierarchy.generate(.receiptRSA, seed: Self.seed)
        #expect(try TestPKI(tokens).hierarchy == tokens)
        #expect(try ReceiptTestPKI(receipts).hierarchy == receipts)
        #expect(throws: JWSTestingError.self) { try TestPKI(receipts) }
        #expect(throws: JWSTestingError.self) { try ReceiptTestPKI(tokens) }
    }

    @available(*, deprecated, message: "tests the deprecated TestPKI and ReceiptTestPKI")
    static func oldNamesStillSign() throws {
        let pki = try TestPKI.generate()
        let minter = TokenMinter(pki: pki)
        #expect(minter.pki == pki)
        #expect(minter.hierarchy == pki.hierarchy)
        let token = try minter.mint(
            .transaction, parameters: PayloadParameters(bundleId: "com.example.app", signedDate: Self.inside))[0]
        let verifier = try SignedDataVerifier(
            rootCertificates: [pki.root.der], bundleId: "com.example.app", environment: .sandbox)
        let verified = verifier.verifyAndDecodeTransaction(token)
        #expect(verified.isVerified, "\(String(describing: verified.error))")

        let receiptPKI = try ReceiptTestPKI.generate()
        let content = ReceiptContentEncoder.content(
            AppReceipt(
                receiptType: "ProductionSandbox", bundleId: "com.example.app", applicationVersion: "1",
                receiptCreationDate: Self.inside))
        let receipt = try ReceiptSigner(pki: receiptPKI).sign(content: content)
        let receiptVerifier = try AppReceiptVerifier(
            rootCertificates: [receiptPKI.rootDER], bundleId: "com.example.app", environments: [.sandbox])
        let result = receiptVerifier.verifyAndDecodeAppReceipt(Data(receipt))
        #expect(result.isVerified, "\(String(describing: result.error))")

        let directory = try TemporaryDirectory()
        try pki.write(to: directory.url)
        #expect(try TestPKI.load(from: directory.url) == pki)
        let receiptDirectory = try TemporaryDirectory()
        try receiptPKI.write(to: receiptDirectory.url)
        #expect(try ReceiptTestPKI.load(from: receiptDirectory.url) == receiptPKI)
    }
}
