/// Check 13, **claims** (`invalidAppIdentifier`, `invalidEnvironment`): the bundle id, then the app
/// Apple id (in Production), then the environment, each where the kind carries it (the claims table
/// of Docs/ErrorCodes.md, from ``AppStorePayload/claims``). A claim the verifier was not configured
/// with is skipped and the report says what the payload claims.
///
/// Several environments: the claims that apply are those of the environment the payload names when
/// it is a configured one (``appliedEnvironment(_:)``), so that one verifier takes Production and
/// Sandbox tokens, and Sandbox ones (Apple's TEST notification among them) need no app Apple id.
struct ClaimsCheck: Sendable {
    var bundleId: String?
    var appAppleId: Int64?
    /// The environments a payload may come from; empty accepts any.
    var environments: [AppStoreEnvironment]
    /// For a notification's nested tokens: the environment the notification came from, which each
    /// nested token must name as well.
    var outerEnvironment: AppStoreEnvironment?

    init(bundleId: String?, appAppleId: Int64?, environments: [AppStoreEnvironment]) {
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.environments = environments
    }

    /// The check for a notification's nested tokens: the same claims, and the environment the
    /// notification was accepted for.
    func nested(in environment: AppStoreEnvironment?) -> ClaimsCheck {
        var check = self
        check.outerEnvironment = environment
        return check
    }

    /// The environment whose claims apply: the payload's when it is a configured one (or any is
    /// accepted); else the only configured one, so that a single-environment verifier decides as
    /// Apple's library does (identifiers first, then the environment); else none.
    func appliedEnvironment(_ claims: PayloadClaims) -> AppStoreEnvironment? {
        if environments.isEmpty { return claims.environment }
        if let environment = claims.environment, environments.contains(environment) { return environment }
        return environments.count == 1 ? environments[0] : nil
    }

    /// Whether the app Apple id is compared for these claims: as Apple's library, in Production,
    /// where the configuration requires it.
    func comparesAppAppleId(_ claims: PayloadClaims) -> Bool {
        claims.checksAppAppleId && appAppleId != nil && appliedEnvironment(claims) == .production
    }

    /// Checks `claims`, recording the three steps of check 13.
    ///
    /// - Returns: the environment the payload names, as accepted (see ``Verified/environment``).
    @discardableResult
    func check(
        _ claims: PayloadClaims, recorder: inout ReportRecorder
    ) throws(VerificationError) -> AppStoreEnvironment? {
        if claims.namesNoApp {
            throw VerificationError(
                .invalidAppIdentifier, step: .bundleId,
                "the notification has none of data, summary, externalPurchaseToken and appData, so it names no app")
        }
        if !claims.checksBundleId {
            recorder.skipped(.bundleId, "this kind carries no bundle id to check")
        } else if let bundleId {
            // Byte for byte: `String` equality is Unicode canonical equivalence ("\u{212A}" == "K").
            guard claims.bundleId.map({ ByteScanning.equalUTF8($0, bundleId) }) ?? false else {
                throw VerificationError(
                    .invalidAppIdentifier, step: .bundleId,
                    "bundleId is \(Self.quoted(claims.bundleId)), expected \(Self.quoted(bundleId))")
            }
            recorder.passed(.bundleId, .matched(bundleId))
        } else {
            recorder.skipped(.bundleId, "no bundle id configured; the payload says \(Self.quoted(claims.bundleId))")
        }

        if !claims.checksAppAppleId {
            recorder.skipped(.appAppleId, "this kind carries no app Apple id to check")
        } else if comparesAppAppleId(claims), let appAppleId {
            guard claims.appAppleId == appAppleId else {
                throw VerificationError(
                    .invalidAppIdentifier, step: .appAppleId,
                    "appAppleId is \(claims.appAppleId.map(String.init) ?? "absent"), expected \(appAppleId)")
            }
            recorder.passed(.appAppleId, "\(appAppleId)")
        } else {
            recorder.skipped(
                .appAppleId,
                "checked in Production with a configured app Apple id; the payload says "
                    + (claims.appAppleId.map(String.init) ?? "nothing"))
        }

        let environment = claims.environment
        if let outerEnvironment, environment != outerEnvironment {
            throw VerificationError(
                .invalidEnvironment, step: .environment,
                "\(claims.environmentField) is \(Self.quoted(environment?.rawValue)), but the notification's is"
                    + " \(Self.quoted(outerEnvironment.rawValue)): a nested token must come from the same environment")
        }
        if environments.isEmpty {
            recorder.skipped(
                .environment,
                "no environment configured; the payload's \(claims.environmentField) is "
                    + Self.quoted(environment?.rawValue))
            return environment
        }
        guard let environment, environments.contains(environment) else {
            let expected = environments.map { Self.quoted($0.rawValue) }
            throw VerificationError(
                .invalidEnvironment, step: .environment,
                "\(claims.environmentField) is \(Self.quoted(environment?.rawValue)), expected"
                    + (expected.count == 1 ? " \(expected[0])" : " one of \(expected.joined(separator: ", "))"))
        }
        recorder.passed(.environment, .matched(environment.rawValue))
        return environment
    }

    /// A claimed value as messages quote it (escaped: it comes from the token).
    static func quoted(_ value: String?) -> String {
        value.map { "\"\(EscapedText.escaped($0))\"" } ?? "absent"
    }
}
