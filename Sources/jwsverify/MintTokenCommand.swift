import Foundation
import JWSVerify
import JWSVerifyTesting

extension Subcommand {
    /// `jwsverify mint token`.
    static let mintToken = Subcommand(path: "mint token")
}

/// The options of `mint token`, exactly as given on the command line.
///
/// A nil field takes the library's default (``PayloadParameters``).
struct MintTokenOptions: Equatable, Sendable {
    /// `--pki`: a directory written by `mint pki`.
    var pki: String
    /// `--kind`.
    var kind: TestPayloadKind
    /// `--type`: the notification type.
    var notificationType: String?
    /// `--subtype`: the notification subtype.
    var notificationSubtype: String?
    /// `--bundle-id`.
    var bundleId: String?
    /// `--app-apple-id`.
    var appAppleId: Int64?
    /// `--environment`, canonical spelling (`Sandbox` or `Production`).
    var environment: String?
    /// `--product-id`.
    var productId: String?
    /// `--signed-date`; nil for now.
    var signedDate: Date?
    /// `--set` assignments, in order, as written (`key=value`, dotted keys for nested members).
    var assignments: [String] = []
    /// `--payload`: a JSON object file merged into the payload.
    var payloadFile: String?
    /// `--count`.
    var count = 1
    /// `--seed`: makes identifiers repeatable; nil for random.
    var seed: UInt64?
    /// `-q`, `--quiet`.
    var quiet = false

    /// The library's parameters: the given values, the library's defaults for the rest. Giving
    /// `--type` without `--subtype` means no subtype (the default subtype belongs to the default type).
    var parameters: PayloadParameters {
        var parameters = PayloadParameters(signedDate: signedDate, seed: seed)
        if let bundleId { parameters.bundleId = bundleId }
        if let appAppleId { parameters.appAppleId = appAppleId }
        if let environment { parameters.environment = environment }
        if let productId { parameters.productId = productId }
        if let notificationType {
            parameters.notificationType = notificationType
            parameters.notificationSubtype = nil
        }
        if let notificationSubtype { parameters.notificationSubtype = notificationSubtype }
        return parameters
    }
}

/// `jwsverify mint token`: signed test tokens made by ``TokenMinter`` of `JWSVerifyTesting`.
enum MintTokenCommand {
    // MARK: Options

    /// The most tokens one `mint token` run makes: the library's identifiers stay distinct up to this count.
    static let maximumCount = 100_000
    /// The library's defaults, shown in help.
    private static let defaults = PayloadParameters()

    static let pki = OptionDeclaration<MintTokenOptions>.pki(
        help: "A directory written by 'jwsverify \(Subcommand.mintPKI.path)'.", \.pki)

    static let kind = OptionDeclaration<MintTokenOptions>.kind(
        values: TestPayloadKind.allCases.map(\.rawValue), required: true, parse: TestPayloadKind.init(name:), \.kind)

    static let type = OptionDeclaration<MintTokenOptions>.value(
        "--type", label: "<type>",
        help: "The notificationType, such as DID_RENEW; '\(kind.name) \(TestPayloadKind.notification.rawValue)' only.",
        defaultValue: defaults.notificationType
    ) { options, string throws(InvalidValue) in
        guard NotificationTypeV2(rawValue: string).name != nil else {
            throw InvalidValue(
                hint: ". Please provide a notificationType Apple documents, such as 'DID_RENEW'; to send any other"
                    + " value, use '\(set.name) notificationType=\(string)'.")
        }
        options.notificationType = string
    }

    static let subtype = OptionDeclaration<MintTokenOptions>.value(
        "--subtype", label: "<subtype>", help: "The subtype, such as BILLING_RECOVERY.",
        defaultValue: "\(defaults.notificationSubtype ?? "none") with the default type, else none"
    ) { options, string throws(InvalidValue) in
        guard Subtype(rawValue: string).name != nil else {
            throw InvalidValue(
                hint: ". Please provide a subtype Apple documents, such as 'BILLING_RECOVERY'; to send any other"
                    + " value, use '\(set.name) subtype=\(string)'.")
        }
        options.notificationSubtype = string
    }

    static let bundleId = OptionDeclaration<MintTokenOptions>.bundleId(
        help: "The bundleId.", defaultValue: defaults.bundleId, allowsEmpty: false, \.bundleId)

    static let appAppleId = OptionDeclaration<MintTokenOptions>.appAppleId(
        help: "The appAppleId.", defaultValue: "\(defaults.appAppleId)", \.appAppleId)

    static let environment = OptionDeclaration<MintTokenOptions>.environment(
        values: [AppStoreEnvironment.sandbox, .production].map(\.rawValue), defaultValue: defaults.environment
    ) { options, canonical in options.environment = canonical }

    static let productId = OptionDeclaration<MintTokenOptions>.productId(
        help: "The productId.", defaultValue: defaults.productId, \.productId)

    static let signedDate = OptionDeclaration<MintTokenOptions>.mintDate(
        "--signed-date", help: "The signedDate, 'now' or an ISO 8601 date-time; the other dates follow it.",
        example: "2023-01-05T21:22:34Z", \.signedDate)

    static let set = OptionDeclaration<MintTokenOptions>.value(
        "--set", label: "<key=value>",
        help: "Set a payload field; repeat for several. The value is JSON when it parses as JSON, else a string; a"
            + " dotted key (data.status=2) sets a nested field.", repeats: true
    ) { options, string throws(InvalidValue) in
        do {
            _ = try PayloadOverrides.parsePathAssignment(string)
        } catch {
            throw InvalidValue(hint: ": \(EscapedText.escaped("\(error)")); such as quantity=2 or data.status=2.")
        }
        options.assignments.append(string)
    }

    static let payload = OptionDeclaration<MintTokenOptions>.value(
        "--payload", label: "<file>",
        help: "A JSON object merged into the payload, objects member by member, before '\(set.name)'."
    ) { options, string throws(InvalidValue) in options.payloadFile = try OptionValue.nonEmpty(string) }

    static let count = OptionDeclaration<MintTokenOptions>.value(
        "--count", label: "<n>", help: "How many distinct tokens: 1 to \(maximumCount).", defaultValue: "1"
    ) { options, string throws(InvalidValue) in options.count = try OptionValue.number(string, in: 1...maximumCount) }

    static let seed = OptionDeclaration<MintTokenOptions>.seed(help: "Makes the identifiers repeatable", \.seed)

    /// The options of `mint token`, in help order.
    static let declarations = [
        pki, kind, type, subtype, bundleId, appAppleId, environment, productId, signedDate, set, payload, count, seed,
        .quiet(\.quiet),
    ]

    // MARK: Definition

    /// `mint token` in ``CommandRegistry``.
    static let definition = CommandDefinition(
        .mintToken, summary: "Mint signed test tokens, one per line.",
        help: HelpContent(
            overview: "Mint signed test tokens that look exactly like the App Store's, one per line.",
            discussion: "Header {\"alg\":\"ES256\",\"x5c\":[leaf, intermediate, root]}, a payload with every field"
                + " Apple sends for a monthly subscription bought with an introductory offer, and an ES256 signature"
                + " by the test leaf. A notification carries a signed transaction and renewal info (an app transaction"
                + " for RESCIND_CONSENT; none for TEST, EXTERNAL_PURCHASE_TOKEN and SUMMARY) minted with the same"
                + " PKI and options. Verify with '\(HelpText.program) \(VerifyCommand.trust.root.name)"
                + " <directory>/\(TestHierarchy.FileName.rootDER)'.",
            argument: nil,
            exitCodes: [
                (ExitCode.verified, "Minted."),
                (ExitCode.notVerified, "A token could not be signed."),
                (ExitCode.usage, "Usage error."),
                (
                    ExitCode.noInput,
                    "The '\(pki.name)' directory or '\(payload.name)' file is missing, unreadable or invalid."
                ),
            ]),
        options: declarations, parse: parse,
        execute: { command, io in
            guard case .mintToken(let options) = command else { return nil }
            let io = io.quieted(options.quiet)
            return io.emit(run(options, standardOutput: io.standardOutput))
        })

    /// Parses the arguments after `mint token`.
    ///
    /// - Returns: the command, or the usage error (see ``CommandLineGrammar``; any positional; no `--pki`
    ///   or `--kind`; `--type` or `--subtype` without `--kind notification`; a subtype Apple does not document for
    ///   the type, ``NotificationTypeV2/documentedSubtypes``).
    @Sendable static func parse(_ arguments: ArraySlice<String>) -> Result<Command, UsageError> {
        CommandLineGrammar.parseOptions(
            arguments, declarations: declarations, into: MintTokenOptions(pki: "", kind: .transaction),
            subcommand: .mintToken
        )
        .flatMap { $0.optionsWithoutArguments(requiring: declarations) }
        .flatMap { options in
            if options.kind != .notification {
                for (given, option) in [(options.notificationType, type), (options.notificationSubtype, subtype)]
                where given != nil {
                    return .failure(
                        UsageError(
                            message:
                                "'\(option.name)' requires '\(kind.name) \(TestPayloadKind.notification.rawValue)'",
                            subcommand: .mintToken))
                }
            }
            let type = NotificationTypeV2(rawValue: options.parameters.notificationType)
            if let subtype = options.notificationSubtype, let documented = type.documentedSubtypes,
                !documented.contains(Subtype(rawValue: subtype))
            {
                let valid =
                    documented.isEmpty
                    ? "it takes none" : "it takes \(CommandLineGrammar.listed(documented.map(\.rawValue)))"
                return .failure(
                    UsageError(
                        message:
                            "'\(Self.subtype.name) \(subtype)' is not a subtype of \(type.rawValue): \(valid); to send"
                            + " it anyway, use '\(set.name) subtype=\(subtype)'", subcommand: .mintToken))
            }
            return .success(.mintToken(options))
        }
    }

    // MARK: Run

    /// Runs `mint token`: loads the PKI and the payload file, then mints the tokens with
    /// ``TokenMinter/mintLines(_:parameters:overrides:count:linesPerWrite:write:)``, written a few lines at a time.
    ///
    /// - Returns: exit 0 with nothing more to print; 66 when the PKI directory or the payload file cannot
    ///   be used; 1 when a token cannot be signed (the tokens before it have been written).
    static func run(_ options: MintTokenOptions, standardOutput: (String) -> Void) -> CommandResult {
        let minter: TokenMinter
        do {
            minter = try TestPKIDirectory.loadTokenMinter(from: URL(fileURLWithPath: options.pki))
        } catch {
            return .inputFailure(MintCommand.loadFailure(error, path: options.pki, receipts: false))
        }
        var merge: [String: JSONValue] = [:]
        if let path = options.payloadFile {  // one JSON object, at most 16 MiB, by the library's strict parser
            switch ByteSource.open(path: path, role: "\(payload.name) file ").flatMap({
                $0.readJSONObject(limit: 1 << 24)
            }) {
            case .failure(let failure): return .inputFailure(failure)
            case .success(let read): merge = read.members
            }
        }
        let overrides: PayloadOverrides
        do {
            overrides = try PayloadOverrides(pathAssignments: options.assignments, merge: merge)
        } catch {
            return .usage(UsageError(message: "\(error)", subcommand: .mintToken))
        }
        do {
            try minter.mintLines(
                options.kind, parameters: options.parameters, overrides: overrides, count: options.count,
                write: standardOutput)
        } catch {
            return MintCommand.failure(
                "cannot sign token \(error.index + 1) of \(options.count): \(error.underlying)")
        }
        return CommandResult(status: ExitCode.verified)
    }
}
