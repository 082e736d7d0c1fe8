import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// What a failure says beyond its error (issue 18): the validation time used, the validated chain when
/// a later check failed, whether the time is the clock's for lack of a signed date, and the remedy a
/// caller may word in its own terms.
@Suite("Failure context")
struct FailureContextTests {
    /// Input: Apple's mock transaction (signedDate 2023-01-05T22:02:34Z) under a verifier expecting
    /// another bundle id, cold and warm. Expected: invalidAppIdentifier (claims), the validated chain of
    /// three certificates ending in testCA, the signed date as validation time, not the clock's.
    @Test("a claims failure carries the validated chain and the signed date it validated at, warm as cold")
    func claimsFailureCarriesTheChain() throws {
        let token = try AppleTestData.token("transactionInfo")
        for capacity in [0, 64] {
            let verifier = try AppleTestData.verifier(bundleId: "com.example.other", cacheCapacity: capacity)
            for round in 0..<2 {
                guard case .failed(let failure) = verifier.verifyAndDecodeTransaction(token) else {
                    Issue.record("verified")
                    return
                }
                #expect(failure.error.code == .invalidAppIdentifier && failure.error.check == .claims)
                #expect(failure.validationTime == Date(timeIntervalSince1970: 1_672_956_154), "\(capacity) \(round)")
                #expect(failure.validatedWithoutSignedDate == false)
                let chain = try #require(failure.validatedChain, "\(capacity) \(round)")
                #expect(chain.count == 3)
                #expect(chain.last?.der == (try AppleTestData.testCA))
            }
        }
    }

    /// Input: a token with no x5c, and Apple's mock transaction at a time its chain is expired.
    /// Expected: the header failure has no validation time and no chain; the expired one has the time
    /// it was checked at but no validated chain.
    @Test("failures before or in the chain checks carry no validated chain")
    func earlyFailuresCarryNoChain() throws {
        guard
            case .failed(let header) = try AppleTestData.verifier().verifyAndDecodeTransaction(
                try AppleTestData.token("missingX5CHeaderClaim"))
        else {
            Issue.record("verified")
            return
        }
        #expect(header.error.check == .header)
        #expect(header.validationTime == nil && header.validatedChain == nil)

        let late = Date(timeIntervalSince1970: 4_102_444_800)
        let verifier = try SignedDataVerifier(
            rootCertificates: [try AppleTestData.testCA], bundleId: "com.example", environment: .sandbox,
            validationTime: .fixed(late))
        guard
            case .failed(let expired) = verifier.verifyAndDecodeTransaction(try AppleTestData.token("transactionInfo"))
        else {
            Issue.record("verified")
            return
        }
        #expect(expired.error.code == .certificateExpired)
        #expect(expired.validationTime == late)
        #expect(expired.validatedChain == nil)
    }

    /// Input: Apple's wrongBundleId notification, which has no signedDate, under `.signedDate` with a
    /// fixed clock. Expected: it is validated at the clock's time and the failure says that this is
    /// for lack of a signed date; under `.fixed` it does not.
    @Test("a payload without a signed date is validated at the clock's time, and the failure says so")
    func noSignedDate() throws {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let token = try AppleTestData.token("wrongBundleId")
        for (time, expected) in [(ValidationTime.signedDate, true), (.fixed(now), false)] {
            let verifier = try SignedDataVerifier(
                rootCertificates: [try AppleTestData.testCA], bundleId: "com.example", environment: .sandbox,
                validationTime: time, clock: { now })
            guard case .failed(let failure) = verifier.verifyAndDecodeNotification(token) else {
                Issue.record("verified")
                return
            }
            #expect(failure.error.code == .invalidAppIdentifier)
            #expect(failure.validationTime == now)
            #expect(failure.validatedWithoutSignedDate == expected, "\(time)")
        }
    }

    /// Input: configurations the library refuses, and a notification verified as a renewal info.
    /// Expected: each error carries the remedy its message describes; codes and checks unchanged.
    @Test("refusals carry the remedy their message describes")
    func remedies() throws {
        func refusal(_ make: () throws(VerificationError) -> SignedDataVerifier) -> VerificationError? {
            do throws(VerificationError) {
                _ = try make()
                return nil
            } catch {
                return error
            }
        }
        let production = refusal { () throws(VerificationError) in
            try SignedDataVerifier(bundleId: nil, appAppleId: nil, environment: .production)
        }
        #expect(production?.remedy == .appAppleIdRequired && production?.code == .invalidConfiguration)
        let local = refusal { () throws(VerificationError) in
            try SignedDataVerifier(bundleId: nil, environment: .localTesting)
        }
        #expect(local?.remedy == .localTestingCannotBeVerified)
        let xcode = refusal { () throws(VerificationError) in
            try SignedDataVerifier(bundleId: nil, environment: .xcode)
        }
        #expect(xcode?.remedy == .xcodeCertificateRequired)
        let root = refusal { () throws(VerificationError) in
            try SignedDataVerifier(rootCertificates: [Data("x".utf8)], bundleId: nil, environment: .sandbox)
        }
        #expect(root?.remedy == .rootUnreadable(index: 0))
        #expect(root?.message == "root certificate 0 is not a DER or PEM X.509 certificate")

        let hierarchy = try OneVerdictTests.Hierarchy()
        let unrecognized = try CraftedToken.mint(
            x5c: [hierarchy.goodLeaf, hierarchy.intermediate, hierarchy.root],
            payload: ["signedDate": .integer(OneVerdictTests.inside * 1000), "somethingElse": .string("x")],
            signer: .key(hierarchy.keys.goodLeafKey))
        let verifier = try hierarchy.verifier(at: .signedDate)
        let result = verifier.verifyAndDecode(unrecognized, as: nil)
        #expect(result.error?.code == .payloadDecodingFailed)
        #expect(result.error?.remedy == .kindRequired)

        let renewal = try AppleTestData.verifier().verifyAndDecodeRenewalInfo(
            try AppleTestData.token("testNotification"))
        #expect(renewal.error?.code == .payloadDecodingFailed)
        #expect(renewal.error?.remedy == .otherKind(.notification))
    }
}
