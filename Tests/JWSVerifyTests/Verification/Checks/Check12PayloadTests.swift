import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// Check 12, payload (Docs/ErrorCodes.md): the payload decodes as the expected type; else
/// `payloadDecodingFailed`, with a hint when it is another App Store type.
@Suite("Check 12, payload: payloadDecodingFailed")
struct Check12PayloadTests: PipelineFixture {
    /// Input: an app transaction of the test PKI, signed and valid, given to the transaction method, and a
    /// transaction given to the app-transaction method. Expected: `payloadDecodingFailed` from the payload
    /// check (step 12), after the signature passed, warm and cold.
    @Test("a payload of another kind is payloadDecodingFailed at the payload step, warm and cold")
    func otherKind() throws {
        let minter = try TokenMinter(hierarchy: Self.pki)
        let parameters = PayloadParameters(bundleId: Self.bundleId, signedDate: Self.inside)
        let appTransaction = try minter.sign(DefaultPayloads.appTransaction(parameters))
        for capacity in [0, 64] {
            let verifier = try Self.verifier(capacity: capacity)
            let result = verifier.verifyAndDecodeTransaction(appTransaction)
            #expect(result.error?.code == .payloadDecodingFailed, "\(String(describing: result.error))")
            #expect(result.error?.check == .payload)
            #expect(result.report.failedStep?.name == .payload)
            #expect(result.report.steps.first { $0.name == .signature }?.outcome == .passed)
        }
    }
}
