import JWSVerify

/// What the CLI adds to the library's ``SignedDataOutcome``: the exit status and the text lines of the verdict.
extension SignedDataOutcome {
    /// The exit status this outcome asks for.
    var exitCode: Int32 {
        if verified { return ExitCode.verified }
        return error?.isRetryable == true ? ExitCode.retryable : ExitCode.notVerified
    }

    /// `VERIFIED` or `NOT VERIFIED: <code> (<check>): <message>`.
    var verdict: String {
        guard let error, !verified else { return "VERIFIED" }
        return "NOT VERIFIED: \(error.code.rawValue) (\(error.check.rawValue)): \(error.message)"
    }

    /// The text lines of the hints and the validation time, after the verdict.
    var hintLines: [String] {
        hints.map { "  hint: \($0)" }
            + (validationTime.map {
                ["  validated at: \(ISO8601Text.iso8601($0))" + (validationTimeNote.map { " (\($0))" } ?? "")]
            } ?? [])
    }

    /// The text of the `CHECKS` table, after a blank line: outcome, name and detail of each step, aligned.
    var checkLines: [String] {
        let width = checks.map(\.name.count).max() ?? 0
        func pad(_ text: String, _ width: Int) -> String {
            text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
        }
        return ["", "CHECKS"] + checks.map { "  " + pad($0.outcome, 7) + "  " + pad($0.name, width) + "  " + $0.detail }
    }

    /// Adds the advice of the CLI's flags, here and in nested tokens: a failure's hint (`hint`), and the note on a
    /// validation time taken from the clock, naming `--at`.
    mutating func advise(_ hint: (SignedDataOutcome, VerificationError) -> String?) {
        if let error { hints = hint(self, error).map { [$0] } ?? [] }
        validationTimeNote = validatedWithoutSignedDate ? FlagAdvice.withoutSignedDate(form, kind: kind) : nil
        for index in nested.indices { nested[index].outcome.advise(hint) }
    }
}
