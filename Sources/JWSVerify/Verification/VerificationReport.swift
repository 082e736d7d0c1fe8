import Foundation

/// Every check of one verification with its outcome, for people debugging a token (the CLI prints it).
///
/// The report is written while the checks run (`ReportRecorder`): each check records that it
/// passed, was skipped and why, or failed with the error's message. Steps after a failure did not
/// run and say so. Steps that the configuration turns off (no bundle id given, revocation offline)
/// are skipped with a detail saying why, never reported as passed.
public struct VerificationReport: Sendable, Hashable, Codable {
    /// The name of a step. A token's report has the steps of ``tokenSteps``, an app receipt's those of
    /// ``receiptSteps``, each in its contract's order (the numbers of Docs/ErrorCodes.md); the cases are
    /// declared in the order they were added, and raw values never change.
    public enum StepName: String, Sendable, Hashable, Codable, CaseIterable {
        /// Token 1, receipt 1. Size, segments, base64url, JSON; a receipt's CMS envelope.
        case format
        /// Token 2, receipt 2. `alg` is `ES256`, no `crit`; a receipt's digest and RSA signature algorithm.
        case algorithm
        /// Token 3, receipt 3. `x5c` is an array of strings; the certificate a receipt's SignerInfo names
        /// is embedded.
        case certificateChain
        /// Token 4. Three certificates (one for a pinned Xcode certificate).
        case chainLength
        /// Token 5, receipt 3. Each entry is one DER certificate; the key of a receipt's signer reads.
        case certificates
        /// Token 6, receipt 4. The chain leads to a configured root (or is the pinned Xcode certificate).
        case trust
        /// Token 7, receipt 5. Every certificate is valid at the validation time.
        case validity
        /// Token 8, receipt 6. Apple's marker extensions.
        case appleExtensions
        /// Token 9. The leaf key is a valid EC P-256 key.
        case leafKey
        /// Token 10, receipt 8. The ES256 signature; a receipt's signature over its content.
        case signature
        /// Token 11. OCSP, with online checks.
        case revocation
        /// Token 12. The payload decodes as its kind.
        case payload
        /// Token 13, receipt 9. Bundle id, app Apple id, environment.
        case bundleId, appAppleId, environment
        /// Receipt 10. An app receipt's SHA-1 hash against the device identifier, when one was given.
        case deviceHash
        /// A notification's nested `signedTransactionInfo`, `signedRenewalInfo` and `signedAppTransactionInfo`.
        case nestedTokens
        /// Receipt 1. The receipt's content decodes as its attributes (read at check 1: its creation date
        /// is the validation time).
        case content
        /// Receipt 7. The signer's key is RSA of at least 2048 bits.
        case signerKey

        /// The steps of a token's report (``SignedDataVerifier``), in the token contract's order.
        public static let tokenSteps: [StepName] = [
            .format, .algorithm, .certificateChain, .chainLength, .certificates, .trust, .validity,
            .appleExtensions, .leafKey, .signature, .revocation, .payload, .bundleId, .appAppleId, .environment,
            .deviceHash, .nestedTokens,
        ]

        /// The steps of an app receipt's report (``AppReceiptVerifier``), in the receipt contract's order.
        public static let receiptSteps: [StepName] = [
            .format, .content, .algorithm, .certificateChain, .certificates, .trust, .validity, .appleExtensions,
            .signerKey, .signature, .bundleId, .appAppleId, .environment, .deviceHash,
        ]

        /// A token's steps (``tokenSteps``): where a check's first step is looked up.
        static var order: [StepName] { tokenSteps }

        /// The steps of a report on `envelope`, in its contract's order.
        static func order(of envelope: SignedEnvelope) -> [StepName] {
            switch envelope {
            case .jws: return tokenSteps
            case .cms: return receiptSteps
            }
        }

        /// The check this step belongs to.
        public var check: VerificationError.Check {
            switch self {
            case .format, .content: return .format
            case .algorithm, .certificateChain, .chainLength: return .header
            case .certificates, .trust, .validity, .appleExtensions, .leafKey, .signerKey: return .chain
            case .signature: return .signature
            case .revocation: return .revocation
            case .payload: return .payload
            case .bundleId, .appAppleId, .environment, .deviceHash: return .claims
            // A nested failure keeps its own check; this is the step's place in the contract.
            case .nestedTokens: return .nestedTokens
            }
        }
    }

    /// What happened to a step.
    public enum Outcome: String, Sendable, Hashable, Codable {
        case passed, failed, skipped
    }

    /// One step.
    public struct Step: Sendable, Hashable, Codable {
        /// The step's name.
        public let name: StepName
        /// Passed, failed or skipped.
        public let outcome: Outcome
        let content: Detail

        /// What was checked, what was wrong, or why it was skipped.
        public var detail: String { content.text }

        /// Creates a step.
        public init(name: StepName, outcome: Outcome, detail: String) {
            self.init(name, outcome, .text(detail))
        }

        init(_ name: StepName, _ outcome: Outcome, _ content: Detail) {
            self.name = name
            self.outcome = outcome
            self.content = content
        }

        private enum CodingKeys: String, CodingKey { case name, outcome, detail }

        /// Decodes `name`, `outcome` and `detail`.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(
                name: try container.decode(StepName.self, forKey: .name),
                outcome: try container.decode(Outcome.self, forKey: .outcome),
                detail: try container.decode(String.self, forKey: .detail))
        }

        /// Encodes `name`, `outcome` and `detail`.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(outcome, forKey: .outcome)
            try container.encode(detail, forKey: .detail)
        }

        /// Steps are equal when their name, outcome and detail text are.
        public static func == (lhs: Step, rhs: Step) -> Bool {
            lhs.name == rhs.name && lhs.outcome == rhs.outcome && lhs.detail == rhs.detail
        }

        /// Hashes what `==` compares.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(name)
            hasher.combine(outcome)
            hasher.combine(detail)
        }
    }

    /// A step's detail, kept as recorded and turned into text only when read, so that recording a
    /// verified token's report costs no string formatting.
    enum Detail: Sendable, Hashable {
        case text(String)
        /// `leaf ← intermediate ← trusted root NAME (SHA-256 …)`.
        case trustedRoot(name: String, fingerprint: String)
        /// Every certificate is valid at this time (seconds since 1970).
        case validAt(Int64)
        /// Every certificate is valid at the validation time the recorder was given: recorded this
        /// way, a remembered chain's steps replay unchanged for tokens validated at other times.
        case validAtValidationTime
        /// A configured value that matched, quoted.
        case matched(String)
        /// The payload decodes as this kind.
        case decodesAs(PayloadKind)

        var text: String {
            switch self {
            case .text(let text): return text
            case .trustedRoot(let name, let fingerprint):
                return "leaf ← intermediate ← trusted root \(name) (SHA-256 \(fingerprint))"
            case .validAt(let seconds):
                return "every certificate is valid at \(ISO8601Text.iso8601(seconds: seconds))"
            case .validAtValidationTime: return "every certificate is valid at the validation time"
            case .matched(let value): return "\"\(EscapedText.escaped(value))\""
            case .decodesAs(let kind): return "decodes as \(kind)"
            }
        }
    }

    /// The steps, in order.
    public let steps: [Step]

    /// The step that failed, if any.
    public var failedStep: Step? { steps.first { $0.outcome == .failed } }

    /// Creates a report from its steps.
    public init(steps: [Step]) {
        self.steps = steps
    }

    /// The report of input that failed before any other check could run (for example a line of a
    /// batch file too long to be a token): the error's step failed, every other step of a token's report
    /// skipped.
    public init(failure error: VerificationError) {
        var recorder = ReportRecorder()
        recorder.failed(error)
        self = recorder.report
    }
}

/// Writes a ``VerificationReport`` while the checks run, in the order of the contract of its envelope
/// (``VerificationReport/StepName/tokenSteps`` or ``VerificationReport/StepName/receiptSteps``).
struct ReportRecorder: Sendable {
    private var steps: [VerificationReport.Step] = []
    /// The signed data reported on, which decides the steps and their order.
    let envelope: SignedEnvelope
    /// The steps of the report, in order.
    var order: [VerificationReport.StepName] { VerificationReport.StepName.order(of: envelope) }
    /// The validation time of the token (seconds since 1970), once known: what a validity step
    /// recorded as ``VerificationReport/Detail/validAtValidationTime`` says.
    var validationTime: Int64?
    /// The chain that passed checks 5 to 9, leaf first, ending in the trusted root, once it did: what
    /// a failure of a later check reports as validated (``VerificationFailure/validatedChain``).
    var validatedChain: [CertificateInfo]?
    /// Whether ``validationTime`` is the current time because the payload has no signed date
    /// (``ValidationTime/signedDate`` offline).
    var validatedWithoutSignedDate = false

    /// A recorder for signed data of `envelope` (default: a token).
    init(for envelope: SignedEnvelope = .jws) {
        self.envelope = envelope
        steps.reserveCapacity(VerificationReport.StepName.order(of: envelope).count)
    }

    /// Records that `name` passed.
    mutating func passed(_ name: VerificationReport.StepName, _ detail: VerificationReport.Detail) {
        steps.append(.init(name, .passed, detail))
    }

    /// Records that `name` passed.
    mutating func passed(_ name: VerificationReport.StepName, _ detail: String) {
        passed(name, .text(detail))
    }

    /// Records that `name` was not run, and why.
    mutating func skipped(_ name: VerificationReport.StepName, _ why: String) {
        steps.append(.init(name, .skipped, .text(why)))
    }

    /// Records the failure of the error's step; every later step is reported as not run. A step
    /// recorded before at or after the failed one (an error naming an earlier step than the check that
    /// threw it had reached) is dropped, so that the report always shows the failure.
    mutating func failed(_ error: VerificationError) {
        let name = error.step ?? .format
        let order = self.order
        if let position = order.firstIndex(of: name) {
            steps.removeAll { order.firstIndex(of: $0.name).map { $0 >= position } ?? false }
        }
        steps.append(.init(name, .failed, .text(error.message)))
    }

    /// The steps recorded from `first` through `last`, to replay for a remembered chain.
    func recorded(
        from first: VerificationReport.StepName, through last: VerificationReport.StepName
    )
        -> [VerificationReport.Step]
    {
        let order = self.order
        guard let low = order.firstIndex(of: first), let high = order.firstIndex(of: last) else { return [] }
        return steps.filter { step in order.firstIndex(of: step.name).map { low <= $0 && $0 <= high } ?? false }
    }

    /// Records `remembered` (steps recorded when a chain was checked in full) again, for a token whose
    /// chain the chain cache holds; their validity step says this token's validation time.
    mutating func replay(_ remembered: [VerificationReport.Step]) {
        steps.append(contentsOf: remembered)
    }

    /// The report: every step in contract order; one not recorded did not run.
    var report: VerificationReport {
        var recorded = steps[...]
        return VerificationReport(
            steps: order.map { name in
                if let next = recorded.first, next.name == name {
                    recorded.removeFirst()
                    if case .validAtValidationTime = next.content, let validationTime {
                        return .init(next.name, next.outcome, .validAt(validationTime))
                    }
                    return next
                }
                return .init(name, .skipped, .text("not run: an earlier check failed"))
            })
    }
}
