import Foundation
import JWSVerify

extension Subcommand {
    /// `jwsverify receipt`.
    static let receipt = Subcommand(path: "receipt")
}

/// `jwsverify receipt`: verifies one StoreKit 1 app receipt with ``AppReceiptVerifier`` and explains every check.
enum ReceiptCommand {
    // MARK: Options

    /// `--root`, `--bundle-id`, `--app-apple-id`, `--environment`, `--xcode-certificate`, `--at`.
    static let trust = TrustOptionGroup(
        TrustOptionHelp(
            rootDefault: "the bundled Apple Inc. Root (Apple Root CA)",
            bundleId: "The bundle id the receipt must carry (field 2).",
            appAppleId: { _ in "The app's Apple id, compared with a Production receipt's app item id (field 1)." },
            appAppleIdDefault: "not checked", environmentValues: [.production, .sandbox, .xcode],
            environment: " Sandbox receipts have the receipt type ProductionSandbox. Repeat for several: '--environment"
                + " Production --environment Sandbox' accepts both, each with the claims of the one it names (this"
                + " replaces verifyReceipt's retry on status 21007).",
            environmentDefault: "not configured; the receipt type is reported",
            xcodeCertificate: { environment in
                "The StoreKit Testing certificate exported from Xcode, DER or PEM, for"
                    + " '\(environment) \(AppStoreEnvironment.xcode.rawValue)': the receipt's signer must be"
                    + " byte-identical to it."
            },
            at: "When the certificates must be valid: signed (the receipt's creation date), now, or an ISO 8601"
                + " date-time."))

    static let deviceGuid = OptionDeclaration<VerifyOptions>.deviceGuid(
        help: "Check that the receipt was issued to this device (its SHA-1 hash, field 5): identifierForVendor on"
            + " iOS (the UUID form is accepted), the MAC address of the primary network interface on macOS, in"
            + " hex.", \.deviceIdentifier)

    /// The options of `receipt`, in help order.
    static let declarations = trust.declarations + [deviceGuid, VerifyCommand.json, VerifyCommand.quiet]

    // MARK: Definition

    /// `receipt` in ``CommandRegistry``.
    static let definition = CommandDefinition(
        .receipt, summary: "Verify one StoreKit 1 app receipt and explain every check.",
        help: HelpContent(
            overview: "Verify a StoreKit 1 app receipt locally and explain every check.",
            discussion: "Checks the PKCS#7 signature, the signer's chain to Apple Inc. Root with Apple's marker"
                + " extensions, the bundle id, the environment and, with '\(deviceGuid.name)', the device hash, without"
                + " sending the receipt anywhere: a local replacement for Apple's deprecated verifyReceipt endpoint."
                + " '\(VerifyCommand.json.name)' prints the receipt in the shape of verifyReceipt's 'receipt' object.",
            argument: ArgumentDeclaration.file(
                help: "The receipt: the receipt file's bytes, base64 of them, or a verifyReceipt request body"
                    + " {\"receipt-data\": \"...\"}; '-' or none reads standard input."),
            exitCodes: [
                (ExitCode.verified, "Verified."),
                (ExitCode.notVerified, "Not verified (including input that is not an app receipt)."),
                (ExitCode.usage, "Usage error, or a configuration the verifier refuses."),
                (ExitCode.noInput, "Input missing, unreadable or empty."),
            ]),
        options: declarations,
        parse: { VerifyCommand.parse($0, subcommand: .receipt, declarations: declarations).map(Command.receipt) },
        execute: { command, io in
            guard case .receipt(let options) = command else { return nil }
            let io = io.quieted(options.quiet)
            if options.input == .standardInput, !options.quiet, io.standardInputIsTerminal, io.standardErrorIsTerminal {
                io.standardError("Paste the receipt's base64, then press Return and Ctrl-D:\n")
            }
            return io.emit(run(options))
        })

    // MARK: Run

    /// Runs `receipt`: configures the verifier (exit 64 when the configuration is refused), reads the receipt
    /// (exit 66 when there is none), verifies it and renders the outcome.
    static func run(_ options: VerifyOptions) -> CommandResult {
        let runner: VerificationRunner
        switch VerificationRunner.make(options, forms: .receipts, subcommand: .receipt, showsUndecodedDetails: true) {
        case .failure(let result): return result
        case .success(let value): runner = value
        }
        let outcome: SignedDataOutcome
        switch WholeInput.read(options.input, what: "receipt").map(\.receipt) {
        case .failure(let failure): return .inputFailure(failure)
        case .success(.failure(let unreadable)): outcome = .unreadable(.receipt, unreadable.message)
        case .success(.success(let receipt)):
            outcome = runner.run(receipt: receipt, deviceIdentifier: options.deviceIdentifier)
        }
        let text =
            options.json
            ? outcome.jsonText(pretty: true, includeDER: true) : TextRenderer.render(outcome)
        return CommandResult(stdout: text, status: outcome.exitCode)
    }
}
