import Dispatch
import Foundation
import Testing

@testable import JWSVerify

/// One verifier, shared by many threads, gives every thread the same answers as one thread does.
@Suite("Concurrent use")
struct ConcurrencyTests {
    @Test("one verifier from many threads gives the same verdicts")
    func sharedVerifier() throws {
        let verifier = try AppleTestData.verifier(cacheCapacity: 2)
        let tokens: [(String, PayloadKind)] = [
            (try AppleTestData.token("transactionInfo"), .transaction),
            (try AppleTestData.token("renewalInfo"), .renewalInfo),
            (try AppleTestData.token("testNotification"), .notification),
            (try AppleTestData.token("wrongBundleId"), .notification),
            (try AppleTestData.token("missingX5CHeaderClaim"), .notification), ("garbage", .transaction),
        ]
        let expected = tokens.map { verifier.verifyAndDecode($0.0, as: $0.1).error?.code.rawValue ?? "verified" }
        #expect(
            expected == [
                "verified", "verified", "verified", "invalidAppIdentifier", "missingCertificateChain", "malformedToken",
            ])
        let iterations = 600
        // A pthread read-write lock, not `Mutex`: ThreadSanitizer cannot see a contended `Mutex`'s hand-over
        // through the kernel and reports the state it protects (Docs/Security.md, "Sanitizers").
        let results = ReadWriteLocked<[String?]>(Array(repeating: nil, count: iterations))
        DispatchQueue.concurrentPerform(iterations: iterations) { index in
            let (token, kind) = tokens[index % tokens.count]
            let outcome = verifier.verifyAndDecode(token, as: kind).error?.code.rawValue ?? "verified"
            results.write { $0[index] = outcome }
        }
        let observed = results.read { $0 }
        for index in 0..<iterations {
            #expect(observed[index] == expected[index % tokens.count], "iteration \(index)")
        }
        // With room for two chains and two chains in use, most lookups hit.
        #expect(verifier.chainCacheStatistics.hits > iterations / 2)
    }
}
