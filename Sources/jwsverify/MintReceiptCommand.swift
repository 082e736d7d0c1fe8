import Foundation
import JWSVerify
import JWSVerifyTesting

extension Subcommand {
    /// `jwsverify mint receipt`.
    static let mintReceipt = Subcommand(path: "mint receipt")
}

/// The options of `mint receipt`, exactly as given on the command line.
struct MintReceiptOptions: Equatable, Sendable {
    /// How the receipt is written.
    enum Format: String, CaseIterable, Sendable {
        /// Standard base64 and a newline: what an app sends its server.
        case base64
        /// The receipt file's bytes, as macOS stores them.
        case der
    }

    /// `--pki`: a directory written by `mint pki --receipt`.
    var pki: String
    /// What the receipt says: `--bundle-id`, `--environment`, `--app-apple-id`, `--app-version`, `--created`,
    /// `--purchase`, `--device-guid`, `--xcode`.
    var content = TestReceiptContent()
    /// `--digest`.
    var digest: ReceiptDigest = .sha256
    /// `--format`.
    var format: Format = .base64
    /// `--out`; nil for standard output.
    var out: String?
    /// `-q`, `--quiet`.
    var quiet = false
}

/// `jwsverify mint receipt`: a signed test app receipt (StoreKit 1): ``TestReceiptContent`` of `JWSVerifyTesting`,
/// encoded by ``ReceiptContentEncoder`` and signed by the ``ReceiptSigner`` of a ``TestPKIDirectory``.
enum MintReceiptCommand {
    // MARK: Options

    /// The library's token defaults, which receipts share (bundle id, app Apple id, product id).
    private static let defaults = PayloadParameters()
    /// The most `--purchase` options one receipt takes.
    static let maximumPurchases = 1000

    static let pki = OptionDeclaration<MintReceiptOptions>.pki(
        help: "A directory written by 'jwsverify \(Subcommand.mintPKI.path) \(MintPKICommand.receipt.name)'.", \.pki)

    static let bundleId = OptionDeclaration<MintReceiptOptions>.bundleId(
        help: "The bundle id (field 2).", defaultValue: defaults.bundleId, allowsEmpty: false, \.content.bundleId)

    static let environment = OptionDeclaration<MintReceiptOptions>.environment(
        values: [AppStoreEnvironment.sandbox, .production].map(\.rawValue),
        help: " The receipt type (field 0): ProductionSandbox or Production.", defaultValue: defaults.environment
    ) { options, canonical in options.content.environment = canonical }

    static let appAppleId = OptionDeclaration<MintReceiptOptions>.appAppleId(
        help: "The app item id (field 1).",
        defaultValue: "\(defaults.appAppleId) in Production, else 0 as Apple writes", \.content.appAppleId)

    static let appVersion = OptionDeclaration<MintReceiptOptions>.value(
        "--app-version", label: "<version>", help: "The application version (field 3).",
        defaultValue: TestReceiptContent.defaultAppVersion
    ) { options, string throws(InvalidValue) in options.content.appVersion = try OptionValue.nonEmpty(string) }

    static let created = OptionDeclaration<MintReceiptOptions>.mintDate(
        "--created",
        help: "The creation date (field 12), 'now' or an ISO 8601 date-time; purchases are an hour before it. It must"
            + " fall within the PKI's validity for '--at signed' verification.", example: "2026-05-28T12:00:00Z",
        \.content.created)

    static let purchase = OptionDeclaration<MintReceiptOptions>.value(
        "--purchase", label: "<product[,transaction[,original[,expires]]]>",
        help: "An in-app purchase (field 17): its product id, then optionally its transaction id (default"
            + " \(TestReceiptContent.firstTransactionId), counting up), original transaction id (default: the transaction id) and, for a"
            + " subscription, its expiry as an ISO 8601 date-time; an empty field takes the default. Repeat for"
            + " several, at most \(maximumPurchases).", repeats: true
    ) { options, string throws(InvalidValue) in
        guard options.content.purchases.count < maximumPurchases, let purchase = parsePurchase(string) else {
            throw InvalidValue(
                hint: ". Please provide a product id, then optionally ',transaction-id', ',original-transaction-id' and"
                    + " ',expiry' (an ISO 8601 date-time), such as 'com.example.monthly,,,2026-07-01T00:00:00Z'; at"
                    + " most \(maximumPurchases) purchases.")
        }
        options.content.purchases.append(purchase)
    }

    static let deviceGuid = OptionDeclaration<MintReceiptOptions>.deviceGuid(
        help: "Bind the receipt to this device (its SHA-1 hash, field 5), in hex or as a UUID; default: a random"
            + " device.", \.content.deviceIdentifier)

    static let digest = OptionDeclaration<MintReceiptOptions>.value(
        "--digest", label: "<digest>", help: "sha256 (App Store receipts since 2023) or sha1 (before).",
        defaultValue: "sha256", allowedValues: ["sha256", "sha1"]
    ) { options, string throws(InvalidValue) in
        switch try OptionValue.caseInsensitiveChoice(string, of: ["sha256", "sha1"]) {
        case "sha1": options.digest = .sha1
        default: options.digest = .sha256
        }
    }

    static let format = OptionDeclaration<MintReceiptOptions>.value(
        "--format", label: "<format>",
        help: "base64 (what an app sends, with a newline) or der (the receipt file's bytes; BER with '--xcode').",
        defaultValue: MintReceiptOptions.Format.base64.rawValue,
        allowedValues: MintReceiptOptions.Format.allCases.map(\.rawValue)
    ) { options, string throws(InvalidValue) in
        guard let format = MintReceiptOptions.Format(rawValue: string.lowercased()) else { throw InvalidValue() }
        options.format = format
    }

    static let xcode = OptionDeclaration<MintReceiptOptions>.flag(
        "--xcode",
        help: "Xcode StoreKit Testing's shape: receipt type Xcode, BER, signed by the PKI's StoreKit Testing"
            + " certificate (\(TestHierarchy.XcodeFileName.certificateDER)) alone; cannot be combined with"
            + " '\(environment.name)'.", \.content.xcode)

    static let out = OptionDeclaration<MintReceiptOptions>.out(
        label: "<file>", help: "The file to write, replaced if it exists.", defaultValue: "standard output",
        required: false
    ) { options, path in options.out = path }

    /// The options of `mint receipt`, in help order.
    static let declarations = [
        pki, bundleId, environment, appAppleId, appVersion, created, purchase, deviceGuid, digest, format, xcode, out,
        .quiet(\.quiet),
    ]

    /// A `--purchase` value, nil when it is not one.
    static func parsePurchase(_ string: String) -> TestReceiptPurchase? {
        let fields = string.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard (1...4).contains(fields.count), !fields[0].isEmpty else { return nil }
        func field(_ index: Int) -> String? { index < fields.count && !fields[index].isEmpty ? fields[index] : nil }
        var purchase = TestReceiptPurchase(
            productId: fields[0], transactionId: field(1), originalTransactionId: field(2))
        if let expires = field(3) {
            guard case .fixed(let date)? = Arguments.parseTime(expires) else { return nil }
            purchase.expiresDate = date
        }
        return purchase
    }

    // MARK: Definition

    /// `mint receipt` in ``CommandRegistry``.
    static let definition = CommandDefinition(
        .mintReceipt, summary: "Mint a signed test app receipt (StoreKit 1).",
        help: HelpContent(
            overview: "Mint a signed test app receipt shaped like the App Store's (StoreKit 1).",
            discussion: "A CMS SignedData signed by the test PKI's receipt signing leaf (one SignerInfo, no signed"
                + " attributes, leaf, intermediate and root embedded, DER) over the receipt's attributes: receipt type,"
                + " app item id, bundle id, app version, opaque value and SHA-1 device hash, creation date, original"
                + " purchase date and version, and one in-app purchase per '\(purchase.name)'. Verify with"
                + " '\(HelpText.program) \(Subcommand.receipt.path) \(ReceiptCommand.trust.root.name)"
                + " <directory>/\(TestHierarchy.FileName.rootDER)'; an Xcode receipt with '\(ReceiptCommand.trust.environment.name)"
                + " Xcode \(ReceiptCommand.trust.xcodeCertificate.name) <directory>/\(TestHierarchy.XcodeFileName.certificateDER)'.",
            argument: nil,
            exitCodes: [
                (ExitCode.verified, "Minted."),
                (ExitCode.notVerified, "The receipt could not be signed or written."),
                (ExitCode.usage, "Usage error."),
                (ExitCode.noInput, "The '\(pki.name)' directory is missing, unreadable or invalid."),
            ]),
        options: declarations, parse: parse,
        execute: { command, io in
            guard case .mintReceipt(let options) = command else { return nil }
            if options.format == .der, options.out == nil, io.standardOutputIsTerminal {
                return io.emit(
                    .usage(
                        UsageError(
                            message: "'\(format.name) der' writes binary data: pass '\(out.name) <file>' or redirect"
                                + " standard output", subcommand: .mintReceipt)))
            }
            let io = io.quieted(options.quiet)
            return io.emit(run(options, standardOutput: io.standardOutputBytes))
        })

    /// Parses the arguments after `mint receipt`.
    ///
    /// - Returns: the command, or the usage error (see ``CommandLineGrammar``; any positional; no `--pki`;
    ///   `--xcode` with `--environment`).
    @Sendable static func parse(_ arguments: ArraySlice<String>) -> Result<Command, UsageError> {
        CommandLineGrammar.parseOptions(
            arguments, declarations: declarations, into: MintReceiptOptions(pki: ""), subcommand: .mintReceipt
        ).flatMap { parsed in
            if parsed.options.content.xcode && parsed.gave(environment) {
                return .failure(
                    UsageError(
                        message: "'\(xcode.name)' cannot be combined with '\(environment.name)': an Xcode receipt's"
                            + " type is Xcode", subcommand: .mintReceipt))
            }
            return parsed.optionsWithoutArguments(requiring: declarations).map(Command.mintReceipt)
        }
    }

    // MARK: Run

    /// Runs `mint receipt`: loads the PKI, builds and signs the receipt, writes it.
    ///
    /// - Parameter standardOutput: Where the receipt goes without `--out`.
    /// - Returns: exit 0 with nothing more to print; 66 when the PKI directory cannot be used; 1 when the receipt
    ///   cannot be signed or written.
    static func run(_ options: MintReceiptOptions, standardOutput: ([UInt8]) -> Void) -> CommandResult {
        let signer: ReceiptSigner
        do {
            signer = try TestPKIDirectory.loadReceiptSigner(
                from: URL(fileURLWithPath: options.pki), xcode: options.content.xcode)
        } catch {
            return .inputFailure(MintCommand.loadFailure(error, path: options.pki, receipts: true))
        }
        let bytes: [UInt8]
        do {
            bytes = try signer.sign(
                content: ReceiptContentEncoder.content(options.content.receipt()),
                options: .init(digest: options.digest))
        } catch {
            return MintCommand.failure("cannot sign the receipt: \(error)")
        }
        let output = options.format == .der ? bytes : Array((Data(bytes).base64EncodedString() + "\n").utf8)
        guard let path = options.out else {
            standardOutput(output)
            return CommandResult(status: ExitCode.verified)
        }
        do {
            try Data(output).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            return MintCommand.failure("cannot write the receipt to '\(EscapedText.escaped(path))': \(error)")
        }
        return CommandResult(status: ExitCode.verified)
    }
}
