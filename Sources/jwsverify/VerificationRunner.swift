import Foundation
import JWSVerify

/// Turns tokens into ``TokenOutcome``s with one configured verifier; shared by `verify` and `batch`.
///
/// The verdict, every check and a notification's nested tokens come from the library
/// (``SignedDataVerifier/verifyAndDecode(_:as:)``, ``VerificationResult/report``,
/// ``VerificationResult/nestedTokens``): each token is parsed and verified once, by the library. The
/// runner only gathers what to print: the chain with roles, the payload as JSON, and what a refused
/// token claims. It is `Sendable`: `batch` shares one runner, and so one chain cache, between threads.
struct VerificationRunner: Sendable {
    /// How tokens are handled.
    enum Mode: Sendable {
        /// Verified by the library.
        case verify(SignedDataVerifier)
        /// `--environment LocalTesting`: decoded without verification, never verified; the library's
        /// reason it cannot verify such tokens.
        case decodeOnly(VerificationError)
    }

    /// A root certificate file given with `--root`.
    struct RootFile: Sendable {
        /// The path as given.
        var path: String
        /// Its contents, DER or PEM.
        var contents: Data
    }

    /// How tokens are handled.
    let mode: Mode
    /// `--kind`; nil recognizes the kind from the payload.
    let kind: PayloadKind?
    /// Whether payloads carry enumeration names and timestamp paths (text output only).
    let annotate: Bool
    /// How the user configured each trusted root, by SHA-256 fingerprint.
    let trustAnchorNames: [String: String]
    /// Whether a failed token also shows its `x5c` certificates and, when the library did not decode
    /// the payload, its raw payload JSON (one more decoding per failure; `batch` skips it).
    let showsUndecodedDetails: Bool
    /// `batch`'s verifier of the lines that hold app receipts (``ReceiptBatchLine``), or why the options
    /// configure none; nil outside `batch`.
    var receipts: Result<ReceiptRunner, VerificationError>?

    /// The largest token the verifier accepts.
    var maximumTokenBytes: Int {
        if case .verify(let verifier) = mode { return verifier.maximumTokenBytes }
        return CompactJWS.defaultMaximumBytes
    }

    /// Configures the library's verifier from the options.
    ///
    /// - Parameters:
    ///   - options: The parsed options.
    ///   - roots: The contents of the `--root` files (empty: the bundled Apple Root CA - G3).
    ///   - xcodeCertificate: The contents of the `--xcode-certificate` file.
    ///   - annotate: Whether payloads need enumeration names and timestamp paths (text output).
    ///   - showsUndecodedDetails: Whether failed tokens show their `x5c` certificates and raw payload.
    /// - Returns: the runner, or the library's ``VerificationError/Code/invalidConfiguration`` error.
    static func make(
        options: VerifyOptions, roots: [RootFile], xcodeCertificate: Data?, annotate: Bool, showsUndecodedDetails: Bool
    ) -> Result<VerificationRunner, VerificationError> {
        let names = trustAnchorNames(
            roots: roots, bundled: (AppleRootCertificate.rootCAG3SHA256, "Apple Root CA - G3 (bundled)"),
            xcodeCertificate: xcodeCertificate)
        let mode: Mode
        do {
            let verifier = try SignedDataVerifier(
                rootCertificates: roots.isEmpty ? AppleRootCertificate.defaultRoots : roots.map(\.contents),
                bundleId: options.bundleId, appAppleId: options.appAppleId, environments: options.environments,
                xcodeCertificate: xcodeCertificate, enableOnlineChecks: options.online,
                validationTime: options.at.validationTime)
            mode = .verify(verifier)
        } catch {
            guard error.remedy == .localTestingCannotBeVerified else {
                return .failure(error)
            }
            mode = .decodeOnly(error)
        }
        return .success(
            VerificationRunner(
                mode: mode, kind: options.kind, annotate: annotate, trustAnchorNames: names,
                showsUndecodedDetails: showsUndecodedDetails))
    }

    /// How the user configured each trusted root, by SHA-256 fingerprint: `--root <path>` for each root file,
    /// the bundled root's name when there is none, `--xcode-certificate` for Xcode's certificate.
    ///
    /// - Parameters:
    ///   - roots: The `--root` files.
    ///   - bundled: The fingerprint and name of the root trusted when no `--root` is given.
    ///   - xcodeCertificate: The contents of the `--xcode-certificate` file.
    static func trustAnchorNames(
        roots: [RootFile], bundled: (fingerprint: String, name: String), xcodeCertificate: Data?
    ) -> [String: String] {
        var names: [String: String] = [:]
        if roots.isEmpty { names[bundled.fingerprint] = bundled.name }
        for root in roots {
            if let info = CertificateInfo(derOrPEM: root.contents), names[info.sha256Fingerprint] == nil {
                names[info.sha256Fingerprint] = "\(VerifyCommand.trust.root.name) \(root.path)"
            }
        }
        if let xcodeCertificate, let info = CertificateInfo(derOrPEM: xcodeCertificate) {
            names[info.sha256Fingerprint] = VerifyCommand.trust.xcodeCertificate.name
        }
        return names
    }

    /// Verifies (or, for LocalTesting, decodes) one token, and its nested tokens for a notification.
    ///
    /// - Parameters:
    ///   - token: The token.
    ///   - reporting: Whether the outcome carries every check and the chain (`verify`, `batch --report
    ///     full`); `batch`'s compact lines show neither, and skip building them.
    func run(_ token: String, reporting: Bool = true) -> TokenOutcome {
        run(.string(token), reporting: reporting)
    }

    /// ``run(_:reporting:)`` of a token as an input held it: a token held as bytes goes to the verifier
    /// as bytes.
    func run(_ token: ShapedInput.Token, reporting: Bool = true) -> TokenOutcome {
        switch mode {
        case .verify(let verifier):
            let result =
                switch token {
                case .string(let text): verifier.verifyAndDecode(text, as: kind)
                case .utf8(let bytes): verifier.verifyAndDecode(utf8: bytes, as: kind)
                }
            return outcome(of: result, verifier: verifier, reporting: reporting)
        case .decodeOnly(let reason):
            var outcome = decodeOnly(token.string, kind: kind, reason: reason)
            if let kind = outcome.kind, case .object(let json)? = outcome.payload?.json {
                outcome.nested = kind.nestedTokens(in: json).map { token in
                    NestedOutcome(
                        field: token.field, path: token.path,
                        outcome: decodeOnly(token.token, kind: token.kind, reason: reason))
                }
            }
            return outcome
        }
    }

    /// What to print of one verification the library made (nested tokens included, as it verified them).
    ///
    /// The result is consumed: its payload and trees move into the outcome instead of being copied.
    private func outcome(
        of result: consuming VerificationResult<DecodedPayload>, verifier: SignedDataVerifier, reporting: Bool
    ) -> TokenOutcome {
        var outcome = TokenOutcome(
            verified: false, kind: kind, error: nil, checks: [], chain: [], chainValidated: false)
        func checkLines(_ report: VerificationReport) -> [CheckLine] {
            report.steps.map { CheckLine(name: $0.name.rawValue, outcome: $0.outcome.rawValue, detail: $0.detail) }
        }
        let nestedTokens: [NestedToken]
        switch consume result {
        case .verified(let verified):
            outcome.verified = true
            outcome.kind = verified.payload.kind
            if reporting { outcome.checks = checkLines(verified.report) }
            // JSON output: the tree check 1 parsed, which holds what the model decoded.
            outcome.payload =
                annotate
                ? PayloadDocument(verified.payload, annotate: true)
                : PayloadDocument(json: .object(verified.payloadObject), annotatingAs: nil)
            outcome.payloadJSON = verified.payloadJSON
            outcome.environment = (verified.environment ?? verified.payload.environment)?.rawValue
            outcome.chainValidated = true
            outcome.validationTime = verified.validationTime
            outcome.validatedWithoutSignedDate = verified.validatedWithoutSignedDate
            if reporting {
                outcome.showValidatedChain(verified.chain, verifier: verifier, trustAnchorNames: trustAnchorNames)
            }
            nestedTokens = verified.nestedTokens
        case .failed(let failure):
            // A token refused before its payload was checked still shows what it claims (decoded from the
            // library's own parse, on use).
            let shown = failure.claimedPayload
            outcome.kind = shown?.kind ?? kind ?? failure.kind
            outcome.error = failure.error
            if reporting { outcome.checks = checkLines(failure.report) }
            outcome.payload = shown.map { PayloadDocument($0, annotate: annotate) }
            outcome.payloadJSON = failure.unverifiedPayloadBytes
            outcome.environment = shown?.environment?.rawValue
            outcome.validationTime = failure.validationTime
            outcome.validatedWithoutSignedDate = failure.validatedWithoutSignedDate
            let failedStep = outcome.checks.first { $0.outcome == VerificationReport.Outcome.failed.rawValue }?.name
            outcome.hints =
                FlagAdvice.hint(
                    for: failure.error, failedStep: failedStep, environment: verifier.environment
                ).map { [$0] } ?? []
            if let chain = failure.validatedChain {
                // A later check failed: the chain itself was validated, as for a verified token.
                outcome.chainValidated = true
                if reporting {
                    outcome.showValidatedChain(chain, verifier: verifier, trustAnchorNames: trustAnchorNames)
                }
            } else if showsUndecodedDetails, let header = failure.unverifiedHeader {
                // Show what the token claims, for debugging; the renderers label it as not trusted.
                let certificates = UnverifiedToken.certificates(of: header)
                outcome.chain = Self.roles(certificates.parsed, complete: certificates.problems.isEmpty)
                outcome.certificateProblems = certificates.problems
            }
            if showsUndecodedDetails, failure.unverifiedHeader != nil, outcome.payload == nil,
                let json = failure.unverifiedPayloadJSON
            {
                outcome.payload = Self.rawPayload(json)
            }
            nestedTokens = failure.nestedTokens
        }
        outcome.nested = nestedTokens.map { nested in
            NestedOutcome(
                field: nested.field, path: nested.path,
                outcome: self.outcome(of: nested.result, verifier: verifier, reporting: reporting))
        }
        return outcome
    }

    private func decodeOnly(_ token: String, kind: PayloadKind?, reason: VerificationError) -> TokenOutcome {
        let unverified: UnverifiedToken
        do {
            unverified = try SignedDataVerifier.decodeUnverified(token, as: kind)
        } catch {
            return .failedFormat(error)
        }
        let skipped = "not run: LocalTesting tokens are signed by nobody; the token was decoded without verification"
        var outcome = TokenOutcome(
            verified: false, kind: unverified.kind, error: reason,
            checks: VerificationReport.StepName.tokenSteps.map {
                CheckLine(name: $0.rawValue, outcome: "skipped", detail: skipped)
            },
            chain: Self.roles(unverified.certificates, complete: unverified.certificateProblems.isEmpty),
            chainValidated: false)
        outcome.certificateProblems = unverified.certificateProblems
        outcome.payload =
            unverified.payload.map { PayloadDocument($0, annotate: annotate) }
            ?? Self.rawPayload(unverified.payloadJSON)
        outcome.environment = unverified.payload?.environment?.rawValue
        outcome.payloadJSON = Array(unverified.payloadJSON)
        outcome.decodedWithoutVerification = true
        outcome.hints = FlagAdvice.hint(for: reason, failedStep: nil, environment: nil).map { [$0] } ?? []
        return outcome
    }

    /// Names the role of each certificate: by position when the list is the whole chain, else generically.
    static func roles(_ certificates: [CertificateInfo], complete: Bool) -> [ChainEntry] {
        certificates.enumerated().map { index, info in
            let role: String
            if !complete {
                role = "certificate"
            } else if certificates.count == 1 {
                role = "StoreKit Testing certificate"
            } else {
                role = index < 3 ? ["leaf", "intermediate", "root"][index] : "x5c[\(index)]"
            }
            return ChainEntry(role: role, info: info)
        }
    }

    /// The payload JSON exactly as in the token, for a payload that did not decode as its kind.
    static func rawPayload(_ data: Data) -> PayloadDocument? {
        (try? JSONParser.parseObject(Array(data))).map { PayloadDocument(json: .object($0), annotatingAs: nil) }
    }

}

extension TokenOutcome {
    /// Sets ``chain`` to the library's validated chain, with roles and the configured root it matched.
    mutating func showValidatedChain(
        _ certificates: [CertificateInfo], verifier: SignedDataVerifier, trustAnchorNames: [String: String]
    ) {
        chain = VerificationRunner.roles(certificates, complete: true)
        if let root = chain.indices.last, chain.count > 1 || verifier.environment == .xcode {
            chain[root].trustAnchor = trustAnchorNames[chain[root].info.sha256Fingerprint] ?? "a configured root"
        }
        chainValidated = true
    }

    /// An outcome for a token that did not get past the format check outside a verification (LocalTesting decoding).
    static func failedFormat(_ error: VerificationError) -> TokenOutcome {
        var outcome = TokenOutcome.unreadableToken(error.message)
        outcome.error = error
        return outcome
    }
}
