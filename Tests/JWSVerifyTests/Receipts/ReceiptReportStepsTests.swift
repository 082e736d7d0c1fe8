import Foundation
import Testing

@testable import JWSVerify

/// A receipt's report has the receipt contract's own steps, in its order, each recorded where its check
/// runs: the content at check 1, the signer's key under `signerKey` (check 7), no token-only step.
@Suite("Receipt report steps")
struct ReceiptReportStepsTests {
    /// Input: a real receipt, verified cold and warm. Expected: exactly the steps of
    /// ``VerificationReport/StepName/receiptSteps`` in that order; `content` passed right after `format`;
    /// `signerKey` passed with the RSA size; no `leafKey`, `chainLength`, `revocation`, `payload` or
    /// `nestedTokens`; the warm report equal to the cold one.
    @Test("a verified receipt reports the receipt steps in the receipt contract's order")
    func verifiedSteps() throws {
        let real = ReceiptVerificationTests.appStoreReceipts[0]
        let verifier = try ReceiptVerificationTests.verifier(bundleId: real.bundleId)
        let text = try ReceiptVerificationTests.text(real.file)
        let cold = verifier.verifyAndDecodeAppReceipt(text).report
        let warm = verifier.verifyAndDecodeAppReceipt(text).report
        #expect(verifier.cacheStatistics.hits == 1)
        #expect(cold.steps.map(\.name) == VerificationReport.StepName.receiptSteps)
        #expect(cold.steps.map(\.name)[0...1] == [.format, .content])
        #expect(cold.steps.first { $0.name == .content }?.outcome == .passed)
        let key = try #require(cold.steps.first { $0.name == .signerKey })
        #expect(key.outcome == .passed && key.detail.hasPrefix("RSA "))
        for tokenOnly: VerificationReport.StepName in [.chainLength, .leafKey, .revocation, .payload, .nestedTokens] {
            #expect(!cold.steps.contains { $0.name == tokenOnly }, "\(tokenOnly)")
        }
        #expect(warm == cold)
    }

    /// Input: a receipt that fails a chain check (a root that is not its own). Expected: every step after the
    /// failed one is reported as not run, with the receipt's names; the content step passed (check 1 ran).
    @Test("a failed receipt reports its later steps as not run, under the receipt's names")
    func failedSteps() throws {
        let real = ReceiptVerificationTests.appStoreReceipts[0]
        let verifier = try ReceiptVerificationTests.verifier(
            bundleId: real.bundleId, roots: [AppleRootCertificate.rootCAG3])
        let result = verifier.verifyAndDecodeAppReceipt(try ReceiptVerificationTests.text(real.file))
        #expect(result.error?.code == .untrustedChain && result.error?.check == .chain)
        let report = result.report
        #expect(report.steps.map(\.name) == VerificationReport.StepName.receiptSteps)
        #expect(report.failedStep?.name == .trust)
        #expect(report.steps.first { $0.name == .content }?.outcome == .passed)
        let signerKey = try #require(report.steps.first { $0.name == .signerKey })
        #expect(signerKey.outcome == .skipped && signerKey.detail.hasPrefix("not run"))
    }

    /// Input: the step names. Expected: the new receipt steps belong to the checks their codes name
    /// (`content` to format, `signerKey` to chain), and the token steps are the token contract's, unchanged.
    @Test("receipt steps belong to their checks; the token steps are unchanged")
    func stepChecks() {
        #expect(VerificationReport.StepName.content.check == .format)
        #expect(VerificationReport.StepName.signerKey.check == .chain)
        #expect(
            VerificationReport.StepName.tokenSteps.map(\.rawValue) == [
                "format", "algorithm", "certificateChain", "chainLength", "certificates", "trust", "validity",
                "appleExtensions", "leafKey", "signature", "revocation", "payload", "bundleId", "appAppleId",
                "environment", "deviceHash", "nestedTokens",
            ])
    }
}
