import Foundation
import JWSVerify

extension Subcommand {
    /// `jwsverify inspect`.
    static let inspect = Subcommand(path: "inspect")
}

/// The options of `inspect` (`--kind`, `--json` and the input): those of `verify`.
typealias InspectOptions = VerifyOptions

/// `jwsverify inspect`: decodes a token (``SignedDataOutcome/inspecting(_:kind:nesting:)``) and shows
/// header, certificates and payload, labelled UNVERIFIED; an app receipt (``WholeInput/recognizedReceipt``) with
/// ``AppReceiptVerifier/decodeUnverified(_:maximumReceiptBytes:)``: its signer, embedded certificates and content.
enum InspectCommand {
    // MARK: Options and definition

    /// The options of `inspect`, in help order.
    static let declarations = [
        VerifyCommand.kind, VerifyCommand.json.withHelp("Print one JSON object (schemaVersion 1)."),
        VerifyCommand.quiet,
    ]

    /// `inspect` in ``CommandRegistry``.
    static let definition = CommandDefinition(
        .inspect, summary: "Decode a token or app receipt without verifying anything.",
        help: HelpContent(
            overview: "Decode a token without verifying it: header, x5c certificates and payload, labelled UNVERIFIED.",
            discussion: "Nothing is checked: anybody can make a token that decodes to anything. Use 'jwsverify verify'"
                + " before trusting a token. An app receipt (raw, base64, or {\"receipt-data\": ...}) is recognized"
                + " and shown the same way: its signer, embedded certificates and content; verify it with"
                + " 'jwsverify receipt'. A JWS a developer signs with an In-App Purchase key ('jwsverify sign"
                + " offer-v2', 'intro-eligibility', 'advanced-commerce') is named as such: signed by a developer's key,"
                + " not Apple, and not verifiable here.",
            argument: VerifyCommand.fileArgument,
            exitCodes: [
                (ExitCode.verified, "Decoded."),
                (
                    ExitCode.notVerified,
                    "Not a compact JWS with JSON header and payload (malformedToken), or not an app receipt"
                        + " (malformedReceipt)."
                ),
                (ExitCode.usage, "Usage error."),
                (ExitCode.noInput, "Input missing, unreadable or empty."),
            ]),
        options: declarations,
        parse: { VerifyCommand.parse($0, subcommand: .inspect, declarations: declarations).map(Command.inspect) },
        execute: { command, io in
            guard case .inspect(let options) = command else { return nil }
            io.hintWhenReadingATerminal(options.input, quiet: options.quiet)
            return io.quieted(options.quiet).emit(run(options))
        })

    // MARK: Run

    /// Runs `inspect` on the input.
    static func run(_ options: InspectOptions) -> CommandResult {
        let whole: WholeInput
        switch WholeInput.read(options.input, what: "token") {
        case .failure(let failure): return .inputFailure(failure)
        case .success(let value): whole = value
        }
        if let receipt = whole.recognizedReceipt {
            let inspection = Result { () throws(VerificationError) in try AppReceiptVerifier.decodeUnverified(receipt) }
            let text =
                options.json
                ? JSONWriter.write(SignedDataOutcome.inspectionDocument(inspection), pretty: true) + "\n"
                : TextRenderer.render(inspection)
            let decoded = (try? inspection.get()) != nil
            return CommandResult(stdout: text, status: decoded ? ExitCode.verified : ExitCode.notVerified)
        }
        let token: String
        switch whole.token {
        case .failure(let unreadable): return render(.unreadable(.token, unreadable.message), options: options)
        case .success(let value): token = value
        }
        return render(.inspecting(token, kind: options.kind, nesting: true), options: options)
    }

    /// The text or JSON of a token's inspection (``SignedDataOutcome/inspecting(_:kind:nesting:)``): 0 when decoded.
    private static func render(_ inspection: SignedDataOutcome, options: InspectOptions) -> CommandResult {
        let text =
            options.json
            ? JSONWriter.write(inspection.inspectionDocument, pretty: true) + "\n"
            : TextRenderer.render(inspection: inspection)
        return CommandResult(stdout: text, status: inspection.error == nil ? ExitCode.verified : ExitCode.notVerified)
    }
}
