import Foundation

/// Why a token was not verified: a stable code, the check that failed and a human message.
///
/// Every failure of JWSVerify, from a malformed token to a bundle id that does not match, is one
/// `VerificationError`. Programs branch on ``code`` (stable strings that are never renamed, only
/// added to); people read ``message``. Where OpenSSL gave a reason, ``underlying`` keeps its text.
///
/// Two errors are equal when their codes are equal.
public struct VerificationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The stable identifier of a failure. Its ``rawValue`` is what the CLI prints and `--json` writes.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The stable string, as in `--json` output and Docs/ErrorCodes.md.
        public let rawValue: String
        /// Wraps a string; prefer the static constants.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The raw value.
        public var description: String { rawValue }

        /// Over the size limit, not three segments, not strict base64url, or header or payload not a JSON object.
        public static let malformedToken = Code(rawValue: "malformedToken")
        /// `alg` is not exactly `ES256`, or the header has a `crit` member.
        public static let unsupportedAlgorithm = Code(rawValue: "unsupportedAlgorithm")
        /// No `x5c` header member, or it is not an array of strings.
        public static let missingCertificateChain = Code(rawValue: "missingCertificateChain")
        /// `x5c` does not hold exactly three certificates (one for an Xcode token).
        public static let invalidChainLength = Code(rawValue: "invalidChainLength")
        /// An `x5c` entry is not standard base64 of exactly one DER certificate.
        public static let invalidCertificate = Code(rawValue: "invalidCertificate")
        /// The chain does not lead to a trusted root, or a certificate signature is bad.
        public static let untrustedChain = Code(rawValue: "untrustedChain")
        /// A certificate of the chain is not valid at the validation time.
        public static let certificateExpired = Code(rawValue: "certificateExpired")
        /// The intermediate or the leaf lacks Apple's marker extension.
        public static let missingAppleExtension = Code(rawValue: "missingAppleExtension")
        /// The leaf key is not an EC P-256 key.
        public static let unsupportedKey = Code(rawValue: "unsupportedKey")
        /// The ES256 signature does not verify, or is not 64 bytes of R‖S.
        public static let invalidSignature = Code(rawValue: "invalidSignature")
        /// OCSP says the leaf or the intermediate was revoked.
        public static let revokedCertificate = Code(rawValue: "revokedCertificate")
        /// The revocation status could not be learned; retrying later may succeed.
        public static let revocationUnavailable = Code(rawValue: "revocationUnavailable")
        /// The payload is not the expected App Store type.
        public static let payloadDecodingFailed = Code(rawValue: "payloadDecodingFailed")
        /// The bundle id or app Apple id does not match the verifier's configuration.
        public static let invalidAppIdentifier = Code(rawValue: "invalidAppIdentifier")
        /// The payload's environment does not match the verifier's configuration.
        public static let invalidEnvironment = Code(rawValue: "invalidEnvironment")
        /// An app receipt that is not a CMS SignedData over id-data content with exactly one signer, whose
        /// content is absent (detached), or whose content is not the strict DER of a receipt's attributes.
        public static let malformedReceipt = Code(rawValue: "malformedReceipt")
        /// An app receipt's SHA-1 hash (field 5) is not SHA-1 of the device identifier, the opaque value
        /// and the bundle id: the receipt was issued to another device.
        public static let deviceHashMismatch = Code(rawValue: "deviceHashMismatch")
        /// The verifier was configured in a way that cannot verify anything (for example Production
        /// without an app Apple id, or no usable root certificate).
        public static let invalidConfiguration = Code(rawValue: "invalidConfiguration")
        /// An App Store Server API response whose envelope (`bundleId`, `appAppleId`, `environment`) disagrees with
        /// the verifier's configuration or leaves out its `bundleId` or `environment`, or a verified item of it that
        /// disagrees with its envelope, with the `originalTransactionId` its entry states, or (Get Transaction Info)
        /// with the transaction id asked for (reported by the `AppStoreServerAPI` client, never by a token's own
        /// verification).
        public static let envelopeMismatch = Code(rawValue: "envelopeMismatch")

        /// Every code JWSVerify defines, in the order of the verification contract.
        public static let all: [Code] = [
            .malformedToken, .unsupportedAlgorithm, .missingCertificateChain, .invalidChainLength,
            .invalidCertificate, .untrustedChain, .certificateExpired, .missingAppleExtension, .unsupportedKey,
            .invalidSignature, .revokedCertificate, .revocationUnavailable, .payloadDecodingFailed,
            .invalidAppIdentifier, .invalidEnvironment, .malformedReceipt, .deviceHashMismatch, .invalidConfiguration,
            .envelopeMismatch,
        ]

        /// The name of the matching case of Apple's `VerificationStatus`
        /// (App Store Server Library), for teams migrating from it.
        public var appleVerificationStatus: String {
            switch self {
            case .invalidChainLength: return "INVALID_CHAIN_LENGTH"
            case .invalidCertificate, .untrustedChain, .certificateExpired, .missingAppleExtension, .unsupportedKey,
                .revokedCertificate:
                return "INVALID_CERTIFICATE"
            case .revocationUnavailable: return "RETRYABLE_VERIFICATION_FAILURE"
            case .invalidAppIdentifier: return "INVALID_APP_IDENTIFIER"
            case .invalidEnvironment: return "INVALID_ENVIRONMENT"
            case .invalidConfiguration: return "FAILURE"
            default: return "VERIFICATION_FAILURE"
            }
        }
    }

    /// The step of the verification contract that failed.
    public struct Check: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The stable string, as in `--json` output and Docs/ErrorCodes.md.
        public let rawValue: String
        /// Wraps a string; prefer the static constants.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The raw value.
        public var description: String { rawValue }

        /// Size, segments, base64url, JSON.
        public static let format = Check(rawValue: "format")
        /// `alg`, `crit`, `x5c` presence and length.
        public static let header = Check(rawValue: "header")
        /// Certificates, trust, validity dates, Apple's marker extensions, leaf key type.
        public static let chain = Check(rawValue: "chain")
        /// The ES256 signature.
        public static let signature = Check(rawValue: "signature")
        /// OCSP revocation status (online checks only).
        public static let revocation = Check(rawValue: "revocation")
        /// Decoding the payload into its App Store type.
        public static let payload = Check(rawValue: "payload")
        /// Bundle id, app Apple id and environment.
        public static let claims = Check(rawValue: "claims")
        /// A notification's nested tokens (`signedTransactionInfo`, ...): one of them failed its own
        /// checks; ``VerificationError/nestedField`` names it and ``VerificationError/nestedCheck`` says
        /// which of its checks failed.
        public static let nestedTokens = Check(rawValue: "nestedTokens")
        /// The verifier's own configuration.
        public static let configuration = Check(rawValue: "configuration")

        /// The checks in the order they run.
        public static let all: [Check] = [
            .format, .header, .chain, .signature, .revocation, .payload, .claims, .nestedTokens,
        ]
    }

    /// The stable code of this failure.
    public let code: Code
    /// The check that failed.
    public let check: Check
    /// A sentence for people: what was wrong, with the value that was wrong where it helps.
    public let message: String
    /// OpenSSL's own error text, when OpenSSL reported one.
    public let underlying: String?
    /// For a failure of check ``Check/nestedTokens``: the member of the notification that holds the
    /// token that failed (`signedTransactionInfo`, `signedRenewalInfo`, `signedAppTransactionInfo`);
    /// nil for every other failure. ``code`` is then the nested token's own code.
    public let nestedField: String?
    /// For a failure of check ``Check/nestedTokens``: the check that the nested token failed
    /// (``Check/format`` for a nested token that is not a JWS, ...); nil otherwise.
    public let nestedCheck: Check?
    /// The step of ``VerificationReport`` that failed, named by the check that failed (nil for a
    /// configuration error, which no report holds).
    let step: VerificationReport.StepName?
    /// What the caller could change, for callers that word it in their own terms (the CLI names its
    /// flags where ``message`` names the library's parameters and methods); nil when nothing applies.
    package let remedy: Remedy?

    /// What a caller could change about a failure, decided where the failure is: ``message`` says the
    /// same in the library's terms.
    package enum Remedy: Sendable, Equatable {
        /// Production needs the app's Apple id (`appAppleId`).
        case appAppleIdRequired
        /// LocalTesting tokens are signed by nobody: decode them without verification.
        case localTestingCannotBeVerified
        /// Online checks do not apply to Xcode tokens.
        case xcodeWithoutOnlineChecks
        /// Xcode tokens need a verifier of their own.
        case xcodeAlone
        /// Xcode tokens need the StoreKit Testing certificate exported from Xcode.
        case xcodeCertificateRequired
        /// The StoreKit Testing certificate given is not a certificate with a key.
        case xcodeCertificateUnreadable
        /// The root certificate at this index of `rootCertificates` is not a certificate.
        case rootUnreadable(index: Int)
        /// OpenSSL refused the roots as a trust store.
        case rootsRefused
        /// The payload is of this other kind: verify it as that kind.
        case otherKind(PayloadKind)
        /// The payload is of no recognizable kind: name the kind to verify it as.
        case kindRequired
        /// A StoreKit Testing token given to a verifier of Apple's roots: configure Xcode.
        case xcodeToken
        /// A token of Apple's chain shape given to an Xcode verifier: verify it with Apple's roots.
        case notAnXcodeToken
    }

    /// Creates an error. It fails the first step of `check` in a ``VerificationReport``.
    public init(_ code: Code, check: Check, _ message: String, underlying: String? = nil) {
        self.init(code, check: check, message, underlying: underlying, step: check.firstStep)
    }

    /// An error of the check that owns `step` (see ``VerificationReport/StepName/check``).
    init(
        _ code: Code, step: VerificationReport.StepName, _ message: String, underlying: String? = nil,
        remedy: Remedy? = nil
    ) {
        self.init(code, check: step.check, message, underlying: underlying, step: step, remedy: remedy)
    }

    init(
        _ code: Code, check: Check, _ message: String, underlying: String? = nil, step: VerificationReport.StepName?,
        nestedField: String? = nil, nestedCheck: Check? = nil, remedy: Remedy? = nil
    ) {
        self.remedy = remedy
        self.code = code
        self.check = check
        self.message = message
        self.underlying = underlying.flatMap { $0.isEmpty ? nil : $0 }
        self.step = step
        self.nestedField = nestedField
        self.nestedCheck = nestedCheck
    }

    /// True only for ``Code/revocationUnavailable``: the same token may verify when tried again.
    public var isRetryable: Bool { code == .revocationUnavailable }

    /// `code (check): message`, with OpenSSL's text when there is one.
    public var description: String {
        var text = "\(code.rawValue) (\(check.rawValue)): \(message)"
        if let underlying { text += " [OpenSSL: \(underlying)]" }
        return text
    }

    /// Errors are equal when their codes are.
    public static func == (lhs: VerificationError, rhs: VerificationError) -> Bool { lhs.code == rhs.code }
    /// Hashes the code only, consistent with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}

extension VerificationError: LocalizedError {
    /// ``message``: what `error.localizedDescription` returns, instead of Foundation's "The operation could
    /// not be completed. (JWSVerify.VerificationError error 1.)". ``description`` adds the code and check.
    public var errorDescription: String? { message }
}

extension VerificationError {
    static func malformed(_ message: String) -> VerificationError {
        VerificationError(.malformedToken, step: .format, message)
    }
}

extension VerificationError.Check {
    /// The first step of this check in a ``VerificationReport`` (from ``VerificationReport/StepName/check``,
    /// the one table of steps and checks); nil for ``configuration``.
    var firstStep: VerificationReport.StepName? {
        VerificationReport.StepName.order.first { $0.check == self }
    }
}
