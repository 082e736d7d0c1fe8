import Foundation
import JWSVerify

extension Subcommand {
    /// `jwsverify inspect`.
    static let inspect = Subcommand(path: "inspect")
}

/// The options of `inspect` (`--kind`, `--json` and the input): those of `verify`.
typealias InspectOptions = VerifyOptions

/// What `inspect` shows of a token: decoded, nothing verified.
struct Inspection: Sendable {
    /// Why the token did not decode (then everything else is empty).
    var error: VerificationError?
    /// The kind asked for or recognized from the payload.
    var kind: PayloadKind?
    /// The kind of JWS a developer signed with an In-App Purchase key (not Apple), when the token is one.
    var developerKind: DeveloperSignedKind?
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

    /// The statement `inspect` makes of a token a developer signed (text and `--json`).
    static let developerSigned =
        "signed by a developer's In-App Purchase key, not by Apple; inspect cannot verify it (no certificate chain)"

    /// The key id a developer-signed token's header names, or nil.
    var developerKeyId: String? {
        guard developerKind != nil, case .object(let members)? = header, case .string(let kid)? = members["kid"] else {
            return nil
        }
        return kid
    }

    /// 0 when decoded, 1 when not.
    var exitCode: Int32 { error == nil ? ExitCode.verified : ExitCode.notVerified }
}

/// `jwsverify inspect`: decodes a token with ``SignedDataVerifier/decodeUnverified(_:as:)`` and shows
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
            let text = options.json ? JSONRenderer.render(inspection) : TextRenderer.render(inspection)
            let decoded = (try? inspection.get()) != nil
            return CommandResult(stdout: text, status: decoded ? ExitCode.verified : ExitCode.notVerified)
        }
        let token: String
        switch whole.token {
        case .unreadable(let message):
            let inspection = Inspection(error: VerificationError(.malformedToken, check: .format, message))
            return render(inspection, options: options)
        case .value(let value): token = value
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
        var inspection = Inspection(kind: unverified.kind, developerKind: unverified.developerKind)
        inspection.header = unverified.header.jsonValue
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
}
