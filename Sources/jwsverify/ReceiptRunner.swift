import Foundation
import JWSVerify

/// Everything the CLI prints about one app receipt, gathered from the library's result and report.
///
/// The verdict, the code and every check outcome are the library's (``AppReceiptVerifier``); this type only
/// carries them to the renderers, with the chain and the receipt in printable form.
struct ReceiptOutcome: SignedDataOutcome {
    /// Whether the library verified the receipt.
    var verified: Bool
    /// Why the receipt did not verify.
    var error: VerificationError?
    /// Every step of the library's report, in order (empty in `batch`'s compact lines).
    var checks: [CheckLine]
    /// The validated chain (signer, intermediate, the trusted root that matched; or the StoreKit Testing
    /// certificate) when ``chainValidated``; otherwise the certificates the receipt embeds, as decoded.
    var chain: [ChainEntry] = []
    /// Whether ``chain`` is the validated chain.
    var chainValidated = false
    /// What was wrong with embedded certificates that did not parse (unvalidated chains only).
    var certificateProblems: [String] = []
    /// When the certificates were checked, once the checks reached them.
    var validationTime: Date?
    /// Whether ``validationTime`` is the current time because the receipt has no creation date.
    var validatedWithoutCreationDate = false
    /// What to type, or not, after this failure, in the words of the flags (``FlagAdvice``).
    var hints: [String] = []
    /// The decoded receipt (unverified unless ``verified``); nil when the input did not pass the format check.
    var receipt: AppReceipt?
    /// The environment: as the claims check accepted it when verified, else as the receipt type names it.
    var environment: String?

    /// 0 when verified, else 1.
    var exitCode: Int32 { verified ? ExitCode.verified : ExitCode.notVerified }

    /// The note on a validation time taken from the clock for lack of a creation date, naming `--at`.
    var validationTimeNote: String? { validatedWithoutCreationDate ? FlagAdvice.withoutCreationDate() : nil }

    /// An outcome for input the CLI could not hand to the verifier as a receipt (a `receipt-data` object
    /// without its member, an over-long input): `malformedReceipt` in the format step, nothing else run.
    static func unreadable(_ message: String) -> ReceiptOutcome {
        let error = VerificationError(.malformedReceipt, check: .format, message)
        return ReceiptOutcome(
            verified: false, error: error, checks: CheckLine.lines(VerificationReport(failure: error)))
    }

    /// The receipt's JSON: the `Codable` form of ``AppReceipt``, the old `verifyReceipt` response's `receipt`
    /// object (values as strings), as a tree for ``JSONWriter``; null when it cannot be written (a date outside the
    /// years 0 to 9999). Read from the library's bytes (``AppReceipt/appendJSON(to:)``), which `batch` writes as
    /// they are.
    static func json(_ receipt: AppReceipt) -> JSONValue {
        var bytes: [UInt8] = []
        guard receipt.appendJSON(to: &bytes), let value = try? JSONParser.parseValue(bytes) else { return .null }
        return value
    }
}

extension CheckLine {
    /// The lines of a library report, in order.
    static func lines(_ report: VerificationReport) -> [CheckLine] {
        report.steps.map { CheckLine(name: $0.name.rawValue, outcome: $0.outcome.rawValue, detail: $0.detail) }
    }
}

/// Turns app receipts into ``ReceiptOutcome``s with one configured ``AppReceiptVerifier``; used by `receipt`
/// and `batch` (one shared runner, and so one chain cache, between `batch`'s threads).
struct ReceiptRunner: Sendable {
    /// The library's verifier.
    let verifier: AppReceiptVerifier
    /// How the user configured each trusted root, by SHA-256 fingerprint.
    let trustAnchorNames: [String: String]
    /// Whether the verifier trusts the bundled Apple Inc. Root (no `--root` given).
    let usesBundledRoot: Bool
    /// Whether a receipt refused before its chain was validated still shows the certificates it embeds (one
    /// more parse per failure; `batch` skips it).
    let showsUndecodedDetails: Bool

    /// How the bundled root is named where a chain ends in it.
    static let bundledRootName = "Apple Inc. Root (bundled)"

    /// Configures the library's receipt verifier.
    ///
    /// - Parameters:
    ///   - trust: The trust options.
    ///   - roots: The `--root` files (empty: the bundled Apple Inc. Root).
    ///   - xcodeCertificate: The contents of the `--xcode-certificate` file.
    ///   - showsUndecodedDetails: Whether refused receipts show their embedded certificates.
    /// - Returns: the runner, or the library's ``VerificationError/Code/invalidConfiguration`` error.
    static func make(
        _ trust: TrustOptions, roots: [VerificationRunner.RootFile], xcodeCertificate: Data?,
        showsUndecodedDetails: Bool
    ) -> Result<ReceiptRunner, VerificationError> {
        do {
            let verifier = try AppReceiptVerifier(
                rootCertificates: roots.isEmpty ? AppleRootCertificate.defaultReceiptRoots : roots.map(\.contents),
                bundleId: trust.bundleId, appAppleId: trust.appAppleId, environments: trust.environments,
                xcodeCertificate: xcodeCertificate, validationTime: trust.at.validationTime)
            let names = VerificationRunner.trustAnchorNames(
                roots: roots, bundled: (AppleRootCertificate.appleIncRootSHA256, bundledRootName),
                xcodeCertificate: xcodeCertificate)
            return .success(
                ReceiptRunner(
                    verifier: verifier, trustAnchorNames: names, usesBundledRoot: roots.isEmpty,
                    showsUndecodedDetails: showsUndecodedDetails))
        } catch {
            return .failure(error)
        }
    }

    /// Verifies one receipt.
    ///
    /// - Parameters:
    ///   - receipt: The receipt file's bytes, or base64 text of them.
    ///   - deviceIdentifier: `--device-guid`, if given.
    ///   - reporting: Whether the outcome carries every check and the chain (`receipt`, `batch --report full`).
    func run(_ receipt: [UInt8], deviceIdentifier: [UInt8]? = nil, reporting: Bool = true) -> ReceiptOutcome {
        let result = verifier.verifyAndDecodeAppReceipt(bytes: receipt, deviceIdentifier: deviceIdentifier)
        var outcome = ReceiptOutcome(
            verified: result.isVerified, error: result.error, checks: reporting ? CheckLine.lines(result.report) : [])
        switch result {
        case .verified(let verified):
            outcome.receipt = verified.payload
            outcome.environment = (verified.environment ?? verified.payload.environment)?.rawValue
            outcome.validationTime = verified.validationTime
            outcome.validatedWithoutCreationDate = verified.validatedWithoutSignedDate
            if reporting { outcome.showValidatedChain(verified.chain, trustAnchorNames: trustAnchorNames) }
        case .failed(let failure):
            let claimed = failure.claimedPayload
            outcome.receipt = claimed
            outcome.environment = claimed?.environment?.rawValue
            outcome.validationTime = failure.validationTime
            outcome.validatedWithoutCreationDate = failure.validatedWithoutSignedDate
            let failedStep = result.report.failedStep?.name.rawValue
            outcome.hints =
                FlagAdvice.receiptHint(
                    for: failure.error, failedStep: failedStep, environments: verifier.environments,
                    claimedReceiptType: claimed?.receiptType, usesBundledRoot: usesBundledRoot
                ).map { [$0] } ?? []
            if let chain = failure.validatedChain {
                // A later check failed: the chain itself was validated, as for a verified receipt.
                if reporting { outcome.showValidatedChain(chain, trustAnchorNames: trustAnchorNames) }
                outcome.chainValidated = true
            } else if showsUndecodedDetails, claimed != nil,
                let unverified = try? AppReceiptVerifier.decodeUnverified(receipt)
            {
                // Show what the receipt embeds, for debugging; the renderers label it as not validated.
                outcome.chain = Self.roles(unverified)
                outcome.certificateProblems = unverified.certificateProblems
            }
        }
        return outcome
    }

    /// The embedded certificates of an unverified receipt, the one its SignerInfo names marked as its signer.
    static func roles(_ unverified: UnverifiedAppReceipt) -> [ChainEntry] {
        unverified.certificates.enumerated().map { index, info in
            ChainEntry(
                role: index == unverified.signerIndex ? "signer (named by the SignerInfo)" : "certificate", info: info)
        }
    }
}

extension ReceiptOutcome {
    /// Sets ``chain`` to the library's validated chain, with roles and the configured root it matched.
    mutating func showValidatedChain(_ certificates: [CertificateInfo], trustAnchorNames: [String: String]) {
        let roles =
            certificates.count == 1 ? ["StoreKit Testing certificate"] : ["receipt signer", "intermediate", "root"]
        chain = certificates.enumerated().map { index, info in
            ChainEntry(role: index < roles.count ? roles[index] : "certificate \(index)", info: info)
        }
        if let last = chain.indices.last {
            chain[last].trustAnchor = trustAnchorNames[chain[last].info.sha256Fingerprint] ?? "a configured root"
        }
        chainValidated = true
    }
}
