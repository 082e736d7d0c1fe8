import Foundation
import Testing

@testable import JWSVerify

/// The `chains` fuzz target's generator (``ChainsDifferential``, shared with `Fuzz/` by a symbolic
/// link) over fixed seeds, so that a run without libFuzzer still checks crafted chains warm, cold
/// and against OpenSSL's `X509_verify_cert`. A broken property is recorded as an issue with the
/// seed, not a crash, so that one finding does not stop the rest of the run.
@Suite("Crafted chains: warm, cold and OpenSSL agree")
struct ChainsDifferentialTests {
    /// Input: the all-zero input, the generator's baseline (the `.appStoreEC` test hierarchy's profiles under a plain root).
    /// Expected: no broken property, and the baseline chain verifies with OpenSSL.
    @Test("the generator's baseline chain agrees everywhere")
    func baseline() {
        #expect(ChainsDifferential.violations([UInt8](repeating: 0, count: 96)) == [])
    }

    /// Input: 300 generated cases, seeds 0...299 (96 bytes each). Expected: for each, warm and cold
    /// give the same code and check, accepted tokens have chains OpenSSL accepts and valid P-256
    /// keys, and OpenSSL's rejections are the cold verifier's chain code.
    @Test("300 generated chains give one verdict warm, cold and in OpenSSL")
    func seededCases() {
        var broken = 0
        for seed in UInt64(0)..<300 {
            let violations = ChainsDifferential.violations(ChainsDifferential.seededInput(seed))
            if let first = violations.first {
                broken += 1
                if broken <= 20 {
                    Issue.record("seed \(seed): \(violations.count) broken, first: \(first)")
                }
            }
        }
        #expect(broken == 0, "\(broken) of 300 seeds broke a property")
    }
}
