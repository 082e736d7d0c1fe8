import Foundation

/// The configuration check (`invalidConfiguration`, thrown by ``SignedDataVerifier``'s initializer):
/// a verifier that could verify nothing is never made.
enum Configuration {
    /// The trust anchor for `environments`, after checking that the configuration can verify anything:
    /// Production needs an app Apple id, LocalTesting cannot be verified, Xcode needs its pinned
    /// certificate, no online checks and no other environment, and every root must parse into a
    /// trust store. An app receipt verifier (`productionNeedsAppAppleId` false) compares the app
    /// Apple id only when one is given.
    static func anchor(
        rootCertificates: [Data], xcodeCertificate: Data?, environments: [AppStoreEnvironment], appAppleId: Int64?,
        enableOnlineChecks: Bool, cachesIntermediates: Bool, productionNeedsAppAppleId: Bool = true
    ) throws(VerificationError) -> TrustAnchor {
        if productionNeedsAppAppleId && environments.contains(.production) && appAppleId == nil {
            throw error("appAppleId is required when the environments include Production", .appAppleIdRequired)
        }
        if environments.contains(.localTesting) {
            throw error(
                "LocalTesting tokens are not signed by Apple and cannot be verified; decode them with"
                    + " SignedDataVerifier.decodeUnverified(_:as:)", .localTestingCannotBeVerified)
        }
        if environments.contains(.xcode) {
            if enableOnlineChecks {
                throw error(
                    "online checks do not apply to Xcode tokens: nobody revokes a StoreKit Testing certificate",
                    .xcodeWithoutOnlineChecks)
            }
            guard Set(environments) == [.xcode] else {
                throw error(
                    "Xcode tokens are trusted through a pinned certificate, not Apple's roots: configure Xcode"
                        + " in a verifier of its own", .xcodeAlone)
            }
            guard let xcodeCertificate else {
                throw error(
                    "environment Xcode needs the StoreKit Testing certificate: in Xcode, open the .storekit"
                        + " configuration, choose Editor > Save Public Certificate, and pass that file",
                    .xcodeCertificateRequired)
            }
            guard let certificate = Certificate(derOrPEM: Array(xcodeCertificate)), certificate.publicKey != nil else {
                throw error(
                    "the Xcode certificate is not a DER or PEM X.509 certificate with a key",
                    .xcodeCertificateUnreadable)
            }
            return .pinnedXcodeCertificate(certificate)
        }
        var roots: [Certificate] = []
        for (index, data) in rootCertificates.enumerated() {
            guard let root = Certificate(derOrPEM: Array(data)) else {
                throw error(
                    "root certificate \(index) is not a DER or PEM X.509 certificate", .rootUnreadable(index: index))
            }
            roots.append(root)
        }
        guard !roots.isEmpty else { throw error("no root certificate was given") }
        guard let store = TrustStore(roots: roots) else {
            throw error(
                "OpenSSL could not build a trust store (a root whose extensions OpenSSL finds invalid, or whose"
                    + " key it cannot read, cannot be one): \(drainOpenSSLErrors())", .rootsRefused)
        }
        return .appleRoots(trustStore: store, intermediates: IntermediateCache(capacity: cachesIntermediates ? 16 : 0))
    }

    /// `environments` without repeats, in the order given.
    static func distinct(_ environments: [AppStoreEnvironment]) -> [AppStoreEnvironment] {
        var distinct: [AppStoreEnvironment] = []
        for environment in environments where !distinct.contains(environment) { distinct.append(environment) }
        return distinct
    }

    private static func error(_ message: String, _ remedy: VerificationError.Remedy? = nil) -> VerificationError {
        VerificationError(.invalidConfiguration, check: .configuration, message, step: nil, remedy: remedy)
    }
}

/// What a verifier was made with, fixed then, held by reference: a copy of the verifier (stored in a server's
/// handler, captured by a task, read for every line of `batch`) retains this one object, not each of the strings,
/// arrays, closures and caches it holds (fourteen, retained and released at every copy). `Specific` is what only one
/// kind of verifier has (its size limit, its chain cache).
final class VerifierSettings<Specific: Sendable>: Sendable {
    let bundleId: String?
    let appAppleId: Int64?
    /// Distinct, in the order given.
    let environments: [AppStoreEnvironment]
    let validationTime: ValidationTime
    let clock: @Sendable () -> Date
    let anchor: TrustAnchor
    let claims: ClaimsCheck
    let specific: Specific

    init(
        bundleId: String?, appAppleId: Int64?, environments: [AppStoreEnvironment], validationTime: ValidationTime,
        clock: @escaping @Sendable () -> Date, anchor: TrustAnchor, specific: Specific
    ) {
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.environments = environments
        self.validationTime = validationTime
        self.clock = clock
        self.anchor = anchor
        claims = ClaimsCheck(bundleId: bundleId, appAppleId: appAppleId, environments: environments)
        self.specific = specific
    }
}
