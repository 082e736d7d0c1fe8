import CJWSOpenSSL
import CJWSTesting
import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// The verification path when OpenSSL runs out of memory: in a process of its own (an exit test),
/// with an allocator that fails every OpenSSL allocation after the first n, for every n until a run
/// needs no more. At every point the verifier must answer (no crash, no hang), never accept a token
/// it would refuse with memory to spare (it fails closed), and verify again once memory is back.
@Suite("Out of memory in OpenSSL")
struct OutOfMemoryTests {
    /// Input: a cold verification of a good token, a new leaf under a cached intermediate, a forged
    /// leaf under it, a token with an altered signature, a fixed-base table being built, and the
    /// self-test's checks, each with OpenSSL's allocations failing after n = 0, 1, 2, ... Expected: the
    /// child process runs every point to the end and exits 0; a forged or altered token is never
    /// accepted; with allocations allowed again, every good token verifies.
    @Test("every OpenSSL allocation can fail: the verifier answers and fails closed")
    func everyAllocationCanFail() async {
        await #expect(processExitsWith: .success) {
            guard cjwst_install_failing_allocator() == 1 else { exit(3) }
            exit(OutOfMemoryRun.run())
        }
    }
}

/// The body of the exit test (a closure there may capture nothing).
enum OutOfMemoryRun {
    static let signedDate = Date(timeIntervalSince1970: 1_780_000_000)
    static let bundleId = "com.example.jwsverify"

    /// Exit status: 0 when every property held, else the number of the property that broke.
    static func run() -> Int32 {
        do {
            let pki = try TestHierarchy.generate(.appStoreEC, seed: 7)
            let parameters = PayloadParameters(bundleId: bundleId, signedDate: signedDate)
            func token(_ pki: TestHierarchy) throws -> String {
                try TokenMinter(hierarchy: pki).mint(.transaction, parameters: parameters, count: 1).last ?? ""
            }
            let good = try token(pki)
            let newLeaf = try token(pki.replacing(leaf: try pki.makeLeaf(seed: 99)))
            let forged = try token(
                pki.replacing(leaf: try pki.makeLeaf(issuer: try pki.makeIntermediate(seed: 5), seed: 6)))
            // The signature's first character changed (its bits are all used, so the token still decodes
            // and reaches the signature check, and an OpenSSL allocation is tested every time).
            let altered = CraftedToken.alteringSignature(of: good)
            let roots = [pki.root.der]
            let leafDER = Array(try TestVectorFiles.data("generated/leaf.der"))
            let intermediateDER = Array(try TestVectorFiles.data("generated/intermediate.der"))
            _ = cjws_self_test()  // once, with memory: the fast paths stay on for the run

            /// Runs `body` with allocations failing after n, for n = 0, 1, ... until a run makes no more
            /// allocations than it was allowed (it needed no more). False when `body` returned false at
            /// some point, or when it needed fewer than 10 allocations (then nothing was tested).
            func everyFailurePoint(_ body: () -> Bool) -> Bool {
                var allowed = 0
                while allowed < 20_000 {
                    cjwst_fail_allocations_after(allowed)
                    let holds = body()
                    let made = cjwst_allocations_made()
                    cjwst_fail_allocations_after(-1)
                    if !holds { return false }
                    if made <= allowed { return allowed >= 10 }
                    allowed += 1
                }
                return false
            }
            func verifier(capacity: Int) -> SignedDataVerifier? {
                try? SignedDataVerifier(
                    rootCertificates: roots, bundleId: bundleId, environment: .sandbox, chainCacheCapacity: capacity)
            }

            // 1. A cold verifier, made and used under failures: any answer but a crash.
            guard
                everyFailurePoint({
                    _ = verifier(capacity: 0)?.verifyAndDecodeTransaction(good); return true
                })
            else { return 1 }
            // 2. A warm verifier (made and primed with memory), then a new leaf under its intermediate.
            guard let warm = verifier(capacity: 64), warm.verifyAndDecodeTransaction(good).isVerified else { return 2 }
            guard
                everyFailurePoint({
                    _ = warm.verifyAndDecodeTransaction(newLeaf); return true
                })
            else { return 2 }
            // 3. Forged and altered tokens are never accepted, warm or cold, whatever fails.
            guard let cold = verifier(capacity: 0) else { return 3 }
            for verifier in [warm, cold] {
                for bad in [forged, altered] {
                    guard everyFailurePoint({ !verifier.verifyAndDecodeTransaction(bad).isVerified }) else { return 3 }
                }
            }
            // 4. A key and its fixed-base table made under failures (a failed build is not retried, so
            // each point makes a new key).
            guard
                everyFailurePoint({
                    guard let certificate = Certificate(der: leafDER), let key = certificate.publicKey else {
                        return true
                    }
                    _ = key.prepareFixedBaseTable()
                    return true
                })
            else { return 4 }
            // 5. The self-test's checks under failures: holds or not, no crash.
            guard
                everyFailurePoint({
                    _ = leafDER.withUnsafeBytes { leaf in
                        intermediateDER.withUnsafeBytes { issuer in
                            cjws_self_test_new_leaf(leaf.baseAddress, leaf.count, issuer.baseAddress, issuer.count)
                        }
                    }
                    let seconds: [Int64] = [1, 1_780_000_000, 2_524_608_000]
                    _ = seconds.withUnsafeBufferPointer { cjws_self_test_time_rule($0.baseAddress, $0.count) }
                    return true
                })
            else { return 5 }
            // 6. With memory again: good tokens verify, warm and cold, and bad ones still fail (exit status
            // 60 + 4 × verifier + token says which did not). A root first used during a failure once
            // made every later chain fail here: OpenSSL kept the failed computation of its extensions.
            for (index, verifier) in [warm, cold].enumerated() {
                for (number, (token, valid)) in [(good, true), (newLeaf, true), (forged, false), (altered, false)]
                    .enumerated()
                {
                    let result = verifier.verifyAndDecodeTransaction(token)
                    if result.isVerified != valid {
                        return 60 + Int32(index * 4 + number)
                    }
                }
            }
            return 0
        } catch {
            return 7
        }
    }
}
