import Foundation
import JWSVerify
import JWSVerifyTesting

extension Subcommand {
    /// `jwsverify mint pki`.
    static let mintPKI = Subcommand(path: "mint pki")
}

/// The options of `mint pki`, exactly as given on the command line.
struct MintPKIOptions: Equatable, Sendable {
    /// `--out`: the directory to write.
    var out: String
    /// `--seed`: makes keys and serial numbers repeatable; nil for random.
    var seed: UInt64?
    /// `--force`: replace existing files.
    var force = false
    /// `--receipt`: the RSA hierarchy that signs app receipts, instead of the EC one that signs tokens.
    var receipt = false
    /// `-q`, `--quiet`.
    var quiet = false
}

/// `jwsverify mint pki`: a test PKI written by ``TestPKIDirectory`` of `JWSVerifyTesting`: an EC ``TestHierarchy`` (tokens), or
/// an RSA one with an Xcode StoreKit Testing credential (`--receipt`).
enum MintPKICommand {
    // MARK: Options and definition

    static let out = OptionDeclaration<MintPKIOptions>.out(
        label: "<directory>", help: "The directory to write; created when missing.", required: true
    ) { options, path in options.out = path }

    static let seed = OptionDeclaration<MintPKIOptions>.seed(
        help: "Makes the keys and serial numbers repeatable", \.seed)

    static let force = OptionDeclaration<MintPKIOptions>.flag(
        "--force", help: "Replace existing PKI files in the directory.", \.force)

    static let receipt = OptionDeclaration<MintPKIOptions>.flag(
        "--receipt",
        help: "Write the RSA hierarchy that signs app receipts (shaped like Apple Inc. Root, WWDR G5 and the receipt"
            + " signing leaf) and an Xcode StoreKit Testing certificate, for 'jwsverify mint receipt'.", \.receipt)

    /// The options of `mint pki`, in help order.
    static let declarations = [out, seed, force, receipt, .quiet(\.quiet)]

    /// `mint pki` in ``CommandRegistry``.
    static let definition = CommandDefinition(
        .mintPKI, summary: "Write a test root, intermediate and leaf certificate with their private keys.",
        help: HelpContent(
            overview: "Write a test PKI: a root, an intermediate and a leaf certificate, with their private keys.",
            discussion: "Shaped like Apple's chain: a self-signed P-384 root, a P-384 intermediate with Apple's"
                + " intermediate marker (\(TestHierarchy.intermediateMarkerOID)) and a P-256 leaf with the receipt"
                + " signing marker (\(TestHierarchy.leafMarkerOID)), valid"
                + " \(ISO8601Text.iso8601(TestHierarchy.defaultValidity.lowerBound)) to"
                + " \(ISO8601Text.iso8601(TestHierarchy.defaultValidity.upperBound)). Subject names end in 'NOT APPLE'."
                + " Writes root.der, intermediate.der and leaf.der with PEM copies, and the private keys"
                + " root.key.pem, intermediate.key.pem and leaf.key.pem (PKCS#8, mode 0600). Existing files are"
                + " replaced only with '\(force.name)'. Trust root.der in tests only. With '\(receipt.name)': the same"
                + " files for RSA 2048 certificates named like Apple's receipt chain (their keys random, never"
                + " seeded), and storekit.der, storekit.pem, storekit.key.pem.",
            argument: nil,
            exitCodes: [
                (ExitCode.verified, "Written."),
                (ExitCode.notVerified, "A file or directory could not be written."),
                (ExitCode.usage, "Usage error, or PKI files exist and '\(force.name)' is not given."),
            ]),
        options: declarations, parse: parse,
        execute: { command, io in
            guard case .mintPKI(let options) = command else { return nil }
            return io.quieted(options.quiet).emit(run(options))
        })

    /// Parses the arguments after `mint pki`.
    ///
    /// - Returns: the command, or the usage error (see ``CommandLineGrammar``; any positional; no `--out`).
    @Sendable static func parse(_ arguments: ArraySlice<String>) -> Result<Command, UsageError> {
        CommandLineGrammar.parseOptions(
            arguments, declarations: declarations, into: MintPKIOptions(out: ""), subcommand: .mintPKI
        ).flatMap { $0.optionsWithoutArguments(requiring: declarations) }.flatMap { options in
            guard !(options.receipt && options.seed != nil) else {
                return .failure(
                    UsageError(
                        message: "'\(seed.name)' cannot be combined with '\(receipt.name)': the RSA keys of a receipt"
                            + " PKI are always random", subcommand: .mintPKI))
            }
            return .success(.mintPKI(options))
        }
    }

    // MARK: Run

    /// Runs `mint pki`: generates a hierarchy and writes it (``TestPKIDirectory/write(_:to:seed:)``), refusing to
    /// replace existing files without `--force`.
    ///
    /// - Returns: the list of files and the next commands (exit 0); a usage error when files exist
    ///   (exit 64); `Error:` and exit 1 when the PKI cannot be made or written.
    static func run(_ options: MintPKIOptions) -> CommandResult {
        let directory = URL(fileURLWithPath: options.out)
        let profile: TestPKIDirectory.Profile = options.receipt ? .receipts : .tokens
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            return MintCommand.failure("cannot write the test PKI: '\(options.out)' exists and is not a directory")
        }
        let existing = TestPKIDirectory.existingFiles(profile, in: directory)
        if !existing.isEmpty, !options.force {
            return .usage(
                UsageError(
                    message: "'\(options.out)' already holds \(existing.joined(separator: ", ")); pass"
                        + " '\(force.name)' to replace the PKI files", subcommand: .mintPKI))
        }
        do {
            let validity = try TestPKIDirectory.write(profile, to: directory, seed: options.seed)
            return CommandResult(
                stdout: report(
                    files: TestPKIDirectory.files(profile), validity: validity, directory: options.out,
                    receipt: options.receipt),
                status: ExitCode.verified)
        } catch {
            return MintCommand.failure("cannot write the test PKI to '\(options.out)': \(error)")
        }
    }

    /// What `mint pki` prints: the files, the validity and the next commands.
    static func report(
        files: [TestPKIDirectory.File], validity: ClosedRange<Date>, directory: String, receipt: Bool
    ) -> String {
        let width = files.map(\.name.count).max() ?? 0
        var lines = ["Wrote a test PKI to '\(directory)' (test certificates, NOT Apple's):"]
        for file in files {
            lines.append("  " + file.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + file.description)
        }
        lines.append(
            "Valid from \(ISO8601Text.iso8601(validity.lowerBound)) to \(ISO8601Text.iso8601(validity.upperBound)).")
        lines.append("Trust \(TestHierarchy.FileName.rootDER) only in tests; never deploy it to production.")
        lines.append("")
        let root = URL(fileURLWithPath: directory).appendingPathComponent(TestHierarchy.FileName.rootDER).path
        let defaults = PayloadParameters()
        let quote = MintCommand.shellQuoted
        if receipt {
            lines.append("Next, mint a receipt and verify it:")
            lines.append(
                "  \(HelpText.program) \(Subcommand.mintReceipt.path) \(MintReceiptCommand.pki.name) \(quote(directory))"
                    + " \(MintReceiptCommand.purchase.name) \(defaults.productId) > receipt.b64")
            lines.append(
                "  \(HelpText.program) \(Subcommand.receipt.path) \(ReceiptCommand.trust.root.name) \(quote(root))"
                    + " \(ReceiptCommand.trust.bundleId.name) \(quote(defaults.bundleId)) \(ReceiptCommand.trust.environment.name)"
                    + " \(defaults.environment) receipt.b64")
        } else {
            lines.append("Next, mint a token and verify it:")
            lines.append(
                "  \(HelpText.program) \(Subcommand.mintToken.path) \(MintTokenCommand.pki.name) \(quote(directory))"
                    + " \(MintTokenCommand.kind.name) \(TestPayloadKind.transaction.rawValue) > token.txt")
            lines.append(
                "  \(HelpText.program) \(VerifyCommand.trust.root.name) \(quote(root)) \(VerifyCommand.trust.bundleId.name)"
                    + " \(quote(defaults.bundleId)) \(VerifyCommand.trust.environment.name) \(defaults.environment) token.txt"
            )
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
