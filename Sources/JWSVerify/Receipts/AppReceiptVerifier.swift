import Foundation

/// Verifies and decodes StoreKit 1 app receipts (`Bundle.main.appStoreReceiptURL`): a PKCS #7 / CMS
/// SignedData signed by Apple's "Mac App Store and iTunes Store Receipt Signing" certificate under
/// Apple Inc. Root, checked locally, with no call to Apple's deprecated `verifyReceipt` endpoint.
///
/// ```swift
/// let verifier = try AppReceiptVerifier(bundleId: "com.example.app", environments: [.production, .sandbox])
/// switch verifier.verifyAndDecodeAppReceipt(receiptBase64) {
/// case .verified(let verified): grant(verified.payload.inApp)
/// case .failed(let failure): reject(failure.error)
/// }
/// ```
///
/// The checks run in the order of the receipt contract (Docs/ErrorCodes.md): format, algorithms,
/// signer, chain (trust, validity, Apple's marker extensions on the signer and on its issuer, RSA key
/// of at least 2048 bits), signature, then the bundle id, the app Apple id (Production), the
/// environment and, when a device identifier is given, the receipt's device hash, each recorded in the
/// report under the receipt's own step names (``VerificationReport/StepName/receiptSteps``). The result is a
/// ``VerificationResult`` as for App Store tokens; a verified receipt's ``Verified/evidence`` is its CMS
/// signer and chain (``SignatureEvidence/cms(_:chain:)``), and ``VerificationFailure/kind`` is nil.
///
/// Every developer holds a certificate issued by Apple's WWDR CA under the same root: a receipt is
/// trusted only when the certificate its SignerInfo names carries the receipt-signing marker
/// (1.2.840.113635.100.6.11.1) and that certificate's issuer the intermediate marker.
///
/// A verifier is immutable and `Sendable`. Its chain cache makes every receipt after the first with
/// the same embedded certificates cost one RSA verification. Copies of a verifier share its settings and
/// cache, and a copy costs one reference count.
public struct AppReceiptVerifier: Sendable {
    /// The bundle id every receipt must carry (field 2), or nil to skip that check.
    public var bundleId: String? { settings.bundleId }
    /// The app Apple id (field 1) a Production receipt must carry, or nil to skip that check.
    public var appAppleId: Int64? { settings.appAppleId }
    /// The environments a receipt may come from (field 0: `Production`, `ProductionSandbox` for
    /// ``AppStoreEnvironment/sandbox``, `Xcode`); empty to accept whatever it says (inspection only).
    public var environments: [AppStoreEnvironment] { settings.environments }
    /// When certificates must be valid: ``ValidationTime/signedDate`` is the receipt's creation date
    /// (field 12).
    public var validationTime: ValidationTime { settings.validationTime }
    /// The largest receipt accepted, in bytes (as given: base64 text or raw).
    public var maximumReceiptBytes: Int { settings.specific.maximumReceiptBytes }

    /// The largest receipt accepted by default: 4 MiB, some fifty times the 79 KB of a receipt with 187
    /// purchases.
    public static let defaultMaximumReceiptBytes = 4 << 20

    var anchor: TrustAnchor { settings.anchor }
    var chainCache: ReceiptChainCache { settings.specific.chainCache }
    var claims: ClaimsCheck { settings.claims }
    var clock: @Sendable () -> Date { settings.clock }

    /// What only a receipt verifier is made with.
    private struct Specific: Sendable {
        let maximumReceiptBytes: Int
        let chainCache: ReceiptChainCache
    }

    /// What the verifier was made with, held by reference: a copy of the verifier retains one object.
    private let settings: VerifierSettings<Specific>

    /// Creates a receipt verifier.
    ///
    /// - Parameters:
    ///   - rootCertificates: DER (or PEM) trusted roots; the default is Apple Inc. Root
    ///     (``AppleRootCertificate/appleIncRoot``). No embedded certificate is ever trusted by itself.
    ///   - bundleId: The app's bundle id (nil skips the check: inspection only).
    ///   - appAppleId: The app's Apple id, compared with a Production receipt's app item id (field 1)
    ///     when given.
    ///   - environments: The environments receipts may come from; empty accepts any (inspection only).
    ///     Xcode, which trusts a pinned certificate instead of Apple's roots, must be alone.
    ///   - xcodeCertificate: The StoreKit Testing certificate that signs Xcode receipts (DER or PEM), with
    ///     `environments: [.xcode]`: a receipt verifies only when its signer is byte-identical to it.
    ///   - validationTime: When the certificates must be valid (default: the receipt's creation date).
    ///   - maximumReceiptBytes: The largest receipt accepted (default 4 MiB).
    ///   - chainCacheCapacity: How many chains to remember (default 64); 0 disables the cache, so that
    ///     every receipt is parsed and verified by OpenSSL in full.
    ///   - clock: The current time, read for ``ValidationTime/current`` and for a receipt without a
    ///     creation date.
    /// - Throws: ``VerificationError`` with code ``VerificationError/Code/invalidConfiguration``
    ///   when a root does not parse, Xcode has no certificate or is not alone, or LocalTesting is among
    ///   the environments.
    public init(
        rootCertificates: [Data] = AppleRootCertificate.defaultReceiptRoots,
        bundleId: String?,
        appAppleId: Int64? = nil,
        environments: [AppStoreEnvironment],
        xcodeCertificate: Data? = nil,
        validationTime: ValidationTime = .signedDate,
        maximumReceiptBytes: Int = AppReceiptVerifier.defaultMaximumReceiptBytes,
        chainCacheCapacity: Int = 64,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) throws(VerificationError) {
        let distinct = Configuration.distinct(environments)
        let anchor = try Configuration.anchor(
            rootCertificates: rootCertificates, xcodeCertificate: xcodeCertificate, environments: distinct,
            appAppleId: appAppleId, enableOnlineChecks: false, cachesIntermediates: false,
            productionNeedsAppAppleId: false)
        settings = VerifierSettings(
            bundleId: bundleId, appAppleId: appAppleId, environments: distinct, validationTime: validationTime,
            clock: clock, anchor: anchor,
            specific: Specific(
                maximumReceiptBytes: maximumReceiptBytes, chainCache: ReceiptChainCache(capacity: chainCacheCapacity)))
    }

    /// Verifies and decodes an app receipt given as base64 text (what an app sends: the receipt file's
    /// bytes, base64; line breaks and spaces are ignored) or as the raw bytes of the file.
    ///
    /// - Parameters:
    ///   - receipt: The receipt.
    ///   - deviceIdentifier: The device's identifier as the receipt hashed it (iOS:
    ///     `identifierForVendor`'s 16 bytes; macOS: the primary network interface's MAC address), to
    ///     check that the receipt was issued to that device; nil skips the check.
    public func verifyAndDecodeAppReceipt(
        _ receipt: String, deviceIdentifier: [UInt8]? = nil
    ) -> VerificationResult<AppReceipt> {
        verification(of: Array(receipt.utf8), deviceIdentifier: deviceIdentifier)
    }

    /// Verifies and decodes an app receipt given as an array of bytes (the file, or its base64 text), as the
    /// `Data` form does, without copying them into and out of `Data` (the CLI's `receipt` and `batch`).
    package func verifyAndDecodeAppReceipt(
        bytes receipt: [UInt8], deviceIdentifier: [UInt8]? = nil
    ) -> VerificationResult<AppReceipt> {
        verification(of: receipt, deviceIdentifier: deviceIdentifier)
    }

    /// Verifies and decodes an app receipt given as bytes: the receipt file (DER, or BER from Xcode),
    /// or its base64 text.
    ///
    /// - Parameters:
    ///   - receipt: The receipt.
    ///   - deviceIdentifier: The device's identifier as the receipt hashed it, or nil to skip that check.
    public func verifyAndDecodeAppReceipt(
        _ receipt: Data, deviceIdentifier: [UInt8]? = nil
    ) -> VerificationResult<AppReceipt> {
        verification(of: Array(receipt), deviceIdentifier: deviceIdentifier)
    }

    /// Verifies and decodes an app receipt, checking that it was issued to the device whose
    /// `identifierForVendor` is `deviceIdentifier` (iOS, iPadOS, tvOS, visionOS).
    public func verifyAndDecodeAppReceipt(
        _ receipt: String, deviceIdentifier: UUID
    ) -> VerificationResult<AppReceipt> {
        let u = deviceIdentifier.uuid
        let bytes = [u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15]
        return verification(of: Array(receipt.utf8), deviceIdentifier: bytes)
    }

    /// The chain cache's hits, misses and entries (for tests and benchmarks).
    var cacheStatistics: (hits: Int, misses: Int, count: Int) { chainCache.statistics }
}
