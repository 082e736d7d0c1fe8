import Dispatch
import Foundation
import Testing

@testable import JWSVerify

/// One receipt verifier shared by many threads answers every receipt as a verifier used by one thread does.
/// Run under ThreadSanitizer: `swift test --sanitize=thread --filter ReceiptConcurrency`.
@Suite("Receipt concurrency: one verifier, many threads")
struct ReceiptConcurrencyTests {
    /// Input: every crafted receipt (good ones of five envelopes that compete for the cache, and one or more per
    /// failure of the contract), verified 400 times from `DispatchQueue.concurrentPerform` through one verifier
    /// remembering two chains and through one remembering 64. Expected: every outcome (code, check, every
    /// report step, payload, chain) equals the one a cold verifier gave the same receipt on one thread; the
    /// small cache stays within its capacity; both caches answered.
    @Test("a shared verifier gives every thread the one-thread verdict", arguments: [2, 64])
    func sharedVerifier(capacity: Int) throws {
        let receipts = try CraftedReceipts.all.get().filter { $0.appAppleId == nil && $0.environments == [.production] }
        let reference = try ReceiptVerifiers.make(capacity: 0)
        let expected = receipts.map { $0.outcome(reference) }
        #expect(expected.contains { $0.code == nil } && expected.contains { $0.code != nil })

        let shared = try ReceiptVerifiers.make(capacity: capacity)
        let iterations = 400
        let mismatches = ReadWriteLocked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: iterations) { iteration in
            let index = (iteration &* 7919) % receipts.count
            let observed = receipts[index].outcome(shared)
            if observed != expected[index] {
                mismatches.write { $0.append("\(receipts[index].id): \(observed) != \(expected[index])") }
            }
        }
        let found = mismatches.read { $0 }
        #expect(found.isEmpty, "\(found.count) verdicts differ from one thread's: \(found.prefix(5))")
        let statistics = shared.cacheStatistics
        #expect(statistics.count <= capacity, "the cache grew past its capacity")
        #expect(statistics.hits > 0, "the cache never answered")
    }
}
