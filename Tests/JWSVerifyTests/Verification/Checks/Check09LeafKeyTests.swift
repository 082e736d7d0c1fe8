import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// Check 9, chain (Docs/ErrorCodes.md): the leaf public key is EC P-256 (a valid point); else `unsupportedKey`.
@Suite("Check 9, chain: unsupportedKey")
struct Check09LeafKeyTests: PipelineFixture {
    /// Input: a chain that verifies up to check 8 (the test PKI's root and intermediate, a leaf with the leaf
    /// profile and marker) whose leaf key is P-384, with a 64-byte signature made by the P-256 leaf key.
    /// Expected: `unsupportedKey` from the chain check, at step 9, naming the key type, warm and cold; without
    /// check 9 the token would reach the signature check and fail there as `invalidSignature`.
    @Test("a P-384 leaf key is refused before the signature, warm and cold")
    func p384LeafKey() throws {
        let leaf = try Self.pki.makeLeaf(
            key: .ec(TestPrivateKey.generate(curve: .p384, seed: 9, label: "extra-leaf")), seed: 9)
        let minter = try TokenMinter(hierarchy: Self.pki.replacing(leaf: leaf))
        let payload = DefaultPayloads.transaction(PayloadParameters(bundleId: Self.bundleId, signedDate: Self.inside))
        guard case .ec(let p256Key) = Self.pki.leafKey else {
            Issue.record("the .appStoreEC hierarchy's leaf key is not EC")
            return
        }
        let token = try minter.sign(payload, signature: .init(key: p256Key))
        for capacity in [0, 64] {
            let verifier = try Self.verifier(capacity: capacity)
            _ = verifier.verifyAndDecode(try TokenMinter(hierarchy: Self.pki).sign(payload), as: nil)
            let result = verifier.verifyAndDecodeTransaction(token)
            #expect(result.error?.code == .unsupportedKey, "\(String(describing: result.error))")
            #expect(result.error?.check == .chain)
            #expect(result.report.failedStep?.name == .leafKey)
            #expect(result.error?.message.contains("P-384") == true, "\(result.error?.message ?? "")")
        }
    }
}
