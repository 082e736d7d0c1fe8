import Testing

@testable import jwsverify

/// The summary and exit status of `batch`, from its tally (the retryable case needs OCSP answers the
/// binary tests cannot arrange offline).
@Suite("batch tally")
struct BatchTallyTests {
    private func line(
        _ code: String?, kind: String? = "transaction", retryable: Bool = false
    ) -> BatchCommand.LineResult {
        BatchCommand.LineResult(verified: code == nil, code: code, kind: kind, retryable: retryable)
    }

    /// All verified: 0; any permanent failure: 1; only retryable failures: 75; counts per code and kind.
    @Test("exit 0, 1 or 75 as Docs/CLI.md says, and counts per code and per kind")
    func exitCodesAndCounts() {
        var tally = BatchCommand.Tally()
        tally.add(line(nil))
        #expect(tally.exitCode == 0)
        tally.add(line("revocationUnavailable", retryable: true))
        #expect(tally.exitCode == 75)
        tally.add(line("malformedToken", kind: nil))
        #expect(tally.exitCode == 1)
        let summary = tally.summary(seconds: 1)
        #expect(summary.hasPrefix("total: 3\nverified: 1\nnot verified: 2\n"))
        #expect(
            summary.contains(
                "  malformedToken: 1\n  revocationUnavailable: 1\nkinds:\n  transaction: 2\n  unknown: 1\n"))
        #expect(summary.hasSuffix("elapsed: 1.000 s, 3 lines/s\n"))
    }
}
