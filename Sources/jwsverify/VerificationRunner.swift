import Foundation
import JWSVerify

/// Turns tokens and app receipts into ``SignedDataOutcome``s with the library's verifiers, configured once from the
/// trust options: `verify` verifies tokens, `receipt` receipts, `batch` both.
///
/// The verdict, every check and a notification's nested tokens come from the library
/// (``SignedDataVerifier/verifyAndDecode(_:as:)``, ``AppReceiptVerifier``, ``VerificationResult/report``): each
/// input is parsed and verified once, by the library. The runner only gathers what to print: the chain with roles,
/// the payload, and what a refused input claims. It is `Sendable`: `batch` shares one runner, and so one chain cache
/// per verifier, between threads.
struct VerificationRunner: Sendable {
    /// How tokens are handled.
    enum TokenMode: Sendable {
        /// Verified by the library.
        case verify(SignedDataVerifier)
        /// `--environment LocalTesting`: decoded without verification, never verified; the library's
        /// reason it cannot verify such tokens.
        case decodeOnly(VerificationError)
    }

    /// What a runner verifies.
    enum Forms: Sendable {
        /// Tokens (`verify`).
        case tokens
        /// App receipts (`receipt`).
        case receipts
        /// Both (`batch`): a configuration refused for receipts is reported on each receipt line.
        case both
    }

    /// A root certificate file given with `--root`.
    struct RootFile: Sendable {
        /// The path as given.
        var path: String
        /// Its contents, DER or PEM.
        var contents: Data
    }

    /// How tokens are handled; nil when the runner verifies receipts only.
    var tokens: TokenMode?
    /// The receipt verifier, or the library's refusal of the options; nil when the runner verifies tokens only.
    var receipts: Result<AppReceiptVerifier, VerificationError>?
    /// `--kind`; nil recognizes the kind from the payload.
    var kind: PayloadKind?
    /// Whether payloads carry enumeration names and timestamp paths (text output only).
    var annotate = false
    /// Whether a failure also shows the certificates it carries and, for a token whose payload the library did not
    /// decode, its raw payload JSON (one more decoding per failure; `batch` skips it).
    var showsUndecodedDetails = true
    /// How the user configured each trusted root of tokens, by SHA-256 fingerprint.
    var tokenAnchorNames: [String: String] = [:]
    /// How the user configured each trusted root of receipts, by SHA-256 fingerprint.
    var receiptAnchorNames: [String: String] = [:]
    /// Whether the verifiers trust the bundled Apple roots (no `--root` given).
    var usesBundledRoot = false

    /// The largest token the verifier accepts.
    var maximumTokenBytes: Int {
        if case .verify(let verifier)? = tokens { return verifier.maximumTokenBytes }
        return CompactJWS.defaultMaximumBytes
    }

    // MARK: Configuration

    /// Reads the `--root` and `--xcode-certificate` files and configures the library's verifiers of `forms`.
    ///
    /// - Parameters:
    ///   - options: The trust options, `--online` and `--kind`.
    ///   - forms: What the runner verifies.
    ///   - subcommand: The subcommand, for usage errors.
    ///   - annotate: Whether payloads need enumeration names and timestamp paths (text output).
    ///   - showsUndecodedDetails: Whether failures show their carried certificates and raw payload.
    /// - Returns: the runner, or the result to exit with: 66 when a file cannot be read or is empty, 64 when the
    ///   library refuses the configuration (of tokens, in `batch`), in the words of the flags and files given.
    static func make(
        _ options: VerifyOptions, forms: Forms, subcommand: Subcommand, annotate: Bool = false,
        showsUndecodedDetails: Bool
    ) -> Result<VerificationRunner, CommandResult> {
        var runner = VerificationRunner(
            kind: options.kind, annotate: annotate, showsUndecodedDetails: showsUndecodedDetails,
            usesBundledRoot: options.roots.isEmpty)
        if forms != .receipts {
            let configured = options.configure(signedData: "tokens") { roots, xcodeCertificate in
                runner.tokenAnchorNames = trustAnchorNames(
                    roots: roots, bundled: (AppleRootCertificate.rootCAG3SHA256, "Apple Root CA - G3 (bundled)"),
                    xcodeCertificate: xcodeCertificate)
                return tokenMode(options, roots: roots, xcodeCertificate: xcodeCertificate)
            }
            switch configured {
            case .failure(let failure): return .failure(failure.result(subcommand: subcommand))
            case .success(let mode): runner.tokens = mode
            }
        }
        if forms != .tokens {
            let configured = options.configure(signedData: "receipts") { roots, xcodeCertificate in
                runner.receiptAnchorNames = trustAnchorNames(
                    roots: roots, bundled: (AppleRootCertificate.appleIncRootSHA256, "Apple Inc. Root (bundled)"),
                    xcodeCertificate: xcodeCertificate)
                return Result { () throws(VerificationError) in
                    try AppReceiptVerifier(
                        rootCertificates: roots.isEmpty
                            ? AppleRootCertificate.defaultReceiptRoots : roots.map(\.contents),
                        bundleId: options.bundleId, appAppleId: options.appAppleId, environments: options.environments,
                        xcodeCertificate: xcodeCertificate, validationTime: options.at.validationTime)
                }
            }
            switch configured {
            case .success(let verifier): runner.receipts = .success(verifier)
            case .failure(let failure) where forms == .receipts: return .failure(failure.result(subcommand: subcommand))
            case .failure(let failure):
                runner.receipts = .failure(
                    VerificationError(
                        .invalidConfiguration, check: .configuration,
                        "app receipts cannot be verified with these options: \(failure.message)"))
            }
        }
        return .success(runner)
    }

    /// Configures the library's token verifier from the trust options.
    ///
    /// - Returns: how tokens are handled (decoded only for `--environment LocalTesting`), or the library's
    ///   ``VerificationError/Code/invalidConfiguration`` error.
    static func tokenMode(
        _ trust: VerifyOptions, roots: [RootFile], xcodeCertificate: Data?
    ) -> Result<TokenMode, VerificationError> {
        do {
            return .success(
                .verify(
                    try SignedDataVerifier(
                        rootCertificates: roots.isEmpty ? AppleRootCertificate.defaultRoots : roots.map(\.contents),
                        bundleId: trust.bundleId, appAppleId: trust.appAppleId, environments: trust.environments,
                        xcodeCertificate: xcodeCertificate, enableOnlineChecks: trust.online,
                        validationTime: trust.at.validationTime)))
        } catch {
            guard error.remedy == .localTestingCannotBeVerified else { return .failure(error) }
            return .success(.decodeOnly(error))
        }
    }

    /// How the user configured each trusted root, by SHA-256 fingerprint: `--root <path>` for each root file,
    /// the bundled root's name when there is none, `--xcode-certificate` for Xcode's certificate.
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

    // MARK: Tokens

    /// Verifies (or, for LocalTesting, decodes) one token, and its nested tokens for a notification.
    ///
    /// - Parameters:
    ///   - token: The token; a token held as bytes goes to the verifier as bytes.
    ///   - reporting: Whether the outcome carries every check and the chain (`verify`, `batch --report
    ///     full`); `batch`'s compact lines show neither, and skip building them.
    func run(_ token: ShapedInput.Token, reporting: Bool = true) -> SignedDataOutcome {
        switch tokens {
        case .verify(let verifier)?:
            let result =
                switch token {
                case .string(let text): verifier.verifyAndDecode(text, as: kind)
                case .utf8(let bytes): verifier.verifyAndDecode(utf8: bytes, as: kind)
                }
            return outcome(of: result, verifier: verifier, reporting: reporting)
        case .decodeOnly(let reason)?:
            var outcome = SignedDataOutcome.decodedOnly(token.string, kind: kind, reason: reason, annotate: annotate)
            outcome.advise { outcome, _ in
                outcome.decodedWithoutVerification
                    ? FlagAdvice.hint(for: reason, failedStep: nil, environment: nil, usesBundledRoot: false) : nil
            }
            return outcome
        case nil:
            return .refused(
                .token,
                VerificationError(.invalidConfiguration, check: .configuration, "tokens are not verified here"),
                reporting: reporting)
        }
    }

    /// ``run(_:reporting:)`` of a token held as text.
    func run(_ token: String, reporting: Bool = true) -> SignedDataOutcome {
        run(.string(token), reporting: reporting)
    }

    /// What to print of one verification the library made (nested tokens included, as it verified them), with the
    /// hints of the flags.
    private func outcome(
        of result: consuming VerificationResult<DecodedPayload>, verifier: SignedDataVerifier, reporting: Bool
    ) -> SignedDataOutcome {
        var outcome = SignedDataOutcome(
            token: result, kind: kind, annotate: annotate, reporting: reporting,
            showsUndecodedDetails: showsUndecodedDetails, trustAnchorNames: tokenAnchorNames)
        let usesBundledRoot = usesBundledRoot  // captured alone: capturing `self` copies the runner for every token
        outcome.advise {
            FlagAdvice.hint(
                for: $1, failedStep: $0.failedCheck, environment: verifier.environment, usesBundledRoot: usesBundledRoot
            )
        }
        return outcome
    }

    // MARK: Receipts

    /// Verifies one app receipt; refused when ``kind`` names a token kind (`--kind` is a type gate).
    ///
    /// - Parameters:
    ///   - receipt: The receipt file's bytes, or base64 text of them.
    ///   - deviceIdentifier: `--device-guid`, if given.
    ///   - reporting: Whether the outcome carries every check and the chain (`receipt`, `batch --report full`).
    func run(receipt: [UInt8], deviceIdentifier: [UInt8]? = nil, reporting: Bool = true) -> SignedDataOutcome {
        if let kind { return .receiptRefused(asking: kind, by: VerifyCommand.kind.name, reporting: reporting) }
        let verifier: AppReceiptVerifier
        switch receipts {
        case .success(let value)?: verifier = value
        case .failure(let error)?: return .refused(.receipt, error, reporting: reporting)
        case nil:
            return .refused(
                .receipt,
                VerificationError(.invalidConfiguration, check: .configuration, "app receipts are not verified here"),
                reporting: reporting)
        }
        var outcome = SignedDataOutcome(
            receipt: verifier.verifyAndDecodeAppReceipt(bytes: receipt, deviceIdentifier: deviceIdentifier),
            reporting: reporting, undecodedDetailsOf: showsUndecodedDetails ? receipt : nil,
            trustAnchorNames: receiptAnchorNames)
        let usesBundledRoot = usesBundledRoot  // captured alone, as for tokens
        outcome.advise { outcome, error in
            FlagAdvice.receiptHint(
                for: error, failedStep: outcome.failedCheck,
                environments: verifier.environments, claimedReceiptType: outcome.receipt?.receiptType,
                usesBundledRoot: usesBundledRoot)
        }
        return outcome
    }
}
