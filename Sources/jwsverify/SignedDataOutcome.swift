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

/// What was verified: a JWS token or a StoreKit 1 app receipt. Outcomes, runners, renderers and `batch` lines are
/// the same for both; this is the data they read where the two differ.
enum SignedDataForm: Sendable {
    /// A JWS token, of a ``PayloadKind``.
    case token
    /// An app receipt.
    case receipt

    /// The `kind` of receipts in JSON output and in `batch`'s summary.
    static let receiptKind = "receipt"

    /// The identifiers of a receipt's compact `batch` line: the bundle id (field 2), and the transaction and
    /// original transaction ids of its first in-app purchase (absent without purchases), an id to pass to the App
    /// Store Server API's Get Transaction History. A token's are its kind's (``PayloadKind/identifierKeys``).
    static let receiptIdentifierKeys = ["bundleId", "transactionId", "originalTransactionId"]

    /// The code of input that holds nothing of this form in an accepted shape.
    var unreadableCode: VerificationError.Code { self == .token ? .malformedToken : .malformedReceipt }

    /// The roles of a validated chain's certificates, first to last (one certificate: Xcode's).
    func validatedRoles(count: Int) -> [String] {
        count == 1
            ? ["StoreKit Testing certificate"]
            : self == .token
                ? ["leaf", "intermediate", "root"]
                : ["receipt signer", "intermediate", "root"]
    }
}

/// A nested token of a notification (`data.signedTransactionInfo`, …) with its own outcome.
struct NestedOutcome: Sendable {
    /// The field name, the key of `nested` in JSON output.
    var field: String
    /// The path of the field in the notification payload.
    var path: String
    /// The nested token's own outcome.
    var outcome: SignedDataOutcome
}

/// Everything the CLI prints about one token or app receipt, gathered from the library's result and report.
///
/// The verdict, the code and every check outcome are the library's; this type only carries them to
/// the renderers, with the chain and payload in printable form.
struct SignedDataOutcome: Sendable {
    /// A token or an app receipt.
    var form: SignedDataForm
    /// Whether the library verified it.
    var verified: Bool
    /// A token's payload kind: decoded, asked for, or recognized from the payload.
    var kind: PayloadKind?
    /// Why it did not verify.
    var error: VerificationError?
    /// Every step of the library's report, in order (empty in `batch`'s compact lines).
    var checks: [CheckLine] = []
    /// The validated chain (ending in the trusted root that matched) when ``chainValidated``; otherwise the
    /// certificates it carries (a token's `x5c`, a receipt's embedded ones) as decoded, not trusted.
    var chain: [ChainEntry] = []
    /// Whether ``chain`` is the validated chain.
    var chainValidated = false
    /// What was wrong with carried certificates that did not parse (unvalidated chains only).
    var certificateProblems: [String] = []
    /// When the certificates were checked, once the checks reached them.
    var validationTime: Date?
    /// Whether ``validationTime`` is the current time because the payload has no signed date (a receipt: no
    /// creation date).
    var validatedWithoutSignedDate = false
    /// What to type, or not, after this failure, in the words of the flags (``FlagAdvice``).
    var hints: [String] = []
    /// The environment: as the claims check accepted it when verified, else as the payload names it.
    var environment: String?
    /// A token's payload (unverified unless ``verified``).
    var payload: PayloadDocument?
    /// A token's payload JSON bytes exactly as in the token, strictly parsed by the library (unverified
    /// unless ``verified``); nil when the token did not get past the format check.
    var payloadJSON: [UInt8]?
    /// A notification's nested tokens, each verified on its own.
    var nested: [NestedOutcome] = []
    /// Set for LocalTesting tokens, which nobody signs: decoded, never verified.
    var decodedWithoutVerification = false
    /// A receipt's content (unverified unless ``verified``); nil when the input did not pass the format check.
    var receipt: AppReceipt?

    /// The kind as JSON and `batch`'s summary name it: `receipt`, or the token's payload kind.
    var kindName: String? { form == .receipt ? SignedDataForm.receiptKind : kind?.rawValue }

    /// The note on a validation time taken from the clock for lack of a signed date, naming `--at`.
    var validationTimeNote: String? {
        validatedWithoutSignedDate ? FlagAdvice.withoutSignedDate(form, kind: kind) : nil
    }

    /// The exit status this outcome asks for.
    var exitCode: Int32 {
        if verified { return ExitCode.verified }
        return error?.isRetryable == true ? ExitCode.retryable : ExitCode.notVerified
    }

    /// An outcome refused before verification (input the CLI could not hand to the verifier, such as an over-long
    /// line or an object without its member; a receipt line in a `batch` that verifies no receipts): its error, in
    /// the format step unless it says otherwise, nothing else run.
    static func refused(_ form: SignedDataForm, _ error: VerificationError, reporting: Bool = true) -> Self {
        SignedDataOutcome(
            form: form, verified: false, error: error,
            checks: reporting ? CheckLine.lines(VerificationReport(failure: error)) : [])
    }

    /// ``refused(_:_:reporting:)`` for input that holds nothing of the form in an accepted shape.
    static func unreadable(_ form: SignedDataForm, _ message: String) -> Self {
        refused(form, VerificationError(form.unreadableCode, check: .format, message))
    }

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

    /// Sets ``chain`` to the library's validated chain, with roles and the configured root it matched.
    mutating func showValidatedChain(_ certificates: [CertificateInfo], trustAnchorNames: [String: String]) {
        let roles = form.validatedRoles(count: certificates.count)
        chain = certificates.enumerated().map { index, info in
            ChainEntry(role: index < roles.count ? roles[index] : "certificate \(index)", info: info)
        }
        if let last = chain.indices.last {
            chain[last].trustAnchor = trustAnchorNames[chain[last].info.sha256Fingerprint] ?? "a configured root"
        }
        chainValidated = true
    }
}

extension CheckLine {
    /// The lines of a library report, in order.
    static func lines(_ report: VerificationReport) -> [CheckLine] {
        report.steps.map { CheckLine(name: $0.name.rawValue, outcome: $0.outcome.rawValue, detail: $0.detail) }
    }
}
