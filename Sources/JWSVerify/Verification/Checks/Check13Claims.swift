/// Check 13, **claims** (`invalidAppIdentifier`, `invalidEnvironment`): the bundle id, then the app
/// Apple id (in Production), then the environment, each where the kind carries it (the claims table
/// of Docs/ErrorCodes.md, from ``AppStorePayload/claims``). A claim the verifier was not configured
/// with is skipped and the report says what the payload claims.
struct ClaimsCheck: Sendable {
    var bundleId: String?
    var appAppleId: Int64?
    var environment: AppStoreEnvironment?

    /// Whether the app Apple id is compared for these claims: as Apple's library, in Production,
    /// where the configuration requires it.
    func comparesAppAppleId(_ claims: PayloadClaims) -> Bool {
        claims.checksAppAppleId && appAppleId != nil && (environment ?? claims.environment) == .production
    }

    /// Checks `claims`, recording the three steps of check 13.
    func check(_ claims: PayloadClaims, recorder: inout ReportRecorder) throws(VerificationError) {
        if claims.namesNoApp {
            throw VerificationError(
                .invalidAppIdentifier, step: .bundleId,
                "the notification has none of data, summary, externalPurchaseToken and appData, so it names no app")
        }
        if !claims.checksBundleId {
            recorder.skipped(.bundleId, "this kind carries no bundle id to check")
        } else if let bundleId {
            // Byte for byte: `String` equality is Unicode canonical equivalence ("\u{212A}" == "K").
            guard claims.bundleId.map({ $0.utf8.elementsEqual(bundleId.utf8) }) ?? false else {
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

        if let environment {
            guard claims.environment == environment else {
                throw VerificationError(
                    .invalidEnvironment, step: .environment,
                    "\(claims.environmentField) is \(Self.quoted(claims.environment?.rawValue)), expected"
                        + " \(Self.quoted(environment.rawValue))")
            }
            recorder.passed(.environment, .matched(environment.rawValue))
        } else {
            recorder.skipped(
                .environment,
                "no environment configured; the payload's \(claims.environmentField) is "
                    + Self.quoted(claims.environment?.rawValue))
        }
    }

    /// A claimed value as messages quote it (escaped: it comes from the token).
    static func quoted(_ value: String?) -> String {
        value.map { "\"\(EscapedText.escaped($0))\"" } ?? "absent"
    }
}
