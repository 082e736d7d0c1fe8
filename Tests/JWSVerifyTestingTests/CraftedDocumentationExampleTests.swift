import Foundation
import JWSVerify
import JWSVerifyTesting
import Testing

/// The crafted-certificate example of Docs/Testing-your-server.md, run as written.
@Suite("Docs: the crafted-certificate example")
struct CraftedDocumentationExampleTests {
    /// Input: the example's root with name constraints, an intermediate inside them, and a leaf outside
    /// them whose key is the point at infinity, with a forged signature. Expected: a verifier trusting the
    /// root refuses the token with untrustedChain (the name constraints come before the key's check).
    @Test("the example's token is refused")
    func exampleIsRefused() throws {
        let rootKey = try TestPrivateKey.generate(curve: .p384)
        let intermediateKey = try TestPrivateKey.generate(curve: .p384)
        let rootName = try CraftedName([.commonName("Test Root"), .organization("Good Org")])
        let intermediateName = try CraftedName([.commonName("Test Intermediate"), .organization("Good Org")])
        let root = try CraftedCertificate.rootProfile(
            name: rootName, key: rootKey, notBefore: 1_735_689_600, notAfter: 2_051_222_400,
            extra: [.nameConstraints(permitted: [.directoryName(try CraftedName([.organization("Good Org")]))])]
        ).sign(with: rootKey)
        let intermediate = try CraftedCertificate.intermediateProfile(
            name: intermediateName, issuer: rootName, key: intermediateKey, issuerKey: rootKey,
            notBefore: 1_735_689_600, notAfter: 2_051_222_400
        ).sign(with: rootKey)
        let leaf = try CraftedCertificate.leafProfile(
            name: try CraftedName([.commonName("Evil Leaf"), .organization("Evil Org")]), issuer: intermediateName,
            publicKey: .p256PointAtInfinity, issuerKey: intermediateKey, notBefore: 1_735_689_600,
            notAfter: 2_051_222_400
        ).sign(with: intermediateKey)
        let token = try CraftedToken.transaction(
            x5c: [leaf, intermediate, root], parameters: PayloadParameters(bundleId: "com.example.app"),
            signer: .forgedForPointAtInfinity(k: nil))
        let verifier = try SignedDataVerifier(
            rootCertificates: [root], bundleId: "com.example.app", environment: .sandbox,
            validationTime: .fixed(Date(timeIntervalSince1970: 1_780_000_000)))
        let error = verifier.verifyAndDecodeTransaction(token).error
        #expect(error?.code == .untrustedChain)
        #expect(error?.check == .chain)
    }
}
