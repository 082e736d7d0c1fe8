import AppStoreServerAPI
import Foundation
import JWSSigning
import JWSVerify

extension Subcommand {
    /// `jwsverify api ENDPOINT [ID]`.
    static let api = Subcommand(path: "api")
}

/// The options of `api`, exactly as given on the command line.
struct ApiOptions: Equatable, Sendable {
    /// The positional ENDPOINT and ID, with `--start` and `--end` for `notifications`.
    var call = APICommandCall.testNotification
    /// `--key`, `--key-id`, `--issuer-id`.
    var keyFile = "", keyId = "", issuerId: String?
    /// `--bundle-id`, `--environment` (by default the server's), `--root` and `--app-apple-id`: the verifier's.
    var trust = VerifyOptions()
    /// `--base-url`: instead of the environment's.
    var baseURL: URL?
    /// `--start`, `--end` (`notifications`).
    var start: Date?, end: Date?
    /// `-q`, `--quiet`.
    var quiet = false
}

/// `jwsverify api ENDPOINT [ID]`: calls the App Store Server API (`AppStoreServerAPI`) and verifies every signed item
/// of its answer, every page of a paged one.
enum ApiCommand {
    typealias Declaration = OptionDeclaration<ApiOptions>
    static let endpoints = APICommandCall.namesWithId, others = APICommandCall.namesWithoutId

    static let key = Declaration.key(\.keyFile)
    static let keyId = Declaration.keyId(\.keyId)
    static let issuerId = Declaration.issuerId(help: "Your issuer ID (required).", \.issuerId)
    static let bundleId = Declaration.bundleId(
        help: "Your app's bundle ID (required): the token's and every item's.", defaultValue: nil, allowsEmpty: false,
        \.trust.bundleId)
    static let environment = Declaration.environment(
        values: ["Production", "Sandbox", "LocalTesting"], help: " Every item's, and the server's without --base-url.",
        defaultValue: "the --base-url server's: Sandbox for Apple's sandbox URL, else Production"
    ) { options, canonical in options.trust.environment = AppStoreEnvironment(rawValue: canonical) }
    static let root = Declaration.root(
        help: "A trusted root certificate, DER or PEM; repeat for several.", defaultValue: "Apple Root CA - G3",
        \.trust.roots)
    static let appAppleId = Declaration.appAppleId(
        help: "Your app's Apple ID (Production: required).", \.trust.appAppleId)
    static let baseURL = Declaration.value(
        "--base-url", label: "<url>",
        help: "Call this server instead (local testing, a proxy): https, or http to 127.0.0.1, ::1 or localhost.",
        defaultValue: "the environment's"
    ) { options, string throws(InvalidValue) in
        guard let url = URL(string: string) else { throw InvalidValue(hint: ". Please provide an https URL.") }
        do throws(APIError) {
            try AppStoreServerAPIClient.validateBaseURL(url)
        } catch {
            throw InvalidValue(hint: ": \(error.message).")
        }
        options.baseURL = url
    }
    static let start = Declaration.mintDate(
        "--start", help: "Notifications sent at or after this time (notifications).", example: example,
        defaultValue: nil, \.start)
    static let end = Declaration.mintDate(
        "--end", help: "Notifications sent before this time (notifications).", example: example, \.end)
    static let example = "2023-01-05T21:22:34Z"
    static let quiet = Declaration.quiet(help: "Print no lines; the summary and the exit status only.", \.quiet)

    static let declarations = [
        key, keyId, issuerId, bundleId, environment, root, appAppleId, baseURL, start, end, quiet,
    ]

    /// `api` in ``CommandRegistry``.
    static let definition = CommandDefinition(
        .api, summary: "Call the App Store Server API and verify every signed item of its answer.",
        help: HelpContent(
            overview: "Call an App Store Server API endpoint with your In-App Purchase key and verify every signed"
                + " item of its answer; history, refunds and notifications: every page.",
            discussion: "Prints one line per signed item, batch's compact line after 'page' (from 1) and 'index';"
                + " a summary on standard error. notifications needs --start; test-notification prints"
                + " Apple's JSON answer (its token). An API error prints its status, code and message on standard"
                + " error.",
            argument: ArgumentDeclaration(
                label: "<endpoint> [<id>]",
                help: OptionValue.alternatives(endpoints) + " <id>, or "
                    + OptionValue.alternatives(others) + "."),
            exitCodes: [
                (ExitCode.verified, "Every item verified."),
                (ExitCode.notVerified, "An item did not verify, or the API answered an error."),
                (ExitCode.usage, "Usage error."),
                (ExitCode.noInput, "The key or a --root file is missing or unreadable."),
                (ExitCode.retryable, "The API said to retry later (429, 5xx)."),
            ]),
        options: declarations, parse: parse,
        execute: { command, io in
            guard case .api(let options) = command else { return nil }
            return io.quieted(options.quiet).emit(run(options))
        })

    /// Parses the arguments after `api`: the endpoint, its ID, and the options it needs.
    @Sendable static func parse(_ arguments: ArraySlice<String>) -> Result<Command, UsageError> {
        CommandLineGrammar.parseOptions(arguments, declarations: declarations, into: ApiOptions(), subcommand: .api)
            .flatMap { parsed -> Result<Command, UsageError> in
                func usage(_ message: String) -> Result<Command, UsageError> {
                    .failure(UsageError(message: message, subcommand: .api))
                }
                var options = parsed.options
                let all = OptionValue.alternatives((endpoints + others).map { "'\($0)'" })
                guard let word = parsed.positionals.first else { return usage("Missing <endpoint>: \(all)") }
                guard
                    let call = APICommandCall(
                        name: word, id: parsed.positionals.dropFirst().first ?? "", start: options.start ?? Date(),
                        end: options.end ?? Date())
                else { return usage("Unknown endpoint '\(word)'; expected \(all)") }
                let count = endpoints.contains(word) ? 2 : 1
                if parsed.positionals.count < count { return usage("Missing <id> for '\(word)'") }
                if parsed.positionals.count > count {
                    return usage("Unexpected argument '\(parsed.positionals[count])'")
                }
                options.call = call
                let dates = word == "notifications" ? [start.name] : []
                for name in [key.name, keyId.name, issuerId.name, bundleId.name] + dates
                where !parsed.given.contains(name) {
                    return usage("Missing '\(name)' for '\(word)'")
                }
                if word != "notifications", let name = [start.name, end.name].first(where: parsed.given.contains) {
                    return usage("'\(name)' does not apply to '\(word)'")
                }
                return .success(.api(completed(options)))
            }
    }

    /// The options with the environment every item must state: the server's unless given (as for `verify`,
    /// Production then needs `--app-apple-id`).
    static func completed(_ options: ApiOptions) -> ApiOptions {
        var options = options
        if options.trust.environments.isEmpty {
            options.trust.environment = AppStoreServerAPIClient.environment(ofBaseURL: options.baseURL)
        }
        return options
    }

    /// Reads the key and roots: the client of the server the options name, and the verifier of its items.
    static func connect(
        _ options: ApiOptions, subcommand: Subcommand
    ) -> Result<(client: AppStoreServerAPIClient, verifier: SignedDataVerifier), CommandResult> {
        let signingKey: ES256SigningKey
        switch SignCommand.signingKey(options.keyFile) {
        case .failure(let failure): return .failure(failure)
        case .success(let key): signingKey = key
        }
        let verifier: SignedDataVerifier
        let tokenMode = { VerificationRunner.tokenMode(options.trust, roots: $0, xcodeCertificate: $1) }
        switch options.trust.configure(signedData: "tokens", tokenMode) {
        case .failure(let failure): return .failure(failure.result(subcommand: subcommand))
        case .success(.decodeOnly(let error)):
            return .failure(.usage(UsageError(message: error.message, subcommand: subcommand)))
        case .success(.verify(let configured)): verifier = configured
        }
        let url = options.baseURL ?? AppStoreServerAPIClient.baseURL(for: options.trust.environment ?? .production)
        let client = AppStoreServerAPIClient(
            signingKey: signingKey, keyId: options.keyId, issuerId: options.issuerId ?? "",
            bundleId: options.trust.bundleId ?? "", baseURL: url ?? AppStoreServerAPIClient.productionURL)
        return .success((client, verifier))
    }

    /// Reads the key and roots, makes the call, prints a line per item and the summary.
    static func run(_ options: ApiOptions) -> CommandResult {
        let connection: (client: AppStoreServerAPIClient, verifier: SignedDataVerifier)
        switch connect(options, subcommand: .api) {
        case .failure(let failure): return failure
        case .success(let connected): connection = connected
        }
        let outcome = connection.client.verifying(with: connection.verifier).performBlocking(options.call)
        // A failed item outranks a retryable error: 75 ("try again later") only when all that came verified.
        let status =
            !outcome.allVerified
            ? ExitCode.notVerified
            : outcome.error.map { $0.isRetryable ? ExitCode.retryable : ExitCode.notVerified } ?? ExitCode.verified
        return CommandResult(
            stdout: String(decoding: outcome.lines, as: UTF8.self), stderr: outcome.report, status: status)
    }
}
