import Foundation
import Testing

@testable import JWSVerify

/// Apple's own library test tokens give the verdicts Apple's tests expect, under the same
/// configuration: roots [testCA.der], bundle id com.example, app Apple id 1234.
@Suite("Apple's mock signed data")
struct AppleMockDataTests {
    /// Input: the TEST notification (Sandbox, com.example, 1234), whose x5c[2] is not testCA itself
    /// (same subject and key, other serial). Expected: verified, since x5c[2] is never trusted or needed.
    @Test("the test notification verifies in Sandbox")
    func notificationVerifies() throws {
        let result = try AppleTestData.verifier().verifyAndDecodeNotification(
            try AppleTestData.token("testNotification"))
        let decoded = try result.get()
        #expect(decoded.notification.notificationType == .test)
        #expect(decoded.notification.data?.bundleId == "com.example")
        #expect(decoded.notification.signedDateTimestamp?.millisecondsSince1970 == 1_681_314_324_000)
    }

    @Test("the renewal info verifies in Sandbox")
    func renewalInfo() throws {
        let result = try AppleTestData.verifier().verifyAndDecodeRenewalInfo(try AppleTestData.token("renewalInfo"))
        #expect(result.isVerified, "\(String(describing: result.error))")
        #expect(result.payload?.environment == .sandbox)
    }

    @Test("the bundled Apple Root CA - G3 has Apple's published fingerprint")
    func bundledRootFingerprint() throws {
        #expect(SHA256.hash(AppleRootCertificate.rootCAG3).hexString == AppleRootCertificate.rootCAG3SHA256)
        #expect(
            AppleRootCertificate.rootCAG3SHA256 == "63343ABFB89A6A03EBB57E9B3F5FA7BE7C4F5C756F3017B3A8C488C3653E9179")
        #expect(AppleRootCertificate.rootCAG3 == (try TestVectorFiles.data("apple-roots/AppleRootCA-G3.cer")))
        let info = try #require(CertificateInfo(derOrPEM: AppleRootCertificate.rootCAG3))
        #expect(info.subjectCommonName == "Apple Root CA - G3")
        #expect(info.keyType == "EC P-384")
    }

    @Test("Production without an app Apple id is refused at configuration")
    func productionNeedsAppAppleId() throws {
        #expect {
            _ = try SignedDataVerifier(bundleId: "com.example", appAppleId: nil, environment: .production)
        } throws: { error in
            (error as? VerificationError)?.code == .invalidConfiguration
        }
    }
}

/// The chain cache: a second token with the same chain skips the chain work; a validation time
/// outside the cached interval is still rejected.
@Suite("Chain cache")
struct ChainCacheTests {
    @Test("a second token with the same chain is a cache hit")
    func secondTokenHits() throws {
        let verifier = try AppleTestData.verifier()
        #expect(verifier.verifyAndDecodeTransaction(try AppleTestData.token("transactionInfo")).isVerified)
        #expect(verifier.chainCacheStatistics.count == 1)
        #expect(verifier.chainCacheStatistics.hits == 0)
        // testNotification has the same x5c as transactionInfo.
        #expect(verifier.verifyAndDecodeNotification(try AppleTestData.token("testNotification")).isVerified)
        #expect(verifier.chainCacheStatistics.hits == 1)
        #expect(verifier.chainCacheStatistics.count == 1)
    }

    /// Input: renewalInfo (signed 2023) caches its chain, valid until 2033; wrongBundleId has the same
    /// chain and no signedDate, so it is validated at the clock's time, 2040.
    /// Expected: `certificateExpired`, not a stale cache hit.
    @Test("a cached chain is not used outside its validity")
    func cacheRespectsValidity() throws {
        let verifier = try SignedDataVerifier(
            rootCertificates: [try AppleTestData.testCA], bundleId: "com.example.wrong", environment: .sandbox,
            clock: { Date(timeIntervalSince1970: 2_208_988_800) })  // 2040-01-01
        #expect(verifier.verifyAndDecodeRenewalInfo(try AppleTestData.token("renewalInfo")).isVerified)
        let result = verifier.verifyAndDecodeNotification(try AppleTestData.token("wrongBundleId"))
        #expect(result.error?.code == .certificateExpired)
        #expect(result.error?.check == .chain)
    }

    @Test("a disabled cache stores nothing")
    func disabledCache() throws {
        let verifier = try AppleTestData.verifier(cacheCapacity: 0)
        for _ in 0..<3 {
            #expect(verifier.verifyAndDecodeTransaction(try AppleTestData.token("transactionInfo")).isVerified)
        }
        #expect(verifier.chainCacheStatistics.count == 0)
        #expect(verifier.chainCacheStatistics.hits == 0)
    }
}
