import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// Check 2, header (Docs/ErrorCodes.md): `alg` is exactly `"ES256"` and no `crit` member; else
/// `unsupportedAlgorithm`.
@Suite("Check 2, header: unsupportedAlgorithm")
struct Check02AlgorithmTests: AppleTokenVariants, PipelineFixture {
    @Test("alg must be exactly ES256", arguments: ["none", "HS256", "RS256", "ES384", "es256", "ES256 ", ""])
    func algorithms(_ alg: String) throws {
        try Self.check(try Self.withHeader { $0["alg"] = alg }, .unsupportedAlgorithm, .header, "alg \(alg)")
    }

    @Test("alg absent or not a string, and crit present, are rejected")
    func algShapes() throws {
        try Self.check(try Self.withHeader { $0["alg"] = nil }, .unsupportedAlgorithm, .header, "no alg")
        try Self.check(try Self.withHeader { $0["alg"] = 256 }, .unsupportedAlgorithm, .header, "alg number")
        try Self.check(try Self.withHeader { $0["crit"] = ["exp"] }, .unsupportedAlgorithm, .header, "crit")
    }

    /// Input: a transaction with a good payload under a forged header (`alg` "none", and a `crit`
    /// member). Expected (Docs/ErrorCodes.md, "Where JWSVerify differs": "A forged header (checks 2–4)
    /// is refused before the payload model is built: `VerificationFailure.unverifiedPayload` is then
    /// nil"), as before the refactor. Actual: the failure carries a lazily decoded payload
    /// (`UnverifiedPayload.later` in `SignedDataVerifier.check`), so `unverifiedPayload` is the model.
    @Test("a forged header's failure carries no unverified payload (ErrorCodes.md)")
    func forgedHeaderHasNoPayload() throws {
        let minter = try TokenMinter(hierarchy: Self.pki)
        let payload = DefaultPayloads.transaction(PayloadParameters(bundleId: Self.bundleId, signedDate: Self.inside))
        let verifier = try Self.verifier(capacity: 0)
        for header in [
            TokenMinter.Header(algorithm: "none"),
            TokenMinter.Header(extraMembers: ["crit": .array([.string("x")])]),
            TokenMinter.Header(certificateChain: .omitted),
        ] {
            let result = verifier.verifyAndDecodeTransaction(try minter.sign(payload, header: header))
            #expect(result.error?.check == .header)
            #expect(result.unverifiedPayload == nil, "checks 2–4 failed, yet the payload model was built")
        }
    }
}
