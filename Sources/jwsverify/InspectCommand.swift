import Foundation
import JWSVerify

extension Subcommand {
    /// `jwsverify inspect`.
    static let inspect = Subcommand(path: "inspect")
}

/// The options of `inspect`.
struct InspectOptions: Equatable, Sendable {
    /// The token file, or standard input.
    var input: InputSource = .standardInput
    /// `--kind`; nil for `auto`.
    var kind: PayloadKind?
    /// `--json`.
    var json = false
}

/// What `inspect` shows of a token: decoded, nothing verified.
struct Inspection: Sendable {
    /// Why the token did not decode (then everything else is empty).
    var error: VerificationError?
    /// The kind asked for or recognized from the payload.
    var kind: PayloadKind?
    /// The JOSE header as decoded.
    var header: JSONValue?
    /// The `x5c` certificates that parse, with roles by position.
    var chain: [ChainEntry] = []
    /// What was wrong with `x5c` entries that did not parse.
    var certificateProblems: [String] = []
    /// The payload JSON as in the token.
    var payload: PayloadDocument?
    /// A notification's nested tokens, each inspected.
    var nested: [(field: String, path: String, inspection: Inspection)] = []

    /// 0 when decoded, 1 when not.
    var exitCode: Int32 { error == nil ? ExitCode.verified : ExitCode.notVerified }
}

/// `jwsverify inspect`: decodes a token with ``SignedDataVerifier/decodeUnverified(_:as:)`` and shows
/// header, certificates and payload, labelled UNVERIFIED; an app receipt (``ReceiptInput/recognize(_:)``) with
/// ``AppReceiptVerifier/decodeUnverified(_:maximumReceiptBytes:)``: its signer, embedded certificates and content.
enum InspectCommand {
    // MARK: Options and definition

    /// The options of `inspect`, in help order.
    static let declarations: [OptionDeclaration<InspectOptions>] = [
        .kind(values: VerifyCommand.kindValues, defaultValue: "auto", parse: VerifyCommand.payloadKind, \.kind),
        .json(help: "Print one JSON object (schemaVersion 1).", \.json),
    ]

    /// `inspect` in ``CommandRegistry``.
    static let definition = CommandDefinition(
        .inspect, summary: "Decode a token or app receipt without verifying anything.",
        help: HelpContent(
            overview: "Decode a token without verifying it: header, x5c certificates and payload, labelled UNVERIFIED.",
            discussion: "Nothing is checked: anybody can make a token that decodes to anything. Use 'jwsverify verify'"
                + " before trusting a token. An app receipt (raw, base64, or {\"receipt-data\": ...}) is recognized"
                + " and shown the same way: its signer, embedded certificates and content; verify it with"
                + " 'jwsverify receipt'.",
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
        options: declarations, parse: parse,
        execute: { command, io in
            guard case .inspect(let options) = command else { return nil }
            io.hintWhenReadingATerminal(options.input)
            return io.emit(run(options))
        })

    /// Parses the arguments after `inspect`.
    ///
    /// - Returns: the command, or the usage error (see ``CommandLineGrammar``; a second FILE).
    @Sendable static func parse(_ arguments: ArraySlice<String>) -> Result<Command, UsageError> {
        CommandLineGrammar.parseOptions(
            arguments, declarations: declarations, into: InspectOptions(), subcommand: .inspect
        ).flatMap { parsed in
            parsed.input().map { input in
                var options = parsed.options
                options.input = input
                return .inspect(options)
            }
        }
    }

    // MARK: Run

    /// Runs `inspect` on the input.
    static func run(_ options: InspectOptions) -> CommandResult {
        let whole: TokenInput.Whole
        switch TokenInput.readWhole(options.input, what: "token") {
        case .failure(let failure): return .inputFailure(failure)
        case .success(let value): whole = value
        }
        if let receipt = ReceiptInput.recognize(whole) {
            let inspection = ReceiptInspection(receipt)
            let text = options.json ? ReceiptRenderer.json(inspection) : ReceiptRenderer.text(inspection)
            return CommandResult(stdout: text, status: inspection.exitCode)
        }
        let token: String
        switch TokenInput.shape(whole) {
        case .unreadable(let message):
            let inspection = Inspection(error: VerificationError(.malformedToken, check: .format, message))
            return render(inspection, options: options)
        case .token(let value): token = value
        }
        return render(inspect(token, kind: options.kind, nesting: true), options: options)
    }

    private static func render(_ inspection: Inspection, options: InspectOptions) -> CommandResult {
        let text = options.json ? JSONRenderer.render(inspection) : TextRenderer.render(inspection)
        return CommandResult(stdout: text, status: inspection.exitCode)
    }

    /// Decodes one token (and a notification's nested tokens) without verifying anything.
    static func inspect(_ token: String, kind: PayloadKind?, nesting: Bool) -> Inspection {
        let unverified: UnverifiedToken
        do {
            unverified = try SignedDataVerifier.decodeUnverified(token, as: kind)
        } catch {
            return Inspection(error: error)
        }
        var inspection = Inspection(kind: unverified.kind)
        inspection.header = headerJSON(unverified.header)
        inspection.chain = VerificationRunner.roles(
            unverified.certificates, complete: unverified.certificateProblems.isEmpty)
        inspection.certificateProblems = unverified.certificateProblems
        if let json = try? JSONParser.parseObject(Array(unverified.payloadJSON)) {
            inspection.payload = PayloadDocument(json: .object(json), annotatingAs: unverified.payload?.kind)
            if nesting, let kind = inspection.kind {
                // The members the kind's table entry names as nested tokens (a notification's), each inspected
                // as the kind it holds.
                inspection.nested = kind.nestedTokens(in: json).map { item in
                    (item.field, item.path, inspect(item.token, kind: item.kind, nesting: false))
                }
            }
        }
        return inspection
    }

    /// The header's members as its `encode(to:)` writes them, built directly (no encoder round trip).
    static func headerJSON(_ header: JWSHeader) -> JSONValue {
        var members = header.additionalMembers
        if let alg = header.alg { members["alg"] = .string(alg) }
        if let x5c = header.x5c { members["x5c"] = .array(x5c.map(JSONValue.string)) }
        if let kid = header.kid { members["kid"] = .string(kid) }
        if let typ = header.typ { members["typ"] = .string(typ) }
        if let crit = header.crit { members["crit"] = crit }
        return .object(members)
    }
}
