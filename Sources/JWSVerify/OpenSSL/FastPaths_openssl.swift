internal import CJWSOpenSSL

/// Which fast paths may run in this process: those whose OpenSSL behaviour the C module's self-test
/// (`selftest.c`, once per process) found as expected. A fast path whose behaviour does not hold is
/// off, and the full path runs instead; the verdict is the same either way.
enum FastPaths {
    private static let passed = Int(cjws_self_test())

    /// OpenSSL's validity rule is ``ValidityInterval``'s: the chain and intermediate caches may answer.
    static let validityRuleHolds = passed & Int(CJWS_SELF_TEST_TIME_RULE) != 0

    /// The key-less parse and the leaf check behave as `leaf.c` expects: new leaves under a cached
    /// intermediate may be checked on their own.
    static let newLeafCheckHolds = passed & Int(CJWS_SELF_TEST_NEW_LEAF) != 0
}
