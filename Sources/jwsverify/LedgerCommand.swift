import Foundation
import JWSVerify
import PurchaseLedger
import PurchaseLedgerPostgreSQL

extension Subcommand {
    /// `jwsverify ledger`, the group of `ledger import`, `ledger entitlements` and `ledger rebuild`.
    static let ledger = Subcommand(path: "ledger")
    static let ledgerImport = Subcommand(path: "ledger import")
    static let ledgerEntitlements = Subcommand(path: "ledger entitlements")
    static let ledgerRebuild = Subcommand(path: "ledger rebuild")
    static let ledgerReconcile = Subcommand(path: "ledger reconcile")
}

/// The options of the `ledger` subcommands, exactly as given on the command line.
struct LedgerOptions: Equatable, Sendable {
    /// `--store`.
    var store = ""
    /// `import`: verify's trust options and the FILE (`trust.input`).
    var trust = VerifyOptions()
    /// `entitlements`: `--app-account-token` or `--original-transaction-id`.
    var query: EntitlementQuery?
    /// `entitlements --at`: T in milliseconds; nil for now.
    var at: Double?
    /// `entitlements --environment`.
    var environment: AppStoreEnvironment?
    /// `reconcile`: the App Store Server API's key, server and verifier (`api`'s options).
    var api = ApiOptions()
    /// `reconcile --audit`: how many subscriptions to audit.
    var audit: Int?
    /// `--json`, `-q`, `import --progress`, `rebuild --check`.
    var json = false, quiet = false, progress = false, check = false
}

/// `jwsverify ledger …`: the purchase ledger (`PurchaseLedger`) from the shell. The subcommands parse, call the
/// library and print what it returns.
enum LedgerCommand {
    typealias Declaration = OptionDeclaration<LedgerOptions>

    static let store = Declaration.value(
        "--store", label: "<store>",
        help: "The ledger: sqlite:PATH (import creates a missing file) or a postgresql:// URL.", required: true
    ) { options, string throws(InvalidValue) in
        guard string.hasPrefix("sqlite:") || string.hasPrefix("postgresql://") || string.hasPrefix("postgres://")
        else { throw InvalidValue(hint: ". Please provide sqlite:PATH or a postgresql:// URL.") }
        options.store = string
    }
    static let json = Declaration.json(help: "Print one JSON object.", \.json)
    static let quiet = Declaration.quiet(\.quiet)

    /// Verify's trust options, worded for the ledger, setting `trust`.
    static let trust = TrustOptionGroup(
        TrustOptionHelp(
            rootDefault: "the bundled Apple Root CA - G3",
            bundleId: "Your app's bundle id (required): every item must carry it.", bundleIdDefault: nil,
            appAppleId: { environment in
                "Your app's Apple id; required with '\(environment) \(AppStoreEnvironment.production.rawValue)'."
            },
            environmentValues: [.sandbox, .production, .xcode],
            environment: " Repeat for several: '--environment Production --environment Sandbox' keeps items of both,"
                + " apart.", environmentDefault: "any; each item's own is kept",
            xcodeCertificate: { environment in
                "The StoreKit Testing certificate, for '\(environment) \(AppStoreEnvironment.xcode.rawValue)'."
            },
            at: "When the certificates must be valid: signed, now, or an ISO 8601 date-time."))
    static let progress = Declaration.flag(
        OptionName.progress, help: "A line on standard error after each group of lines commits.", \.progress)
    static let accountToken = Declaration.value(
        OptionName.appAccountToken, label: "<uuid>",
        help: "The account: every purchase that carries this appAccountToken."
    ) { options, string throws(InvalidValue) in
        guard UUID(uuidString: string) != nil else { throw InvalidValue(hint: ". Please provide a UUID.") }
        options.query = .appAccountToken(string)
    }
    static let originalId = Declaration.value(
        "--original-transaction-id", label: "<id>", help: "One purchase, by its originalTransactionId."
    ) { options, string throws(InvalidValue) in
        options.query = .originalTransactionId(try OptionValue.nonEmpty(string))
    }
    static let at = Declaration.value(
        OptionName.at, label: "<time>", help: "T: milliseconds since 1970, or an ISO 8601 date-time.",
        defaultValue: "now"
    ) { options, string throws(InvalidValue) in
        if let milliseconds = Int64(string) {
            options.at = Double(milliseconds)
        } else if case .fixed(let date)? = Arguments.parseTime(string) {
            options.at = (date.timeIntervalSince1970 * 1000).rounded()
        } else {
            throw InvalidValue(
                hint: ". Please provide milliseconds or an ISO 8601 date-time such as 2026-01-05T21:22:34Z.")
        }
    }
    static let environment = Declaration.environment(
        values: ["Sandbox", "Production", "Xcode"], help: " Only this environment's purchases.",
        defaultValue: "every environment's"
    ) { options, canonical in options.environment = AppStoreEnvironment(rawValue: canonical) }
    static let check = Declaration.flag(
        "--check", help: "Compare only: leave the stored state as it is, exit 1 when it differs.", \.check)

    /// `api`'s options: key, issuer, server, and the verifier of the items (`--bundle-id` required).
    static let api = [
        ApiCommand.key, ApiCommand.keyId, ApiCommand.issuerId, ApiCommand.bundleId, ApiCommand.environment,
        ApiCommand.root, ApiCommand.appAppleId, ApiCommand.baseURL,
        ApiCommand.start.withHelp(
            "Where the first run starts (default: as far back as Apple keeps: 180 days, Sandbox 30); later runs continue from"
                + " the saved position."),
    ].map { $0.lifted(\LedgerOptions.api) }
    static let audit = Declaration.value(
        "--audit", label: "<n>",
        help: "Then ask Get All Subscription Statuses about n of the ledger's subscriptions, picked at random, and"
            + " report where Apple's status and the ledger's differ (1 to 10000)."
    ) { options, string throws(InvalidValue) in
        guard let count = Int(string), (1...10_000).contains(count) else {
            throw InvalidValue(hint: ". Please provide a number from 1 to 10000.")
        }
        options.audit = count
    }

    static let importDeclarations =
        [store] + trust.declarations.map { $0.lifted(\LedgerOptions.trust) } + [
            progress, json, quiet,
        ]
    static let entitlementsDeclarations = [store, accountToken, originalId, at, environment, json]
    static let rebuildDeclarations = [store, check, json]
    static let reconcileDeclarations = [store] + api + [originalId, audit, json, quiet]

    static let exitCodes: [(code: Int32, meaning: String)] = [
        (ExitCode.verified, "Done."),
        (
            ExitCode.notVerified,
            "import, reconcile: an item was refused; rebuild --check, reconcile --audit: a difference; reconcile: the"
                + " API answered an error."
        ),
        (ExitCode.usage, "Usage error."),
        (
            ExitCode.noInput,
            "Input or key unreadable, or the store cannot be opened, is newer than this version, or failed."
        ),
        (
            ExitCode.retryable,
            "The store or the API is unavailable (busy, connection lost): nothing half-written, run again."
        ),
    ]

    // MARK: Definitions

    static let definition = CommandDefinition(
        .ledger, summary: "Keep verified purchases and answer who is entitled.",
        help: HelpContent(
            overview: "The purchase ledger: verified App Store items in, exactly-once state and entitlements out.",
            discussion: "'ledger import' verifies and appends stored tokens and notification bodies; 'ledger"
                + " entitlements' answers who is entitled at a time, and why; 'ledger reconcile' fetches what the App"
                + " Store Server API holds; 'ledger rebuild' folds the log again."
                + " The store is an SQLite file or a PostgreSQL database.", argument: nil, exitCodes: []),
        options: [OptionDeclaration<Never>](),
        parse: { group($0) }, execute: { _, _ in nil })

    static let importDefinition = CommandDefinition(
        .ledgerImport, summary: "Verify and append a file of tokens or notification bodies.",
        help: HelpContent(
            overview: "Verify each line of a file and append what verified to the ledger, exactly once.",
            discussion: "Lines in batch's token shapes: a bare token, {\"token\": ...}, or Apple's notification body"
                + " {\"signedPayload\": ...}. A notification is stored with its nested tokens in one transaction;"
                + " the same notification (notificationUUID) or token again is counted as a duplicate. Refused lines"
                + " are listed on standard error with their codes. Safe to run again after an interruption.",
            argument: ArgumentDeclaration.file(help: "The file; '-' or none reads standard input."),
            exitCodes: exitCodes),
        options: importDeclarations,
        parse: { arguments in
            parse(arguments, .ledgerImport, importDeclarations).flatMap { parsed in
                if let conflict = trust.conflict(parsed.options.trust, subcommand: .ledgerImport) {
                    return .failure(conflict)
                }
                return parsed.input().map { input in
                    var options = parsed.options
                    options.trust.input = input
                    return .ledgerImport(options)
                }
            }
        },
        execute: { command, io in
            guard case .ledgerImport(let options) = command else { return nil }
            return LedgerRunner.runImport(options, io: io.quieted(options.quiet))
        })

    static let entitlementsDefinition = CommandDefinition(
        .ledgerEntitlements, summary: "Who is entitled at a time, and why.",
        help: HelpContent(
            overview: "The entitlements of an account or a purchase at a time, one per originalTransactionId.",
            discussion: "Status as Apple's Get All Subscription Statuses means it: active, expired, billingRetry,"
                + " gracePeriod or revoked; entitled when active or in a grace period. At a past time the ledger"
                + " evaluates what it holds now. Consumables are not entitlements.", argument: nil,
            exitCodes: exitCodes),
        options: entitlementsDeclarations,
        parse: { arguments in
            parseOptionsOnly(arguments, .ledgerEntitlements, entitlementsDeclarations).flatMap { parsed in
                guard parsed.gave(accountToken) != parsed.gave(originalId) else {
                    return .failure(
                        UsageError(
                            message: "Give one of '\(accountToken.name)' and '\(originalId.name)'",
                            subcommand: .ledgerEntitlements))
                }
                return .success(.ledgerEntitlements(parsed.options))
            }
        },
        execute: { command, io in
            guard case .ledgerEntitlements(let options) = command else { return nil }
            return LedgerRunner.runEntitlements(options, io: io)
        })

    static let rebuildDefinition = CommandDefinition(
        .ledgerRebuild, summary: "Fold the log again and compare with the stored state.",
        help: HelpContent(
            overview: "Rebuild the ledger's state from its log, report every difference and replace what differs.",
            discussion: "The state is a pure function of the log: a rebuild that finds a difference means the"
                + " database was changed by something other than the ledger.", argument: nil, exitCodes: exitCodes),
        options: rebuildDeclarations,
        parse: { arguments in
            parseOptionsOnly(arguments, .ledgerRebuild, rebuildDeclarations).map { .ledgerRebuild($0.options) }
        },
        execute: { command, io in
            guard case .ledgerRebuild(let options) = command else { return nil }
            return LedgerRunner.runRebuild(options, io: io)
        })

    static let reconcileDefinition = CommandDefinition(
        .ledgerReconcile, summary: "Fetch what the App Store Server API holds: missed notifications, history.",
        help: HelpContent(
            overview: "Append what the App Store Server API holds: Get Notification History from the saved position,"
                + " a purchase's Get Transaction History from its saved revision, and an audit of statuses.",
            discussion: "Every item is verified and appended like any other (source 'api'). Each page commits with"
                + " the position after it: a run that stops resumes after its last page. The first run starts at"
                + " --start (default: as far back as Apple keeps, 180 days or Sandbox's 30); later runs continue where the last"
                + " ended. With --original-transaction-id, that purchase's transaction history too.", argument: nil,
            exitCodes: exitCodes),
        options: reconcileDeclarations,
        parse: { arguments in
            parseOptionsOnly(arguments, .ledgerReconcile, reconcileDeclarations).flatMap { parsed in
                for declaration in api.prefix(4) where !parsed.gave(declaration) {
                    return .failure(
                        UsageError(message: "Missing '\(declaration.name)'", subcommand: .ledgerReconcile))
                }
                var options = parsed.options
                options.api = ApiCommand.completed(options.api)
                return .success(.ledgerReconcile(options))
            }
        },
        execute: { command, io in
            guard case .ledgerReconcile(let options) = command else { return nil }
            return LedgerRunner.runReconcile(options, io: io.quieted(options.quiet))
        })

    // MARK: Parsing

    private static func parse(
        _ arguments: ArraySlice<String>, _ subcommand: Subcommand, _ declarations: [Declaration]
    ) -> Result<ParsedOptions<LedgerOptions>, UsageError> {
        CommandLineGrammar.parseOptions(
            arguments, declarations: declarations, into: LedgerOptions(), subcommand: subcommand)
    }

    /// ``parse(_:_:_:)`` of a subcommand that takes no argument besides its options.
    private static func parseOptionsOnly(
        _ arguments: ArraySlice<String>, _ subcommand: Subcommand, _ declarations: [Declaration]
    ) -> Result<ParsedOptions<LedgerOptions>, UsageError> {
        parse(arguments, subcommand, declarations).flatMap { parsed in
            parsed.positionals.isEmpty ? .success(parsed) : .failure(unexpected(parsed.positionals[0], subcommand))
        }
    }

    private static func unexpected(_ argument: String, _ subcommand: Subcommand) -> UsageError {
        UsageError(message: "Unexpected argument '\(EscapedText.escaped(argument))'", subcommand: subcommand)
    }

    /// `ledger` followed by something that is not one of its subcommands (those are found first).
    @Sendable private static func group(_ arguments: ArraySlice<String>) -> Result<Command, UsageError> {
        guard let word = arguments.first else { return .success(.help(.ledger)) }
        if CommandLineGrammar.isOptionLike(word) {
            return .failure(CommandLineGrammar.unknownOption(CommandLineGrammar.split(word).name, subcommand: .ledger))
        }
        let expected = CommandRegistry.children(of: .ledger).map { "'\(CommandRegistry.lastWord($0.subcommand))'" }
        return .failure(
            UsageError(
                message:
                    "Unknown subcommand '\(EscapedText.escaped(word))'; expected \(OptionValue.alternatives(expected))",
                subcommand: .ledger))
    }
}
