/// The exit statuses of `jwsverify`, named after the `sysexits.h` codes where one fits.
///
/// Listed in `--help` and in `Docs/CLI.md`. Scripts branch on them, so they never change.
enum ExitCode {
    /// The token verified (`batch`: every token verified; `inspect`: the token decoded).
    static let verified: Int32 = 0
    /// The token did not verify (`batch`: at least one did not; `inspect`: the token did not decode).
    static let notVerified: Int32 = 1
    /// A usage error: a bad option or value, or a verifier configuration the library refuses (`EX_USAGE`).
    static let usage: Int32 = 64
    /// The input (token file, standard input, `--root` or `--xcode-certificate` file) is missing,
    /// unreadable or empty (`EX_NOINPUT`).
    static let noInput: Int32 = 66
    /// A retryable failure: the revocation status could not be learned; try again later (`EX_TEMPFAIL`).
    static let retryable: Int32 = 75

    /// Every code with its constant name and a one-line meaning, in the order `--help` lists them.
    static let table: [(code: Int32, name: String, meaning: String)] = [
        (verified, "verified", "Verified (several files or batch: every one; inspect: decoded)."),
        (notVerified, "notVerified", "Not verified (several files or batch: at least one)."),
        (usage, "usage", "Usage error, or a configuration the verifier refuses."),
        (noInput, "noInput", "Input missing, unreadable or empty."),
        (retryable, "retryable", "Retryable failure (revocation status unavailable)."),
    ]

    /// The `--help` label of a code: `64 usage`.
    static func label(_ code: Int32) -> String {
        "\(code) " + (table.first { $0.code == code }?.name ?? "")
    }
}
