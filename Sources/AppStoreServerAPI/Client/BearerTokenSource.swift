import Foundation
import JWSSigning
import JWSVerify
import Synchronization

/// The bearer token of the App Store Server API: an ES256 JWT signed with the In-App Purchase key, reused until
/// shortly before it expires, safe to share between tasks.
///
/// Header `{"alg":"ES256","kid":keyId,"typ":"JWT"}`; claims `iss` (the issuer id), `iat` (now, whole seconds),
/// `exp` (`iat` plus the lifetime, at most 60 minutes as Apple requires), `aud` `appstoreconnect-v1` and `bid` (the
/// bundle id). A cached token is reused only while `iat ≤ now < exp − renewalMargin`: it is renewed once less than
/// ``renewalMargin`` of its life is left, so that a request never leaves with a token that expires in flight, and
/// when the clock moved back before its `iat` (a token issued in the future is refused).
final class BearerTokenSource: Sendable {
    /// Apple's audience for the App Store Server API.
    static let audience = "appstoreconnect-v1"
    /// The longest lifetime Apple accepts.
    static let maximumLifetime: TimeInterval = 60 * 60
    /// How long before its expiry a token is replaced.
    static let renewalMargin: TimeInterval = 60

    private let signingKey: ES256SigningKey
    private let keyId: String
    private let issuerId: String
    private let bundleId: String
    private let lifetime: TimeInterval
    private let now: @Sendable () -> Date
    private let current = Mutex<(token: String, issued: TimeInterval, expires: TimeInterval)?>(nil)

    /// - Parameter lifetime: clamped to 2 × ``renewalMargin`` ... ``maximumLifetime``.
    init(
        signingKey: ES256SigningKey, keyId: String, issuerId: String, bundleId: String, lifetime: Duration,
        now: @escaping @Sendable () -> Date
    ) {
        self.signingKey = signingKey
        self.keyId = keyId
        self.issuerId = issuerId
        self.bundleId = bundleId
        let seconds = TimeInterval(lifetime.components.seconds)
        self.lifetime = min(max(seconds, 2 * Self.renewalMargin), Self.maximumLifetime)
        self.now = now
    }

    /// The current token, or a new one when the cached one was issued after now (the clock moved back) or has no
    /// more than ``renewalMargin`` left to live.
    func token() throws(APIError) -> String {
        let issuedAt = now().timeIntervalSince1970.rounded(.down)
        if let cached = current.withLock({ $0 }), Self.isUsable(cached, at: issuedAt) {
            return cached.token
        }
        let expires = issuedAt + lifetime
        let claims: [String: JSONValue] = [
            "iss": .string(issuerId), "iat": .integer(Int64(issuedAt)), "exp": .integer(Int64(expires)),
            "aud": .string(Self.audience), "bid": .string(bundleId),
        ]
        let token: String
        do {
            token = try signingKey.signedJWT(keyId: keyId, claims: claims)
        } catch {
            throw APIError(kind: .authentication, message: "the bearer token could not be signed: \(error.message)")
        }
        current.withLock { cached in
            // A concurrent caller may have stored a token meanwhile: keep it only when it is usable now and lives
            // at least as long.
            if let kept = cached, Self.isUsable(kept, at: issuedAt), kept.expires >= expires { return }
            cached = (token, issuedAt, expires)
        }
        return token
    }

    /// Whether a token may be sent at `now` (whole seconds since 1970): `iat ≤ now < exp − renewalMargin`.
    private static func isUsable(
        _ token: (token: String, issued: TimeInterval, expires: TimeInterval), at now: TimeInterval
    ) -> Bool {
        token.issued <= now && now < token.expires - renewalMargin
    }
}
