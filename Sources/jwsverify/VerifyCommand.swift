import Foundation
import JWSVerify

/// `jwsverify [verify]`: verifies one token and explains every check.
enum VerifyCommand {
    /// Runs `verify`: configures the verifier (exit 64 when the library refuses the configuration),
    /// reads the token (exit 66 when there is none), verifies it and renders the outcome.
    static func run(_ options: VerifyOptions) -> CommandResult {
        let runner: VerificationRunner
        switch makeRunner(options, subcommand: .verify, annotate: !options.json, showsUndecodedDetails: true) {
        case .failure(let result): return result
        case .success(let value): runner = value
        }
        let outcome: TokenOutcome
        switch TokenInput.read(options.input) {
        case .failure(let failure): return .inputFailure(failure)
        case .success(.oversized(let message)): outcome = .unreadableToken(message)
        case .success(.token(let token)): outcome = runner.run(token)
        }
        if options.quiet { return CommandResult(status: outcome.exitCode) }
        let text =
            options.json
            ? JSONRenderer.render(outcome, pretty: true, includeDER: true) : TextRenderer.render(outcome)
        return CommandResult(stdout: text, status: outcome.exitCode)
    }

    /// Reads the certificate files and configures the library's verifier.
    ///
    /// - Returns: the runner, or the result to exit with: 66 when a file cannot be read, 64 with the
    ///   library's message when it refuses the configuration (``VerificationError/Code/invalidConfiguration``).
    static func makeRunner(
        _ options: VerifyOptions, subcommand: Subcommand, annotate: Bool, showsUndecodedDetails: Bool
    ) -> Result<VerificationRunner, CommandResult> {
        var roots: [VerificationRunner.RootFile] = []
        for path in options.roots {
            switch TokenInput.readCertificate(path, option: "--root") {
            case .failure(let failure): return .failure(.inputFailure(failure))
            case .success(let data): roots.append(.init(path: path, contents: data))
            }
        }
        var xcodeCertificate: Data?
        if let path = options.xcodeCertificate {
            switch TokenInput.readCertificate(path, option: "--xcode-certificate") {
            case .failure(let failure): return .failure(.inputFailure(failure))
            case .success(let data): xcodeCertificate = data
            }
        }
        return VerificationRunner.make(
            options: options, roots: roots, xcodeCertificate: xcodeCertificate, annotate: annotate,
            showsUndecodedDetails: showsUndecodedDetails
        )
        .mapError { error in
            .usage(UsageError(message: "\(error.message) (\(error.code.rawValue))", subcommand: subcommand))
        }
    }
}
