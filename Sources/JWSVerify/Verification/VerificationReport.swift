import Foundation

/// Every check of one verification with its outcome, for people debugging a token (the CLI prints it).
///
/// The steps follow the verification contract in order. Steps before the failed one passed; steps
/// after it did not run and are reported as skipped. Steps that the configuration turns off (no
/// bundle id given, revocation offline) are skipped with a detail saying why, never reported as passed.
public struct VerificationReport: Sendable, Hashable, Codable {
    /// The name of a step.
    public enum StepName: String, Sendable, Hashable, Codable, CaseIterable {
        case format, algorithm, certificateChain, chainLength, certificates, trust, validity, appleExtensions, leafKey,
            signature, revocation, payload, bundleId, appAppleId, environment
        /// A notification's nested `signedTransactionInfo`, `signedRenewalInfo` and `signedAppTransactionInfo`.
        case nestedTokens
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
        /// What was checked, what was wrong, or why it was skipped.
        public let detail: String

        /// Creates a step.
        public init(name: StepName, outcome: Outcome, detail: String) {
            self.name = name
            self.outcome = outcome
            self.detail = detail
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
    /// batch file too long to be a token): the error's step failed, every other step skipped.
    public init(failure error: VerificationError) {
        let failed = SignedDataVerifier.step(for: error)
        steps = StepName.allCases.map { name in
            name == failed
                ? Step(name: name, outcome: .failed, detail: error.message)
                : Step(name: name, outcome: .skipped, detail: "not run: an earlier check failed")
        }
    }
}

extension SignedDataVerifier {
    /// Explains a verification step by step.
    ///
    /// - Parameter result: A result this verifier returned from ``verifyAndDecode(_:as:)``.
    /// - Returns: the report of every step.
    public func report(for result: VerificationResult<DecodedPayload>) -> VerificationReport {
        let error = result.error
        let failedStep = error.map(Self.step(for:))
        let payload = result.unverifiedPayload
        let claims = payload.map(Self.claims(of:))
        var steps: [VerificationReport.Step] = []
        var reachedFailure = false
        for name in VerificationReport.StepName.allCases {
            if let error, name == failedStep {
                steps.append(.init(name: name, outcome: .failed, detail: error.message))
                reachedFailure = true
                continue
            }
            if reachedFailure {
                steps.append(.init(name: name, outcome: .skipped, detail: "not run: an earlier check failed"))
                continue
            }
            steps.append(passedOrSkipped(name, result: result, claims: claims))
        }
        return VerificationReport(steps: steps)
    }

    private func passedOrSkipped(
        _ name: VerificationReport.StepName, result: VerificationResult<DecodedPayload>, claims: PayloadClaims?
    ) -> VerificationReport.Step {
        let xcode = environment == .xcode
        let verified: Verified<DecodedPayload>? = {
            if case .verified(let value) = result { return value }
            return nil
        }()
        func passed(_ detail: String) -> VerificationReport.Step { .init(name: name, outcome: .passed, detail: detail) }
        func skipped(_ detail: String) -> VerificationReport.Step {
            .init(name: name, outcome: .skipped, detail: detail)
        }
        switch name {
        case .format: return passed("3 segments of strict base64url; header and payload are JSON objects")
        case .algorithm: return passed("alg is ES256, no crit")
        case .certificateChain: return passed("x5c is an array of certificates")
        case .chainLength:
            return passed(xcode ? "1 certificate (StoreKit Testing)" : "3 certificates: leaf, intermediate, root")
        case .certificates: return passed("each entry is base64 of one DER X.509 certificate")
        case .trust:
            if xcode { return passed("x5c[0] is byte-identical to the pinned StoreKit Testing certificate") }
            if let root = verified?.chain.last {
                let name = root.subjectCommonName ?? root.subjectOrganization ?? "without a CN"
                return passed("leaf ← intermediate ← trusted root \(name) (SHA-256 \(root.sha256Fingerprint))")
            }
            return passed("leaf ← intermediate ← a trusted root")
        case .validity:
            if xcode { return skipped("not enforced for StoreKit Testing certificates, as in Xcode") }
            let time = verified.map { ISO8601Text.iso8601($0.validationTime) }
            return passed("every certificate is valid at \(time ?? "the validation time")")
        case .appleExtensions:
            if xcode { return skipped("StoreKit Testing certificates carry no Apple marker") }
            return passed("intermediate has \(AppleOID.intermediateMarker), leaf has \(AppleOID.leafMarker)")
        case .leafKey: return passed("EC P-256")
        case .signature: return passed("ES256 signature verified with the leaf key")
        case .revocation:
            return enableOnlineChecks
                ? passed("OCSP: leaf and intermediate good")
                : skipped("offline: revocation is checked only with online checks")
        case .payload: return passed("decodes as \(result.unverifiedPayload?.kind.description ?? "the expected kind")")
        case .bundleId:
            guard let claims, claims.checksBundleId else { return skipped("this kind carries no bundle id to check") }
            guard let bundleId else {
                return skipped("no bundle id configured; the payload says \(ClaimExpectations.quoted(claims.bundleId))")
            }
            return passed("\"\(bundleId)\"")
        case .appAppleId:
            guard let claims, claims.checksAppAppleId else {
                return skipped("this kind carries no app Apple id to check")
            }
            guard expectations.comparesAppAppleId(claims), let appAppleId else {
                return skipped(
                    "checked in Production with a configured app Apple id; the payload says "
                        + (claims.appAppleId.map(String.init) ?? "nothing"))
            }
            return passed("\(appAppleId)")
        case .environment:
            guard let environment else {
                return skipped(
                    "no environment configured; the payload's \(claims?.environmentField ?? "environment") is "
                        + ClaimExpectations.quoted(claims?.environment?.rawValue))
            }
            return passed("\"\(environment.rawValue)\"")
        case .nestedTokens:
            guard case .notification(let decoded)? = result.unverifiedPayload else {
                return skipped("only notifications carry nested tokens")
            }
            let present = [
                decoded.notification.data?.signedTransactionInfo.map { _ in "signedTransactionInfo" },
                decoded.notification.data?.signedRenewalInfo.map { _ in "signedRenewalInfo" },
                decoded.notification.appData?.signedAppTransactionInfo.map { _ in "signedAppTransactionInfo" },
            ].compactMap { $0 }
            guard !present.isEmpty else { return skipped("the notification carries no nested token") }
            let decodedCount = [decoded.transaction != nil, decoded.renewalInfo != nil, decoded.appTransaction != nil]
                .filter { $0 }.count
            guard decodedCount == present.count else {
                return skipped(
                    "not verified in this call (verifyingNestedTokens: false): \(present.joined(separator: ", "))")
            }
            return passed("verified and decoded: \(present.joined(separator: ", "))")
        }
    }

    static func step(for error: VerificationError) -> VerificationReport.StepName {
        if let step = error.step { return step }
        switch error.code {
        case .malformedToken: return .format
        case .unsupportedAlgorithm: return .algorithm
        case .missingCertificateChain: return .certificateChain
        case .invalidChainLength: return .chainLength
        case .invalidCertificate: return .certificates
        case .untrustedChain: return .trust
        case .certificateExpired: return .validity
        case .missingAppleExtension: return .appleExtensions
        case .unsupportedKey: return .leafKey
        case .invalidSignature: return .signature
        case .revokedCertificate, .revocationUnavailable: return .revocation
        case .invalidAppIdentifier: return .bundleId
        case .invalidEnvironment: return .environment
        default: return .payload
        }
    }

    static func claims(of payload: DecodedPayload) -> PayloadClaims {
        switch payload {
        case .transaction(let value): return value.claims
        case .renewalInfo(let value): return value.claims
        case .appTransaction(let value): return value.claims
        case .notification(let value): return value.notification.claims
        case .realtimeRequest(let value): return value.claims
        }
    }
}
