import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// The step-by-step report explains a verification without the caller deciding anything.
@Suite("Verification report")
struct ReportTests {
    static let bundleId = "com.example.jwsverify"

    static func verifier(
        _ pki: TestHierarchy, bundleId: String? = bundleId, environment: AppStoreEnvironment? = .sandbox
    ) throws
        -> SignedDataVerifier
    {
        try SignedDataVerifier(rootCertificates: [pki.root.der], bundleId: bundleId, environment: environment)
    }

    @Test("a verified transaction passes every step but the skipped ones")
    func verifiedTransaction() throws {
        let pki = try TestHierarchy.generate(.appStoreEC, seed: 11)
        let token = try TokenMinter(hierarchy: pki).mint(
            .transaction, parameters: PayloadParameters(bundleId: Self.bundleId), count: 1)[0]
        let verifier = try Self.verifier(pki)
        let report = verifier.report(for: verifier.verifyAndDecode(token, as: nil))
        let outcomes = Dictionary(uniqueKeysWithValues: report.steps.map { ($0.name, $0.outcome) })
        #expect(report.failedStep == nil)
        #expect(outcomes[.signature] == .passed)
        #expect(outcomes[.bundleId] == .passed)
        #expect(outcomes[.revocation] == .skipped)
        #expect(outcomes[.appAppleId] == .skipped)
        #expect(outcomes[.nestedTokens] == .skipped)
        #expect(report.steps.map(\.name) == VerificationReport.StepName.tokenSteps)
    }

    /// Without a configured bundle id the step is skipped, never passed, and says what the payload claims.
    @Test("an unconfigured bundle id and environment are reported as skipped")
    func unconfiguredClaims() throws {
        let pki = try TestHierarchy.generate(.appStoreEC, seed: 11)
        let token = try TokenMinter(hierarchy: pki).mint(
            .transaction, parameters: PayloadParameters(bundleId: Self.bundleId), count: 1)[0]
        let verifier = try Self.verifier(pki, bundleId: nil, environment: nil)
        let report = verifier.report(for: verifier.verifyAndDecode(token, as: nil))
        let bundle = try #require(report.steps.first { $0.name == .bundleId })
        #expect(bundle.outcome == .skipped)
        #expect(bundle.detail.contains(Self.bundleId))
        #expect(report.steps.first { $0.name == .environment }?.outcome == .skipped)
    }

    /// A notification whose nested transaction names another app: the notification's own checks pass,
    /// the nested step fails with the nested code.
    @Test("a failing nested token fails the nested step only")
    func nestedFailure() throws {
        let pki = try TestHierarchy.generate(.appStoreEC, seed: 12)
        let minter = try TokenMinter(hierarchy: pki)
        let nested = try minter.mint(
            .transaction, parameters: PayloadParameters(bundleId: "com.example.other"), count: 1)[0]
        let notification: [String: JSONValue] = [
            "notificationType": .string("DID_RENEW"),
            "notificationUUID": .string("5b8c3a46-0000-4000-8000-000000000001"),
            "version": .string("2.0"), "signedDate": .integer(1_780_000_000_000),
            "data": .object([
                "bundleId": .string(Self.bundleId), "environment": .string("Sandbox"), "appAppleId": .integer(1234),
                "signedTransactionInfo": .string(nested),
            ]),
        ]
        let token = try minter.sign(notification)
        let verifier = try Self.verifier(pki)
        let result = verifier.verifyAndDecode(token, as: .notification)
        #expect(result.error?.code == .invalidAppIdentifier)
        #expect(result.error?.message.hasPrefix("nested signedTransactionInfo") == true)
        let report = verifier.report(for: result)
        #expect(report.failedStep?.name == .nestedTokens)
        #expect(report.steps.first { $0.name == .environment }?.outcome == .passed)
        #expect(report.steps.first { $0.name == .signature }?.outcome == .passed)
    }

    @Test("a failure before verification fails its step and skips the rest")
    func failureOnly() {
        let report = VerificationReport(failure: VerificationError(.malformedToken, check: .format, "too long"))
        #expect(report.failedStep?.name == .format)
        #expect(report.failedStep?.detail == "too long")
        #expect(
            report.steps.filter { $0.outcome == .skipped }.count == VerificationReport.StepName.tokenSteps.count - 1)
    }

    /// Apple's minimal test transaction (bundleId, environment, signedDate) has no key only transactions
    /// have; a top-level bundleId makes it a transaction. Its minimal renewal info stays unknown.
    @Test("kind recognition falls back to transaction on a bundleId")
    func recognition() throws {
        #expect(PayloadKind.recognize(token: try AppleTestData.token("transactionInfo")) == .transaction)
        #expect(PayloadKind.recognize(token: try AppleTestData.token("renewalInfo")) == nil)
        #expect(PayloadKind.recognize(token: try AppleTestData.token("testNotification")) == .notification)
        #expect(PayloadKind.recognize(token: "garbage") == nil)
        let verified = try AppleTestData.verifier().verifyAndDecode(try AppleTestData.token("transactionInfo"), as: nil)
        #expect(verified.isVerified)
        #expect(verified.payload?.kind == .transaction)
    }

    @Test("ISO 8601 text by arithmetic")
    func iso8601() {
        #expect(ISO8601Text.iso8601(milliseconds: 0) == "1970-01-01T00:00:00Z")
        #expect(ISO8601Text.iso8601(milliseconds: 1_672_956_154_000) == "2023-01-05T22:02:34Z")
        #expect(ISO8601Text.iso8601(milliseconds: 1_697_679_936_049.7297) == "2023-10-19T01:45:36.049Z")
        // Xcode's "no date" (Apple's calendars say 0001-01-01, Julian before 1582) in proleptic Gregorian.
        #expect(ISO8601Text.iso8601(milliseconds: -62_135_769_600_000) == "0000-12-30T00:00:00Z")
        #expect(ISO8601Text.iso8601(milliseconds: -1) == "1969-12-31T23:59:59.999Z")
    }
}
