import Foundation
import JWSVerify
import JWSVerifyTesting

extension Subcommand {
    /// `jwsverify mint receipt`.
    static let mintReceipt = Subcommand(path: "mint receipt")
}

/// One `--purchase`: an in-app purchase of a minted receipt.
struct MintedPurchase: Equatable, Sendable {
    /// The product id (attribute 1702).
    var productId: String
    /// The transaction id (1703); nil for the default.
    var transactionId: String?
    /// The original transaction id (1705); nil for the transaction id.
    var originalTransactionId: String?
    /// The expiry date (1708) of a subscription; nil for none.
    var expiresDate: Date?
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
    /// `--bundle-id`.
    var bundleId: String?
    /// `--environment`, canonical spelling (`Sandbox` or `Production`).
    var environment: String?
    /// `--app-apple-id`.
    var appAppleId: Int64?
    /// `--app-version`.
    var appVersion: String?
    /// `--created`; nil for now.
    var created: Date?
    /// `--purchase`, in order.
    var purchases: [MintedPurchase] = []
    /// `--device-guid`.
    var deviceIdentifier: [UInt8]?
    /// `--digest`.
    var digest: ReceiptDigest = .sha256
    /// `--format`.
    var format: Format = .base64
    /// `--xcode`: Xcode StoreKit Testing's shape.
    var xcode = false
    /// `--out`; nil for standard output.
    var out: String?
}

/// `jwsverify mint receipt`: a signed test app receipt (StoreKit 1), content written by
/// ``ReceiptContentEncoder`` and signed by ``ReceiptSigner`` of `JWSVerifyTesting` with a ``TestHierarchy`` of the `.receiptRSA` profile.
enum MintReceiptCommand {
    // MARK: Options

    /// The library's token defaults, which receipts share (bundle id, app Apple id, product id).
    private static let defaults = PayloadParameters()
    /// The application version written unless `--app-version` says otherwise.
    static let defaultAppVersion = "1"
    /// The original application version Apple writes in the sandbox, and here everywhere.
    static let originalAppVersion = "1.0"
    /// The first default transaction id; the n-th purchase gets this plus n - 1.
    static let firstTransactionId: Int64 = 2_000_000_000_000_001
    /// The most `--purchase` options one receipt takes.
    static let maximumPurchases = 1000

    /// `--pki <directory>`, required.
    static let pki = OptionDeclaration<MintReceiptOptions>.pki(
        help: "A directory written by 'jwsverify \(Subcommand.mintPKI.path) \(MintPKICommand.receipt.name)'.", \.pki)

    /// `--bundle-id <id>`.
    static let bundleId = OptionDeclaration<MintReceiptOptions>.bundleId(
        help: "The bundle id (field 2).", defaultValue: defaults.bundleId, allowsEmpty: false, \.bundleId)

    /// `--environment <environment>`.
    static let environment = OptionDeclaration<MintReceiptOptions>.environment(
        values: [AppStoreEnvironment.sandbox, .production].map(\.rawValue),
        help: " The receipt type (field 0): ProductionSandbox or Production.", defaultValue: defaults.environment
    ) { options, canonical in options.environment = canonical }

    /// `--app-apple-id <n>`.
    static let appAppleId = OptionDeclaration<MintReceiptOptions>.appAppleId(
        help: "The app item id (field 1).",
        defaultValue: "\(defaults.appAppleId) in Production, else 0 as Apple writes", \.appAppleId)

    /// `--app-version <version>`.
    static let appVersion = OptionDeclaration<MintReceiptOptions>.value(
        "--app-version", label: "<version>", help: "The application version (field 3).",
        defaultValue: defaultAppVersion
    ) { options, string throws(InvalidValue) in options.appVersion = try OptionValue.nonEmpty(string) }

    /// `--created <time>`.
    static let created = OptionDeclaration<MintReceiptOptions>.value(
        "--created", label: "<time>",
        help: "The creation date (field 12), 'now' or an ISO 8601 date-time; purchases are an hour before it. It must"
            + " fall within the PKI's validity for '--at signed' verification.", defaultValue: "now"
    ) { options, string throws(InvalidValue) in
        switch Arguments.parseTime(string) {
        case .fixed(let date)?: options.created = date
        case .now?: options.created = nil
        case .signed?, nil:
            throw InvalidValue(hint: ". Please provide 'now' or an ISO 8601 date-time such as 2026-05-28T12:00:00Z.")
        }
    }

    /// `--purchase <product-id[,transaction-id[,original-transaction-id[,expires]]]>`, repeatable.
    static let purchase = OptionDeclaration<MintReceiptOptions>.value(
        "--purchase", label: "<product[,transaction[,original[,expires]]]>",
        help: "An in-app purchase (field 17): its product id, then optionally its transaction id (default"
            + " \(firstTransactionId), counting up), original transaction id (default: the transaction id) and, for a"
            + " subscription, its expiry as an ISO 8601 date-time; an empty field takes the default. Repeat for"
            + " several, at most \(maximumPurchases).", repeats: true
    ) { options, string throws(InvalidValue) in
        guard options.purchases.count < maximumPurchases, let purchase = parsePurchase(string) else {
            throw InvalidValue(
                hint: ". Please provide a product id, then optionally ',transaction-id', ',original-transaction-id' and"
                    + " ',expiry' (an ISO 8601 date-time), such as 'com.example.monthly,,,2026-07-01T00:00:00Z'; at"
                    + " most \(maximumPurchases) purchases.")
        }
        options.purchases.append(purchase)
    }

    /// `--device-guid <hex>`.
    static let deviceGuid = OptionDeclaration<MintReceiptOptions>.deviceGuid(
        help: "Bind the receipt to this device (its SHA-1 hash, field 5), in hex or as a UUID; default: a random"
            + " device.", \.deviceIdentifier)

    /// `--digest <digest>`.
    static let digest = OptionDeclaration<MintReceiptOptions>.value(
        "--digest", label: "<digest>", help: "sha256 (App Store receipts since 2023) or sha1 (before).",
        defaultValue: "sha256", allowedValues: ["sha256", "sha1"]
    ) { options, string throws(InvalidValue) in
        switch try OptionValue.caseInsensitiveChoice(string, of: ["sha256", "sha1"]) {
        case "sha1": options.digest = .sha1
        default: options.digest = .sha256
        }
    }

    /// `--format <format>`.
    static let format = OptionDeclaration<MintReceiptOptions>.value(
        "--format", label: "<format>",
        help: "base64 (what an app sends, with a newline) or der (the receipt file's bytes; BER with '--xcode').",
        defaultValue: MintReceiptOptions.Format.base64.rawValue,
        allowedValues: MintReceiptOptions.Format.allCases.map(\.rawValue)
    ) { options, string throws(InvalidValue) in
        guard let format = MintReceiptOptions.Format(rawValue: string.lowercased()) else { throw InvalidValue() }
        options.format = format
    }

    /// `--xcode`.
    static let xcode = OptionDeclaration<MintReceiptOptions>.flag(
        "--xcode",
        help: "Xcode StoreKit Testing's shape: receipt type Xcode, BER, signed by the PKI's StoreKit Testing"
            + " certificate (\(TestHierarchy.XcodeFileName.certificateDER)) alone; cannot be combined with"
            + " '\(environment.name)'.", \.xcode)

    /// `--out <file>`.
    static let out = OptionDeclaration<MintReceiptOptions>.out(
        label: "<file>", help: "The file to write, replaced if it exists.", defaultValue: "standard output",
        required: false
    ) { options, path in options.out = path }

    /// The options of `mint receipt`, in help order.
    static let declarations = [
        pki, bundleId, environment, appAppleId, appVersion, created, purchase, deviceGuid, digest, format, xcode, out,
    ]

    /// A `--purchase` value, nil when it is not one.
    static func parsePurchase(_ string: String) -> MintedPurchase? {
        let fields = string.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard (1...4).contains(fields.count), !fields[0].isEmpty else { return nil }
        func field(_ index: Int) -> String? { index < fields.count && !fields[index].isEmpty ? fields[index] : nil }
        var purchase = MintedPurchase(
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
            if parsed.options.xcode && parsed.gave(environment) {
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
        switch loadSigner(options.pki, xcode: options.xcode) {
        case .failure(let failure): return .inputFailure(failure)
        case .success(let value): signer = value
        }
        let bytes: [UInt8]
        do {
            bytes = try signer.sign(
                content: ReceiptContentEncoder.content(receipt(options)), options: .init(digest: options.digest))
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

    /// The receipt the options describe.
    ///
    /// App fields: the receipt type (`ProductionSandbox`, `Production` or `Xcode`), the app item id, the bundle
    /// id, the app version, a random 16-byte opaque value and the SHA-1 hash over it for `--device-guid` (else for
    /// a random device), the creation date, the original purchase date (Apple's sandbox value 2013-08-01T07:00:00Z,
    /// the creation date in Production), the original application version 1.0, and for Xcode the expiry
    /// 4001-01-01T00:00:00Z that Xcode writes. Each purchase: quantity 1, its ids, purchased (and originally
    /// purchased) an hour before the creation date; a subscription (with an expiry) also has a web order line item
    /// id and is in no trial or introductory period.
    static func receipt(_ options: MintReceiptOptions, now: Date = Date()) -> AppReceipt {
        let created = Date(timeIntervalSince1970: (options.created ?? now).timeIntervalSince1970.rounded(.down))
        let production = !options.xcode && options.environment == AppStoreEnvironment.production.rawValue
        let receiptType = options.xcode ? "Xcode" : production ? "Production" : "ProductionSandbox"
        let bundleId = options.bundleId ?? defaults.bundleId
        var generator = SystemRandomNumberGenerator()
        let opaqueValue = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let device =
            options.deviceIdentifier ?? (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let bundleIdValue = ReceiptContentEncoder.utf8String(bundleId)
        let purchased = created.addingTimeInterval(-3600)
        let purchases = options.purchases.enumerated().map { index, purchase in
            let transactionId = purchase.transactionId ?? "\(firstTransactionId + Int64(index))"
            return InAppPurchaseReceipt(
                quantity: 1, productId: purchase.productId, transactionId: transactionId,
                originalTransactionId: purchase.originalTransactionId ?? transactionId, purchaseDate: purchased,
                originalPurchaseDate: purchased, expiresDate: purchase.expiresDate,
                webOrderLineItemId: purchase.expiresDate == nil ? nil : firstTransactionId + Int64(index),
                isTrialPeriod: purchase.expiresDate == nil ? nil : false,
                isInIntroOfferPeriod: purchase.expiresDate == nil ? nil : false)
        }
        return AppReceipt(
            receiptType: receiptType, appItemId: options.appAppleId ?? (production ? defaults.appAppleId : 0),
            bundleId: bundleId, applicationVersion: options.appVersion ?? defaultAppVersion, opaqueValue: opaqueValue,
            sha1Hash: ReceiptContentEncoder.deviceHash(
                deviceIdentifier: device, opaqueValue: opaqueValue, bundleIdValue: bundleIdValue),
            bundleIdRawValue: bundleIdValue, receiptCreationDate: created,
            originalPurchaseDate: production ? created : Date(timeIntervalSince1970: 1_375_340_400),
            originalApplicationVersion: originalAppVersion,
            expirationDate: options.xcode ? Date(timeIntervalSince1970: 64_092_211_200) : nil, inApp: purchases)
    }

    /// Loads the signer from a directory that `mint pki --receipt` wrote: its receipt signing leaf (App Store
    /// shape), or its StoreKit Testing credential (`--xcode`).
    static func loadSigner(_ path: String, xcode: Bool) -> Result<ReceiptSigner, InputFailure> {
        let directory = URL(fileURLWithPath: path)
        let option = pki.name
        let hint =
            "; make one with '\(HelpText.program) \(Subcommand.mintPKI.path) \(MintPKICommand.receipt.name)"
            + " \(MintPKICommand.out.name) \(MintCommand.shellQuoted(path))'"
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            return .failure(InputFailure(message: "\(option) '\(EscapedText.escaped(path))' is not a directory" + hint))
        }
        do {
            if xcode {
                return .success(.xcode(try TestHierarchy.loadXcodeStoreKitCredential(from: directory)))
            }
            return .success(ReceiptSigner(hierarchy: try TestHierarchy.load(from: directory, profile: .receiptRSA)))
        } catch {
            return .failure(
                InputFailure(
                    message: "cannot load the receipt test PKI in \(option) directory '\(EscapedText.escaped(path))':"
                        + " \(error)" + hint))
        }
    }
}
