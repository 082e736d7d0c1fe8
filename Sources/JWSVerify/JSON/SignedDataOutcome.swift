import Foundation

/// One line of the verification report, as printed: the library's step name, outcome and detail.
package struct CheckLine: Sendable, Equatable {
    /// The step's name (`format`, `trust`, `bundleId`, …).
    package var name: String
    /// `passed`, `failed` or `skipped`.
    package var outcome: String
    /// What was checked, what was wrong, or why it was skipped.
    package var detail: String
}

/// A certificate of a token's chain with the role it plays.
package struct ChainEntry: Sendable {
    /// `leaf`, `intermediate`, `root`, `StoreKit Testing certificate`, or `x5c[n]` beyond the third.
    package var role: String
    /// What the certificate says.
    package var info: CertificateInfo
    /// For the trusted root a verified chain ended in: which configured root it is.
    package var trustAnchor: String?
}

/// A decoded payload ready to render: Apple's JSON plus what the models know about it.
package struct PayloadDocument: Sendable {
    /// The payload as Apple's JSON keys, dates as raw milliseconds.
    package var json: JSONValue
    /// Enumeration names and timestamp paths, from the kind's generated field kinds (text output only).
    package var annotations: PayloadAnnotations

    /// Paths (`data.environment`) of enumeration values whose Swift constant name is known, with that name.
    package var enumerationNames: [String: String] { annotations.enumerationNames }
    /// Paths of values the model decodes as timestamps.
    package var timestampPaths: Set<String> { annotations.timestampPaths }

    /// Wraps JSON, annotated as a payload of `kind` when given.
    package init(json: JSONValue, annotatingAs kind: PayloadKind?) {
        self.json = json
        annotations = kind.map { PayloadAnnotations(json: json, fields: $0.jsonFieldKinds) } ?? PayloadAnnotations()
    }

    /// The payload of any kind: for a notification, the notification itself (its nested tokens are
    /// reported separately), annotated when asked (text output needs it, JSON does not).
    package init(_ payload: DecodedPayload, annotate: Bool) {
        self.init(json: payload.model.jsonValue, annotatingAs: annotate ? payload.kind : nil)
    }
}

/// What was verified: a JWS token or a StoreKit 1 app receipt. Outcomes, runners, renderers and `batch` lines are
/// the same for both; this is the data they read where the two differ.
package enum SignedDataForm: Sendable {
    /// A JWS token, of a ``PayloadKind``.
    case token
    /// An app receipt.
    case receipt

    /// The `kind` of receipts in JSON output and in `batch`'s summary.
    package static let receiptKind = "receipt"

    /// The identifiers of a receipt's compact `batch` line: the bundle id (field 2), and the transaction and
    /// original transaction ids of its first in-app purchase (absent without purchases), an id to pass to the App
    /// Store Server API's Get Transaction History. A token's are its kind's (``PayloadKind/identifierKeys``).
    package static let receiptIdentifierKeys = ["bundleId", "transactionId", "originalTransactionId"]

    /// The code of input that holds nothing of this form in an accepted shape.
    package var unreadableCode: VerificationError.Code { self == .token ? .malformedToken : .malformedReceipt }

    /// The roles of a validated chain's certificates, first to last (one certificate: Xcode's).
    package func validatedRoles(count: Int) -> [String] {
        count == 1
            ? ["StoreKit Testing certificate"]
            : self == .token
                ? ["leaf", "intermediate", "root"]
                : ["receipt signer", "intermediate", "root"]
    }
}

/// A nested token of a notification (`data.signedTransactionInfo`, …) with its own outcome.
package struct NestedOutcome: Sendable {
    /// The field name, the key of `nested` in JSON output.
    package var field: String
    /// The path of the field in the notification payload.
    package var path: String
    /// The nested token's own outcome.
    package var outcome: SignedDataOutcome
}

/// Everything `jwsverify` prints about one token or app receipt, gathered from the library's result and report:
/// what its JSON documents (``jsonDocument(includeDER:)``), `batch` lines (``BatchResultLine``) and text output read.
///
/// The verdict, the code and every check outcome are the library's; this type only carries them to
/// the renderers, with the chain and payload in printable form. `inspect` fills the same type for a token it only
/// decodes (``inspecting(_:kind:nesting:)``).
package struct SignedDataOutcome: Sendable {
    /// A token or an app receipt.
    package var form: SignedDataForm
    /// Whether the library verified it.
    package var verified: Bool
    /// A token's payload kind: decoded, asked for, or recognized from the payload.
    package var kind: PayloadKind?
    /// Why it did not verify.
    package var error: VerificationError?
    /// Every step of the library's report, in order (empty in `batch`'s compact lines).
    package var checks: [CheckLine] = []
    /// The validated chain (ending in the trusted root that matched) when ``chainValidated``; otherwise the
    /// certificates it carries (a token's `x5c`, a receipt's embedded ones) as decoded, not trusted.
    package var chain: [ChainEntry] = []
    /// Whether ``chain`` is the validated chain.
    package var chainValidated = false
    /// What was wrong with carried certificates that did not parse (unvalidated chains only).
    package var certificateProblems: [String] = []
    /// When the certificates were checked, once the checks reached them.
    package var validationTime: Date?
    /// Whether ``validationTime`` is the current time because the payload has no signed date (a receipt: no
    /// creation date).
    package var validatedWithoutSignedDate = false
    /// What to type, or not, after this failure, in the words of the caller's options (the CLI's flags).
    package var hints: [String] = []
    /// The note on a ``validationTime`` taken from the clock for lack of a signed date, in the words of the caller's
    /// options (the CLI names `--at`); JSON output lists it among the hints as `validated at <note>`.
    package var validationTimeNote: String?
    /// The environment: as the claims check accepted it when verified, else as the payload names it.
    package var environment: String?
    /// A token's payload (unverified unless ``verified``).
    package var payload: PayloadDocument?
    /// A token's payload JSON bytes exactly as in the token, strictly parsed by the library (unverified
    /// unless ``verified``); nil when the token did not get past the format check.
    package var payloadJSON: [UInt8]?
    /// A notification's nested tokens, each verified on its own.
    package var nested: [NestedOutcome] = []
    /// Set for LocalTesting tokens, which nobody signs: decoded, never verified.
    package var decodedWithoutVerification = false
    /// A receipt's content (unverified unless ``verified``); nil when the input did not pass the format check.
    package var receipt: AppReceipt?
    /// A decoded token's JOSE header (`inspect`, which shows it).
    package var header: JSONValue?
    /// The kind of JWS a developer signed with an In-App Purchase key (not Apple), when the token is one
    /// (`inspect`).
    package var developerKind: DeveloperSignedKind?

    /// An outcome of what the caller knows so far: everything else empty, filled in as the result is read.
    package init(
        form: SignedDataForm, verified: Bool = false, kind: PayloadKind? = nil, error: VerificationError? = nil,
        checks: [CheckLine] = [], chain: [ChainEntry] = [], environment: String? = nil, receipt: AppReceipt? = nil
    ) {
        self.form = form
        self.verified = verified
        self.kind = kind
        self.error = error
        self.checks = checks
        self.chain = chain
        self.environment = environment
        self.receipt = receipt
    }

    /// The name of the first check that failed, or nil (none, or ``checks`` not kept).
    package var failedCheck: String? { checks.first { $0.outcome == VerificationReport.Outcome.failed.rawValue }?.name }

    /// The kind as JSON and `batch`'s summary name it: `receipt`, or the token's payload kind.
    package var kindName: String? { form == .receipt ? SignedDataForm.receiptKind : kind?.rawValue }

    /// An outcome refused before verification (input the CLI could not hand to the verifier, such as an over-long
    /// line or an object without its member; a receipt line in a `batch` that verifies no receipts): its error, in
    /// the format step unless it says otherwise, nothing else run.
    package static func refused(_ form: SignedDataForm, _ error: VerificationError, reporting: Bool = true) -> Self {
        SignedDataOutcome(
            form: form, error: error,
            checks: reporting ? CheckLine.lines(VerificationReport(failure: error)) : [])
    }

    /// An app receipt refused where a token kind was asked for (`batch --kind notification`: the kind is a type gate
    /// on mixed input): `malformedToken` at the format step, with that kind; `option` names how it was asked.
    package static func receiptRefused(asking kind: PayloadKind, by option: String, reporting: Bool = true) -> Self {
        var outcome = refused(
            .token,
            VerificationError(
                .malformedToken, check: .format,
                "the input is an app receipt, not a token; '\(option) \(kind.rawValue)' accepts \(kind.rawValue) tokens only"
            ),
            reporting: reporting)
        outcome.kind = kind
        return outcome
    }

    /// ``refused(_:_:reporting:)`` for input that holds nothing of the form in an accepted shape.
    package static func unreadable(_ form: SignedDataForm, _ message: String) -> Self {
        refused(form, VerificationError(form.unreadableCode, check: .format, message))
    }

    /// Sets ``chain`` to the library's validated chain, with roles and the configured root it matched.
    package mutating func showValidatedChain(_ certificates: [CertificateInfo], trustAnchorNames: [String: String]) {
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
    package static func lines(_ report: VerificationReport) -> [CheckLine] {
        report.steps.map { CheckLine(name: $0.name.rawValue, outcome: $0.outcome.rawValue, detail: $0.detail) }
    }
}
