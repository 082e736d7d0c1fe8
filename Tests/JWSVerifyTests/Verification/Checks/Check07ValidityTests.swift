import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// Check 7, chain (Docs/ErrorCodes.md): every certificate valid at the validation time (`signedDate`,
/// `receiptCreationDate` for an app transaction); else `certificateExpired`.
@Suite("Check 7, chain: certificateExpired")
struct Check07ValidityTests: PipelineFixture {
    /// Input: an app transaction whose receiptCreationDate is at the chain's notAfter and whose
    /// signedDate is inside it. Expected (ErrorCodes.md, validation time): validated at
    /// receiptCreationDate, so certificateExpired, warm and cold; the same token as a transaction
    /// (signedDate) verifies far enough to fail at check 12 as another kind.
    @Test("an app transaction is validated at receiptCreationDate, warm and cold")
    func appTransactionDate() throws {
        let minter = try TokenMinter(hierarchy: Self.pki)
        var payload = DefaultPayloads.appTransaction(
            PayloadParameters(bundleId: Self.bundleId, signedDate: Self.inside))
        payload["receiptCreationDate"] = Self.millis(Self.notAfter)
        payload["signedDate"] = Self.millis(1_780_000_000)
        let token = try minter.sign(payload)
        for capacity in [0, 64] {
            let verifier = try Self.verifier(capacity: capacity)
            _ = verifier.verifyAndDecode(
                try minter.sign(DefaultPayloads.transaction(.init(signedDate: Self.inside))), as: nil)
            #expect(verifier.verifyAndDecodeAppTransaction(token).error?.code == .certificateExpired)
            #expect(verifier.verifyAndDecodeTransaction(token).error?.code == .payloadDecodingFailed)
        }
    }
}
