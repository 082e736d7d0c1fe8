import Foundation
import JWSVerify

extension Subcommand {
    /// `jwsverify [verify]`, the default subcommand.
    static let verify = Subcommand(path: "verify")
}

/// The `--at` option: when the certificates must be valid.
enum ValidationTimeOption: Equatable, Sendable {
    /// The payload's signed date (`--at signed`, the default).
    case signed
    /// The current time (`--at now`).
    case now
    /// A fixed instant (`--at 2023-01-05T21:22:34Z`).
    case fixed(Date)

    /// The library's equivalent.
    var validationTime: ValidationTime {
        switch self {
        case .signed: return .signedDate
        case .now: return .current
        case .fixed(let date): return .fixed(date)
        }
    }
}

/// The options of `verify`, `batch`, `receipt` and `inspect`, exactly as given on the command line (``report`` and
/// ``fields`` are `batch`'s own, ``deviceIdentifier`` `receipt`'s).
struct VerifyOptions: Equatable, Sendable {
    /// The input file, or standard input.
    var input: InputSource = .standardInput
    /// `verify`'s FILE arguments after the first, each verified and reported in turn.
    var otherInputs: [InputSource] = []
    /// `--root` files, in order; empty means the bundled root of what is verified.
    var roots: [String] = []
    /// `--bundle-id`.
    var bundleId: String?
    /// `--app-apple-id`.
    var appAppleId: Int64?
    /// `--environment`, each given once, in canonical spelling; empty when not configured.
    var environments: [AppStoreEnvironment] = []
    /// `--xcode-certificate`.
    var xcodeCertificate: String?
    /// `--at`.
    var at: ValidationTimeOption = .signed
    /// `--online`.
    var online = false
    /// `--kind`; nil for `auto`.
    var kind: PayloadKind?
    /// `--json`.
    var json = false
    /// `-q`, `--quiet`.
    var quiet = false
    /// `batch --report`: compact result lines or the full verification object.
    var report: BatchReport = .compact
    /// `batch --progress`: a progress line every few seconds on standard error that is not a terminal.
    var progress = false
    /// `batch --fields`: the top-level fields each result line keeps; nil keeps every one.
    var fields: Set<String>?
    /// `receipt --device-guid`: the device identifier's bytes.
    var deviceIdentifier: [UInt8]?

    /// The only `--environment`, or nil when none or several were given.
    var environment: AppStoreEnvironment? {
        get { environments.count == 1 ? environments[0] : nil }
        set { environments = newValue.map { [$0] } ?? [] }
    }
}

/// `jwsverify [verify]`: verifies tokens, one per file, and explains every check.
enum VerifyCommand {
    // MARK: Options

    /// The values `--kind` accepts: `auto` or a payload kind.
    static let kindValues = ["auto"] + PayloadKind.allCases.map(\.rawValue)
    /// `--root`, `--bundle-id`, `--app-apple-id`, `--environment`, `--xcode-certificate`, `--at`.
    static let trust = TrustOptionGroup(
        TrustOptionHelp(
            rootDefault: "the bundled Apple Root CA - G3", bundleId: "The bundle id the payload must carry.",
            appAppleId: { environment in
                "The app's Apple id, checked in Production; required with"
                    + " '\(environment) \(AppStoreEnvironment.production.rawValue)'."
            },
            environmentValues: [.sandbox, .production, .xcode, .localTesting],
            environment: " Repeat for several: '--environment Production --environment Sandbox' verifies tokens of"
                + " both, each with the claims of the environment it names (the app Apple id only in Production)."
                + " LocalTesting tokens are signed by nobody: they are decoded and reported NOT VERIFIED.",
            environmentDefault: "not configured; the environment is taken from the payload",
            xcodeCertificate: { environment in
                "The StoreKit Testing certificate exported from Xcode, for"
                    + " '\(environment) \(AppStoreEnvironment.xcode.rawValue)'."
            },
            at: "When the certificates must be valid: signed, now, or an ISO 8601 date-time."))

    static let online = OptionDeclaration<VerifyOptions>.flag(
        "--online",
        help: "Check revocation with OCSP, at the current time; cannot be combined with '\(trust.at.name)'.",
        \.online)

    static let kind = OptionDeclaration<VerifyOptions>.kind(
        values: kindValues, defaultValue: "auto", parse: payloadKind, \.kind)

    static let json = OptionDeclaration<VerifyOptions>.json(
        help: "Print one JSON object (schemaVersion 1), on success and on failure.", \.json)

    /// `-q`, `--quiet`.
    static let quiet = OptionDeclaration<VerifyOptions>.quiet(\.quiet)

    /// The options of `verify`, in help order (`batch` takes the same, with its own `--json` and `--quiet` help).
    static let declarations = trust.declarations + [online, kind, json, quiet]

    /// The payload kind a `--kind` value names (`.some(nil)` for `auto`), nil for any other value.
    @Sendable static func payloadKind(_ string: String) -> PayloadKind?? {
        guard kindValues.contains(string) else { return nil }
        return .some(PayloadKind(rawValue: string))
    }

    // MARK: Definition

    /// The FILE argument of `verify` and `inspect`.
    static let fileArgument = ArgumentDeclaration.file(
        help: "The file holding the token; '-' or none reads standard input. Surrounding whitespace is ignored.")

    /// `verify`'s FILE arguments: several may be given.
    static let filesArgument = ArgumentDeclaration(
        label: "<file> ...",
        help: fileArgument.help + " With several files each gets its report, headed '==> FILE <==' (with"
            + " '\(json.name)': one JSON array of the objects, each with its 'file'), and the exit status is the worst"
            + " of theirs: 66 (a file unreadable), then 1, then 75, then 0.")

    /// `verify` in ``CommandRegistry``.
    static let definition = CommandDefinition(
        .verify, summary: "Verify tokens, one per file, and explain every check.",
        help: HelpContent(
            overview: "Verify an App Store signed JWS token locally and explain every check.",
            discussion: "Checks the x5c certificate chain, the ES256 signature, the payload and the app claims of"
                + " StoreKit 2 transactions, renewal infos, app transactions, App Store Server Notifications V2 and"
                + " Retention Messaging realtime requests, without sending the token anywhere.",
            argument: filesArgument, exitCodes: ExitCode.table.map { ($0.code, $0.meaning) }),
        options: declarations,
        parse: { parse($0, subcommand: .verify, declarations: declarations).map(Command.verify) },
        execute: { command, io in
            guard case .verify(let options) = command else { return nil }
            io.hintWhenReadingATerminal(options.input, quiet: options.quiet)
            return io.emit(run(options))
        })

    /// Parses the arguments of `verify`, `batch` or `receipt`.
    ///
    /// - Parameters:
    ///   - arguments: The arguments after the subcommand's words.
    ///   - subcommand: `verify`, `batch` or `receipt`, for usage errors.
    ///   - declarations: That subcommand's declarations of the verify options.
    /// - Returns: the options, or the usage error: a bad option (see ``CommandLineGrammar``), `--online`
    ///   with `--at`, `--xcode-certificate` without `--environment Xcode`, or a second FILE.
    static func parse(
        _ arguments: ArraySlice<String>, subcommand: Subcommand, declarations: [OptionDeclaration<VerifyOptions>]
    ) -> Result<VerifyOptions, UsageError> {
        CommandLineGrammar.parseOptions(
            arguments, declarations: declarations, into: VerifyOptions(), subcommand: subcommand
        ).flatMap { parsed in
            if parsed.options.online && parsed.gave(trust.at) {
                return .failure(
                    UsageError(
                        message:
                            "'\(online.name)' cannot be combined with '\(trust.at.name)': online checks validate at"
                            + " the current time", subcommand: subcommand))
            }
            if parsed.options.environments.count > 1 && parsed.options.environments.contains(.localTesting) {
                return .failure(
                    UsageError(
                        message: "'\(trust.environment.name) \(AppStoreEnvironment.localTesting.rawValue)' cannot be"
                            + " combined with another '\(trust.environment.name)': LocalTesting tokens are only decoded",
                        subcommand: subcommand))
            }
            if let conflict = trust.conflict(parsed.options, subcommand: subcommand) { return .failure(conflict) }
            var parsed = parsed
            let others = subcommand == .verify ? parsed.positionals.dropFirst(1) : []
            parsed.positionals.removeLast(others.count)
            return parsed.input().map { input in
                var options = parsed.options
                options.input = input
                options.otherInputs = others.map {
                    $0 == CommandLineGrammar.standardInputName ? .standardInput : .file($0)
                }
                return options
            }
        }
    }

    // MARK: Run

    /// The statuses of files verified together, worst first: the status of the run is the first that one file had.
    static let worstFirst = [ExitCode.noInput, ExitCode.notVerified, ExitCode.retryable, ExitCode.verified]

    /// Runs `verify`: configures the verifier (exit 64 when the configuration is refused), then reads, verifies and
    /// renders each file (``run(_:input:runner:)``); several files' reports are headed by their names (text) or
    /// gathered in one JSON array, and the status is the worst: 66, then 1, then 75, then 0.
    static func run(_ options: VerifyOptions) -> CommandResult {
        let runner: VerificationRunner
        switch VerificationRunner.make(
            options, forms: .tokens, subcommand: .verify, annotate: !options.json, showsUndecodedDetails: true)
        {
        case .failure(let result): return result
        case .success(let value): runner = value
        }
        guard !options.otherInputs.isEmpty else { return run(options, input: options.input, runner: runner).result }
        var combined = CommandResult(status: ExitCode.verified)
        var documents: [JSONValue] = []
        for input in [options.input] + options.otherInputs {
            let (result, outcome) = run(options, input: input, runner: runner)
            let name: String
            if case .file(let path) = input { name = path } else { name = "-" }
            if options.json, case .object(var members)? = outcome.map({ $0.jsonDocument(includeDER: true) }) {
                members["file"] = .string(name)
                documents.append(.object(members))
            }
            if !options.json, !options.quiet {
                combined.stdout += "==> \(FlagAdvice.quotedPath(name)) <==\n" + result.stdout
            }
            combined.stderr += result.stderr
            combined.status = worstFirst.first { $0 == combined.status || $0 == result.status } ?? result.status
        }
        if options.json, !options.quiet { combined.stdout = JSONWriter.write(.array(documents), pretty: true) + "\n" }
        return combined
    }

    /// Reads, verifies and renders one file (exit 66 when it holds no token); also returns the outcome, if one.
    static func run(
        _ options: VerifyOptions, input: InputSource, runner: VerificationRunner
    ) -> (result: CommandResult, outcome: SignedDataOutcome?) {
        let whole: WholeInput
        switch WholeInput.read(input, what: "token") {
        case .failure(let failure): return (.inputFailure(failure), nil)
        case .success(let value): whole = value
        }
        var outcome: SignedDataOutcome
        switch whole.token {
        case .failure(let unreadable): outcome = .unreadable(.token, unreadable.message)
        case .success(let token): outcome = runner.run(token)
        }
        if outcome.error?.code == .malformedToken, whole.recognizedReceipt != nil {
            outcome.hints.append(FlagAdvice.receiptGivenToVerify)
        }
        if options.quiet { return (CommandResult(status: outcome.exitCode), outcome) }
        let text =
            options.json
            ? outcome.jsonText(pretty: true, includeDER: true) : TextRenderer.render(outcome)
        return (CommandResult(stdout: text, status: outcome.exitCode), outcome)
    }
}
