internal import CJWSOpenSSL

/// Whether the caches may answer in this process: the C module's self-test (`fastpath/selftest.c`, once per
/// process) found OpenSSL's validity rule as expected. When it does not hold the caches are off and
/// the full path runs; the verdict is the same either way. (The leaf check's own part of the self-test
/// is enforced in `fastpath/leaf.c`, which refuses every leaf when it failed.)
enum FastPaths {
    private static let passed = Int(cjws_self_test())

    /// OpenSSL's validity rule is ``ValidityInterval``'s: the chain and intermediate caches may answer.
    static let validityRuleHolds = passed & Int(CJWS_SELF_TEST_TIME_RULE) != 0
}
