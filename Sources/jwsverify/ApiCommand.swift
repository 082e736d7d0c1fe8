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
    /// The positional ENDPOINT and ID.
    var endpoint = "", id: String?
    /// `--key`, `--key-id`, `--issuer-id`.
    var keyFile = "", keyId = "", issuerId: String?
    /// `--bundle-id`, `--environment` (default Production), `--root` and `--app-apple-id`: the verifier's.
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
    /// The endpoints that take an ID, then the others.
    static let endpoints = ["transaction", "history", "statuses", "refunds", "order", "app-transaction"]
    static let others = ["notifications", "test-notification"]

    static let key = Declaration.key(\.keyFile)
    static let keyId = Declaration.keyId(\.keyId)
    static let issuerId = Declaration.issuerId(help: "Your issuer ID (required).", \.issuerId)
    static let bundleId = Declaration.bundleId(
        help: "Your app's bundle ID (required): the token's and every item's.", defaultValue: nil, allowsEmpty: false,
        \.trust.bundleId)
    static let environment = Declaration.environment(
        values: ["Production", "Sandbox", "LocalTesting"], help: " The server called and every item's environment.",
        defaultValue: "Production"
    ) { options, canonical in options.trust.environment = AppStoreEnvironment(rawValue: canonical) }
    static let root = Declaration.root(
        help: "A trusted root certificate, DER or PEM; repeat for several.", defaultValue: "Apple Root CA - G3",
        \.trust.roots)
    static let appAppleId = Declaration.appAppleId(help: "Your app's Apple ID (Production items).", \.trust.appAppleId)
    static let baseURL = Declaration.value(
        "--base-url", label: "<url>", help: "Call this server instead (local testing, a proxy).",
        defaultValue: "the environment's"
    ) { options, string throws(InvalidValue) in
        guard let url = URL(string: string), ["http", "https"].contains(url.scheme ?? "") else {
            throw InvalidValue(hint: ". Please provide an http or https URL.")
        }
        options.baseURL = url
    }
    static let start = date("--start", "Notifications sent at or after this time (notifications).", \.start)
    static let end = date("--end", "Notifications sent before this time (notifications).", \.end)
    static let quiet = Declaration.quiet(help: "Print no lines; the summary and the exit status only.", \.quiet)

    static let declarations = [
        key, keyId, issuerId, bundleId, environment, root, appAppleId, baseURL, start, end, quiet,
    ]

    /// `--start`, `--end`: an ISO 8601 date-time.
    static func date(
        _ name: String, _ help: String, _ keyPath: WritableKeyPath<ApiOptions, Date?> & Sendable
    )
        -> Declaration
    {
        .value(name, label: "<time>", help: help) { options, string throws(InvalidValue) in
            guard case .fixed(let date)? = Arguments.parseTime(string) else {
                throw InvalidValue(hint: ". Please provide an ISO 8601 date-time such as 2023-01-05T21:22:34Z.")
            }
            options[keyPath: keyPath] = date
        }
    }

    /// `api` in ``CommandRegistry``.
    static let definition = CommandDefinition(
        .api, summary: "Call the App Store Server API and verify every signed item of its answer.",
        help: HelpContent(
            overview: "Call an App Store Server API endpoint with your In-App Purchase key and verify every signed"
                + " item of its answer; history, refunds and notifications: every page.",
            discussion: "Prints one line per signed item, batch's compact line after 'page' (from 1) and 'index';"
                + " a summary on standard error. notifications needs --start and --end; test-notification prints"
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
                guard (endpoints + others).contains(word) else {
                    return usage("Unknown endpoint '\(word)'; expected \(all)")
                }
                let count = endpoints.contains(word) ? 2 : 1
                if parsed.positionals.count < count { return usage("Missing <id> for '\(word)'") }
                if parsed.positionals.count > count {
                    return usage("Unexpected argument '\(parsed.positionals[count])'")
                }
                (options.endpoint, options.id) = (word, parsed.positionals.dropFirst().first)
                let dates = word == "notifications" ? [start.name, end.name] : []
                for name in [key.name, keyId.name, issuerId.name, bundleId.name] + dates
                where !parsed.given.contains(name) {
                    return usage("Missing '\(name)' for '\(word)'")
                }
                if word != "notifications", let name = [start.name, end.name].first(where: parsed.given.contains) {
                    return usage("'\(name)' does not apply to '\(word)'")
                }
                return .success(.api(options))
            }
    }

    /// Reads the key and roots, makes the call, prints a line per item and the summary.
    static func run(_ options: ApiOptions) -> CommandResult {
        let signingKey: ES256SigningKey
        switch SignCommand.signingKey(options.keyFile) {
        case .failure(let failure): return failure
        case .success(let key): signingKey = key
        }
        let verifier: SignedDataVerifier
        switch options.trust.configure(
            signedData: "tokens",
            { roots, xcode in
                VerificationRunner.tokenMode(options.trust, roots: roots, xcodeCertificate: xcode)
            })
        {
        case .failure(let failure): return failure.result(subcommand: .api)
        case .success(.decodeOnly(let error)): return .usage(UsageError(message: error.message, subcommand: .api))
        case .success(.verify(let configured)): verifier = configured
        }
        let environment = options.trust.environment ?? .production
        guard let url = options.baseURL ?? AppStoreServerAPIClient.baseURL(for: environment) else {
            return .usage(UsageError(message: "'\(environment.rawValue)' has no API", subcommand: .api))
        }
        let client = AppStoreServerAPIClient(
            signingKey: signingKey, keyId: options.keyId, issuerId: options.issuerId ?? "",
            bundleId: options.trust.bundleId ?? "", baseURL: url)
        let id = options.id ?? ""
        let call: APICommandCall
        switch options.endpoint {
        case "transaction": call = .transaction(id)
        case "history": call = .history(id)
        case "statuses": call = .statuses(id)
        case "refunds": call = .refunds(id)
        case "order": call = .order(id)
        case "app-transaction": call = .appTransaction(id)
        case "notifications": call = .notifications(start: options.start ?? Date(), end: options.end ?? Date())
        default: call = .testNotification
        }
        let outcome = client.verifying(with: verifier).performBlocking(call)
        var out: [UInt8] = []
        var stderr = ""
        for page in outcome.pages {
            if let mismatch = page.envelopeMismatch {
                stderr +=
                    "page \(page.number): envelope: \(mismatch.code.rawValue) (\(mismatch.check.rawValue)):"
                    + " \(EscapedText.escaped(mismatch.message))\n"
            }
            for item in page.items {
                item.writeCompactLine(pageNumber: page.number, into: &out)
                out.append(UInt8(ascii: "\n"))
            }
        }
        if let answer = outcome.answer { out += Array((answer + "\n").utf8) }
        let counts = outcome.counts
        stderr +=
            "items \(counts.items), verified \(counts.verified), failed \(counts.failed), pages \(outcome.pages.count)\n"
        var status = outcome.allVerified ? ExitCode.verified : ExitCode.notVerified
        if let error = outcome.error {
            stderr +=
                "Error: \(error.kind.rawValue)" + (error.statusCode.map { " \($0)" } ?? "")
                + (error.rawAPIError.map { " errorCode \($0)" } ?? "") + ": "
                + (error.errorMessage ?? error.message) + "\n"
            status = error.isRetryable ? ExitCode.retryable : ExitCode.notVerified
        }
        return CommandResult(stdout: String(decoding: out, as: UTF8.self), stderr: stderr, status: status)
    }
}
