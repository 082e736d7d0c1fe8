import CJWSOpenSSL
import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// The C module's start-up self-test (`selftest.c`): each check holds on this machine's OpenSSL for
/// the inputs the self-test uses, and fails for inputs on which the behaviour it checks does not hold,
/// so that a fast path whose behaviour is missing would be switched off.
@Suite("Self-test of the fast paths' OpenSSL behaviour")
struct SelfTestTests {
    static func timeRule(_ seconds: [Int64]) -> Bool {
        seconds.withUnsafeBufferPointer { cjws_self_test_time_rule($0.baseAddress, $0.count) } == 1
    }

    static func newLeaf(_ leaf: [UInt8], under issuer: [UInt8]) -> Bool {
        leaf.withUnsafeBytes { leafBytes in
            issuer.withUnsafeBytes { issuerBytes in
                cjws_self_test_new_leaf(
                    leafBytes.baseAddress, leafBytes.count, issuerBytes.baseAddress, issuerBytes.count)
            }
        } == 1
    }

    static func vector(_ name: String) throws -> [UInt8] {
        Array(try TestVectorFiles.data("generated/" + name))
    }

    /// Input: the self-test's result on this machine. Expected: both behaviours hold, and the Swift
    /// side reads them (else every cache and the leaf check would be off).
    @Test("both behaviours hold here")
    func bothHold() {
        let passed = cjws_self_test()
        #expect(passed & CJWS_SELF_TEST_TIME_RULE != 0)
        #expect(passed & CJWS_SELF_TEST_NEW_LEAF != 0)
        #expect(FastPaths.validityRuleHolds)
    }

    /// Input: times from 1970 to 9999 in both encodings; then the last second of year 9999, whose next
    /// second X509_cmp_time cannot compare with; then no times. Expected: holds only for the first.
    @Test("the time rule holds where OpenSSL can compare, and not beyond")
    func timeRule() {
        #expect(Self.timeRule([1, 946_684_799, 1_780_000_000, 2_524_607_999, 2_524_608_000, 253_402_300_798]))
        #expect(!Self.timeRule([253_402_300_799]))
        #expect(!Self.timeRule([]))
    }

    /// Input: the test PKI's leaf under its intermediate (the self-test's own certificates); the same
    /// leaf under the root (which did not issue it); the intermediate as a "leaf" (a P-384 key, which
    /// the key-less parse does not build); garbage. Expected: only the first holds.
    @Test("the key-less parse and the leaf check hold for a known leaf, and only for it")
    func newLeaf() throws {
        let leaf = try Self.vector("leaf.der")
        let intermediate = try Self.vector("intermediate.der")
        let root = try Self.vector("root.der")
        #expect(Self.newLeaf(leaf, under: intermediate))
        #expect(!Self.newLeaf(leaf, under: root))
        #expect(!Self.newLeaf(intermediate, under: root))
        #expect(!Self.newLeaf([0x30, 0x03, 0x02, 0x01, 0x01], under: intermediate))
        #expect(!Self.newLeaf(leaf, under: [0x30, 0x00]))
    }
}
