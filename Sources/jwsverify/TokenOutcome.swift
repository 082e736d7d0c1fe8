import Foundation
import JWSVerify

/// One line of the verification report, as printed: the library's step name, outcome and detail.
struct CheckLine: Sendable, Equatable {
    /// The step's name (`format`, `trust`, `bundleId`, …).
    var name: String
    /// `passed`, `failed` or `skipped`.
    var outcome: String
    /// What was checked, what was wrong, or why it was skipped.
    var detail: String
}

/// A certificate of a token's chain with the role it plays.
struct ChainEntry: Sendable {
    /// `leaf`, `intermediate`, `root`, `StoreKit Testing certificate`, or `x5c[n]` beyond the third.
    var role: String
    /// What the certificate says.
    var info: CertificateInfo
    /// For the trusted root a verified chain ended in: which configured root it is.
    var trustAnchor: String?
}

/// A decoded payload ready to render: Apple's JSON plus what the models know about it.
struct PayloadDocument: Sendable {
    /// The payload as Apple's JSON keys, dates as raw milliseconds.
    var json: JSONValue
    /// Enumeration names and timestamp paths, from the kind's generated field kinds (text output only).
    var annotations: PayloadAnnotations

    /// Paths (`data.environment`) of enumeration values whose Swift constant name is known, with that name.
    var enumerationNames: [String: String] { annotations.enumerationNames }
    /// Paths of values the model decodes as timestamps.
    var timestampPaths: Set<String> { annotations.timestampPaths }

    /// Wraps JSON, annotated as a payload of `kind` when given.
    init(json: JSONValue, annotatingAs kind: PayloadKind?) {
        self.json = json
        annotations = kind.map { PayloadAnnotations(json: json, fields: $0.jsonFieldKinds) } ?? PayloadAnnotations()
    }

    /// The payload of any kind: for a notification, the notification itself (its nested tokens are
    /// reported separately), annotated when asked (text output needs it, JSON does not).
    init(_ payload: DecodedPayload, annotate: Bool) {
        self.init(json: payload.model.jsonValue, annotatingAs: annotate ? payload.kind : nil)
    }
}

/// What every outcome of signed data carries, a token's (``TokenOutcome``) or a receipt's (``ReceiptOutcome``),
/// and what the renderers print of it the same way for both: the verdict, the checks, the chain and the hints.
protocol SignedDataOutcome: Sendable {
    /// Whether the library verified it.
    var verified: Bool { get }
    /// Why it did not verify.
    var error: VerificationError? { get }
    /// Every step of the library's report, in order.
    var checks: [CheckLine] { get }
    /// The validated chain when ``chainValidated``, else the certificates it carries as decoded.
    var chain: [ChainEntry] { get }
    /// Whether ``chain`` is the validated chain.
    var chainValidated: Bool { get }
    /// What was wrong with carried certificates that did not parse (unvalidated chains only).
    var certificateProblems: [String] { get }
    /// When the certificates were checked, once the checks reached them.
    var validationTime: Date? { get }
    /// The note on a validation time taken from the clock, naming `--at`.
    var validationTimeNote: String? { get }
    /// What to type, or not, after this failure.
    var hints: [String] { get }
}

extension SignedDataOutcome {
    /// `VERIFIED` or `NOT VERIFIED: <code> (<check>): <message>`.
    var verdict: String {
        guard let error, !verified else { return "VERIFIED" }
        return "NOT VERIFIED: \(error.code.rawValue) (\(error.check.rawValue)): \(error.message)"
    }

    /// The text lines of the hints and the validation time, after the verdict.
    var hintLines: [String] {
        hints.map { "  hint: \($0)" }
            + (validationTime.map {
                ["  validated at: \(ISO8601Text.iso8601($0))" + (validationTimeNote.map { " (\($0))" } ?? "")]
            } ?? [])
    }

    /// The text of the `CHECKS` table, after a blank line: outcome, name and detail of each step, aligned.
    var checkLines: [String] {
        let width = checks.map(\.name.count).max() ?? 0
        func pad(_ text: String, _ width: Int) -> String {
            text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
        }
        return ["", "CHECKS"] + checks.map { "  " + pad($0.outcome, 7) + "  " + pad($0.name, width) + "  " + $0.detail }
    }

    /// The JSON members of the checks, the chain and the hints (`--json`, `batch --report full`).
    func reportMembers(includeDER: Bool) -> [String: JSONValue] {
        [
            "checks": .array(
                checks.map {
                    .object(["name": .string($0.name), "outcome": .string($0.outcome), "detail": .string($0.detail)])
                }),
            "chain": .array(chain.map { JSONRenderer.certificate($0, includeDER: includeDER) }),
            "chainValidated": .bool(chainValidated),
            "certificateProblems": .array(certificateProblems.map(JSONValue.string)),
            "validationTime": JSONSchema.string(validationTime.map(ISO8601Text.iso8601)),
            "hints": .array((hints + (validationTimeNote.map { ["validated at \($0)"] } ?? [])).map(JSONValue.string)),
        ]
    }
}

/// A nested token of a notification (`data.signedTransactionInfo`, …) with its own outcome.
struct NestedOutcome: Sendable {
    /// The field name, the key of `nested` in JSON output.
    var field: String
    /// The path of the field in the notification payload.
    var path: String
    /// The nested token's own outcome.
    var outcome: TokenOutcome
}

/// Everything the CLI prints about one token, gathered from the library's result and report.
///
/// The verdict, the code and every check outcome are the library's; this type only carries them to
/// the renderers, with the chain and payload in printable form.
struct TokenOutcome: SignedDataOutcome {
    /// Whether the library verified the token.
    var verified: Bool
    /// The payload kind: decoded, asked for, or recognized from the payload.
    var kind: PayloadKind?
    /// Why the token did not verify.
    var error: VerificationError?
    /// Every step of the library's report, in order.
    var checks: [CheckLine]
    /// The validated chain (leaf first, ending in the trusted root) when verified; otherwise the
    /// token's own `x5c` certificates as decoded, not trusted.
    var chain: [ChainEntry]
    /// Whether ``chain`` is the validated chain.
    var chainValidated: Bool
    /// What was wrong with `x5c` entries that did not parse (unverified chains only).
    var certificateProblems: [String] = []
    /// When the certificates were checked: for a verified token, and for a failure once the checks
    /// reached the certificates.
    var validationTime: Date?
    /// Whether ``validationTime`` is the current time because the payload has no signed date.
    var validatedWithoutSignedDate = false
    /// What to type, or not, after this failure, in the words of the flags (``FlagAdvice``).
    var hints: [String] = []
    /// The payload (unverified unless ``verified``).
    var payload: PayloadDocument?
    /// The payload's JSON bytes exactly as in the token, strictly parsed by the library (unverified
    /// unless ``verified``); nil when the token did not get past the format check.
    var payloadJSON: [UInt8]?
    /// The environment: as the claims check accepted it when verified, else as the payload names it.
    var environment: String?
    /// A notification's nested tokens, each verified on its own.
    var nested: [NestedOutcome] = []
    /// Set for LocalTesting tokens, which nobody signs: decoded, never verified.
    var decodedWithoutVerification = false
    /// Set when a `batch` line held an app receipt: its outcome, which ``ReceiptBatchLine`` writes.
    var receipt: ReceiptOutcome?

    /// The note on a validation time taken from the clock for lack of a signed date, naming `--at`.
    var validationTimeNote: String? {
        validatedWithoutSignedDate ? FlagAdvice.withoutSignedDate(kind: kind) : nil
    }

    /// The exit status this outcome asks for.
    var exitCode: Int32 {
        if verified { return ExitCode.verified }
        return error?.isRetryable == true ? ExitCode.retryable : ExitCode.notVerified
    }

    /// An outcome for input the CLI could not hand to the verifier as a token (an over-long line,
    /// an NDJSON line without a `token` string): `malformedToken` in the format step, nothing else run.
    static func unreadableToken(_ message: String) -> TokenOutcome {
        let error = VerificationError(.malformedToken, check: .format, message)
        let checks = VerificationReport(failure: error).steps.map {
            CheckLine(name: $0.name.rawValue, outcome: $0.outcome.rawValue, detail: $0.detail)
        }
        return TokenOutcome(verified: false, kind: nil, error: error, checks: checks, chain: [], chainValidated: false)
    }
}
