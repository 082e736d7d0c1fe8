import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// Check 13, claims (Docs/ErrorCodes.md): bundle id, app Apple id (Production) and environment match the
/// configuration, app identifier first; else `invalidAppIdentifier` or `invalidEnvironment`.
@Suite("Check 13, claims: invalidAppIdentifier, invalidEnvironment")
struct Check13ClaimsTests {
    /// Expected: Production with app Apple id 1234 → `invalidEnvironment`; with 1235 → `invalidAppIdentifier`
    /// (app identifier is checked before environment).
    @Test("the test notification fails in Production")
    func notificationProduction() throws {
        let token = try AppleTestData.token("testNotification")
        let production = try AppleTestData.verifier(environment: .production, appAppleId: 1234)
        #expect(production.verifyAndDecodeNotification(token).error?.code == .invalidEnvironment)
        let otherApp = try AppleTestData.verifier(environment: .production, appAppleId: 1235)
        let error = otherApp.verifyAndDecodeNotification(token).error
        #expect(error?.code == .invalidAppIdentifier)
        #expect(error?.check == .claims)
    }

    @Test("the transaction verifies, and fails for another bundle id")
    func transaction() throws {
        let token = try AppleTestData.token("transactionInfo")
        let payload = try AppleTestData.verifier().verifyAndDecodeTransaction(token).get()
        #expect(payload.bundleId == "com.example")
        #expect(payload.environment == .sandbox)
        let other = try AppleTestData.verifier(bundleId: "com.example.x").verifyAndDecodeTransaction(token)
        #expect(other.error?.code == .invalidAppIdentifier)
        #expect(other.unverifiedPayload?.bundleId == "com.example")
        #expect(other.payload == nil)
    }

    @Test("the wrong bundle id notification fails with invalidAppIdentifier")
    func wrongBundleId() throws {
        let result = try AppleTestData.verifier().verifyAndDecodeNotification(try AppleTestData.token("wrongBundleId"))
        #expect(result.error?.code == .invalidAppIdentifier)
        #expect(result.error?.check == .claims)
    }

    /// Input: a payload's bundle id and a configured one that Swift's `String` holds equal (Unicode canonical
    /// equivalence: KELVIN SIGN U+212A and `K`, `é` precomposed and decomposed) but whose bytes differ. Expected:
    /// `invalidAppIdentifier`; the same bytes pass.
    @Test("bundle ids are compared byte for byte, not by canonical equivalence")
    func bundleIdBytes() throws {
        for (payload, configured) in [("com.example.\u{212A}", "com.example.K"), ("caf\u{E9}", "cafe\u{301}")] {
            #expect(payload == configured, "Swift's String equality holds these equal")
            let claims = PayloadClaims(
                checksBundleId: true, checksAppAppleId: false, bundleId: payload, appAppleId: nil,
                environment: .sandbox)
            var recorder = ReportRecorder()
            let differing = ClaimsCheck(bundleId: configured, appAppleId: nil, environments: [.sandbox])
            #expect(throws: VerificationError.self) { try differing.check(claims, recorder: &recorder) }
            do {
                try differing.check(claims, recorder: &recorder)
            } catch {
                #expect(error.code == .invalidAppIdentifier)
            }
            var same = ReportRecorder()
            let matching = ClaimsCheck(bundleId: payload, appAppleId: nil, environments: [.sandbox])
            #expect(throws: Never.self) { try matching.check(claims, recorder: &same) }
        }
    }
}
