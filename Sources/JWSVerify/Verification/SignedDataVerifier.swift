import Foundation

/// Verifies and decodes App Store signed data: transactions, renewal infos, app transactions,
/// server notifications (V2) and Retention Messaging realtime requests.
///
/// Each method runs the checks of the verification contract in a fixed order (format, header,
/// chain, signature, payload, claims) and returns a ``VerificationResult``: the typed payload when
/// every check passed, else a ``VerificationError`` naming the first check that failed.
///
/// ```swift
/// let verifier = try SignedDataVerifier(
///     bundleId: "com.example.app", appAppleId: 1234567890, environments: [.production, .sandbox])
/// switch await verifier.verifyAndDecodeTransaction(signedTransaction: signedTransaction) {
/// case .verified(let verified): grant(verified.payload, environment: verified.environment)
/// case .failed(let failure): reject(failure.error)
/// }
/// ```
///
/// The asynchronous methods carry the names and labels of Apple's App Store Server Library and
/// never block a thread of Swift's cooperative pool; the synchronous ones (`verifyAndDecodeTransaction(_:)`,
/// ...) return the same results and block while online checks run.
///
/// A verifier is immutable and `Sendable`: create one per configuration and share it between
/// threads. Its chain cache makes every token after the first with the same `x5c` cost one ES256
/// verification. Copies of a verifier (stored in a handler, captured by a task) share its settings and
/// caches, and a copy costs one reference count.
///
/// Validation time: the payload's `signedDate` (`receiptCreationDate` for an app transaction), as
/// Apple's library does offline, so that a stored token stays verifiable after its leaf expires;
/// the clock's time when the payload has no such date.
public struct SignedDataVerifier: Sendable {
    /// The bundle id every payload must carry, or nil to skip that check.
    public var bundleId: String? { settings.bundleId }
    /// The app Apple id payloads must carry in Production, or nil.
    public var appAppleId: Int64? { settings.appAppleId }
    /// The environments a payload may come from, in the order given; empty to accept whatever the
    /// payload says (inspection only).
    public var environments: [AppStoreEnvironment] { settings.environments }
    /// The environment every payload must name when exactly one is configured; nil when none or
    /// several are (see ``environments``).
    public var environment: AppStoreEnvironment? { environments.count == 1 ? environments[0] : nil }
    /// Whether OCSP revocation checks run (and validation happens at the current time).
    public var enableOnlineChecks: Bool { settings.specific.revocationChecker != nil }
    /// The largest token accepted, in bytes.
    public var maximumTokenBytes: Int { settings.specific.maximumTokenBytes }
    /// When certificates must be valid.
    public var validationTime: ValidationTime { settings.validationTime }

    var clock: @Sendable () -> Date { settings.clock }
    var anchor: TrustAnchor { settings.anchor }
    var chainCache: ChainCache { settings.specific.chainCache }
    var revocationChecker: RevocationChecker? { settings.specific.revocationChecker }
    var claims: ClaimsCheck { settings.claims }

    /// What only a token verifier is made with.
    private struct Specific: Sendable {
        let maximumTokenBytes: Int
        let chainCache: ChainCache
        /// Present exactly when online checks are enabled.
        let revocationChecker: RevocationChecker?
    }

    /// What the verifier was made with, held by reference: a copy of the verifier retains one object.
    private let settings: VerifierSettings<Specific>

    /// Creates a verifier for one environment.
    ///
    /// - Parameters:
    ///   - rootCertificates: DER (or PEM) trusted roots; the default is Apple Root CA - G3
    ///     (``AppleRootCertificate/rootCAG3``). `x5c[2]` of a token is never trusted by itself.
    ///   - bundleId: The app's bundle id. Pass nil only to inspect tokens of unknown origin: the
    ///     bundle id check is then skipped.
    ///   - appAppleId: The app's Apple id; required when `environment` is Production.
    ///   - environment: The environment tokens must come from, or nil to accept any (inspection only).
    ///     For ``AppStoreEnvironment/xcode`` pass `xcodeCertificate`.
    ///   - xcodeCertificate: The StoreKit Testing certificate exported from Xcode (DER or PEM). An
    ///     Xcode token verifies only when its single `x5c` certificate is byte-identical to it.
    ///   - enableOnlineChecks: Check the leaf and intermediate with OCSP, at the current time.
    ///   - revocationTimeout: How long each OCSP request may take (default 5 s).
    ///   - validationTime: When the certificates must be valid (default: the payload's signed date).
    ///   - maximumTokenBytes: The largest token accepted (default 64 KiB).
    ///   - chainCacheCapacity: How many chains to remember (default 64); 0 disables every cache (the
    ///     chain, intermediate and OCSP caches), so that each token's chain is parsed and verified in
    ///     full and each online check asks the responders.
    ///   - clock: The current time, read only when a payload carries no date.
    /// - Throws: ``VerificationError`` with code ``VerificationError/Code/invalidConfiguration``
    ///   when a root does not parse, Production has no app Apple id, or Xcode has no certificate.
    public init(
        rootCertificates: [Data] = AppleRootCertificate.defaultRoots,
        bundleId: String?,
        appAppleId: Int64? = nil,
        environment: AppStoreEnvironment?,
        xcodeCertificate: Data? = nil,
        enableOnlineChecks: Bool = false,
        revocationTimeout: Duration = .seconds(5),
        validationTime: ValidationTime = .signedDate,
        maximumTokenBytes: Int = CompactJWS.defaultMaximumBytes,
        chainCacheCapacity: Int = 64,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) throws(VerificationError) {
        try self.init(
            rootCertificates: rootCertificates, bundleId: bundleId, appAppleId: appAppleId,
            environments: environment.map { [$0] } ?? [], xcodeCertificate: xcodeCertificate,
            enableOnlineChecks: enableOnlineChecks, revocationTimeout: revocationTimeout,
            validationTime: validationTime, maximumTokenBytes: maximumTokenBytes,
            chainCacheCapacity: chainCacheCapacity, clock: clock)
    }

    /// Creates a verifier that accepts tokens from several environments, typically
    /// `[.production, .sandbox]`: one verifier for an endpoint that Apple calls for both.
    ///
    /// The environment comes from each payload. When it is one of `environments`, the claims of that
    /// environment are checked: the app Apple id only in Production, so Sandbox tokens (Apple's TEST
    /// notification among them) need none. Otherwise the token fails with
    /// ``VerificationError/Code/invalidEnvironment``. ``Verified/environment`` says which matched, and
    /// a notification's nested tokens must name the notification's environment.
    ///
    /// The other parameters are those of
    /// ``init(rootCertificates:bundleId:appAppleId:environment:xcodeCertificate:enableOnlineChecks:revocationTimeout:validationTime:maximumTokenBytes:chainCacheCapacity:clock:)``.
    ///
    /// - Parameters:
    ///   - rootCertificates: DER (or PEM) trusted roots; the default is Apple Root CA - G3.
    ///   - bundleId: The app's bundle id (nil skips the check: inspection only).
    ///   - appAppleId: The app's Apple id; required when `environments` include Production.
    ///   - environments: The environments tokens may come from; empty accepts any (inspection only).
    ///     Xcode, which trusts a pinned certificate instead of Apple's roots, must be alone.
    ///   - xcodeCertificate: The StoreKit Testing certificate, with `environments: [.xcode]`.
    ///   - enableOnlineChecks: Check the leaf and intermediate with OCSP, at the current time.
    ///   - revocationTimeout: How long each OCSP request may take (default 5 s).
    ///   - validationTime: When the certificates must be valid (default: the payload's signed date).
    ///   - maximumTokenBytes: The largest token accepted (default 64 KiB).
    ///   - chainCacheCapacity: How many chains to remember (default 64); 0 disables every cache.
    ///   - clock: The current time, read only when a payload carries no date.
    /// - Throws: ``VerificationError`` with code ``VerificationError/Code/invalidConfiguration``
    ///   when a root does not parse, Production has no app Apple id, Xcode has no certificate or
    ///   is not alone, or LocalTesting is among the environments.
    public init(
        rootCertificates: [Data] = AppleRootCertificate.defaultRoots,
        bundleId: String?,
        appAppleId: Int64? = nil,
        environments: [AppStoreEnvironment],
        xcodeCertificate: Data? = nil,
        enableOnlineChecks: Bool = false,
        revocationTimeout: Duration = .seconds(5),
        validationTime: ValidationTime = .signedDate,
        maximumTokenBytes: Int = CompactJWS.defaultMaximumBytes,
        chainCacheCapacity: Int = 64,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) throws(VerificationError) {
        let distinct = Configuration.distinct(environments)
        let anchor = try Configuration.anchor(
            rootCertificates: rootCertificates, xcodeCertificate: xcodeCertificate, environments: distinct,
            appAppleId: appAppleId, enableOnlineChecks: enableOnlineChecks, cachesIntermediates: chainCacheCapacity > 0)
        settings = VerifierSettings(
            bundleId: bundleId, appAppleId: appAppleId, environments: distinct, validationTime: validationTime,
            clock: clock, anchor: anchor,
            specific: Specific(
                maximumTokenBytes: maximumTokenBytes, chainCache: ChainCache(capacity: chainCacheCapacity),
                revocationChecker: enableOnlineChecks
                    ? RevocationChecker(
                        timeout: revocationTimeout, clock: clock, cacheCapacity: chainCacheCapacity > 0 ? 1024 : 0)
                    : nil))
    }
}
