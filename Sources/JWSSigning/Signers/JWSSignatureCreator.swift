import Foundation
import JWSVerify

/// What Apple's three JWS signature creators share: the key, the identifiers, and the token they sign.
///
/// The header is `{"alg":"ES256","kid":keyId,"typ":"JWT"}`; the claims are `iss` (the issuer id), `bid` (the bundle
/// id), `aud` (the creator's audience), `iat` (the time in whole seconds), `nonce` (a fresh lower-case UUID) and
/// each kind's own claims. Both JSON objects are written by the library's ``JSONWriter`` (keys sorted) and the
/// token is signed by ``ES256SigningKey``.
struct JWSSignatureCreator: Sendable {
    let audience: String
    let signingKey: ES256SigningKey
    let keyId: String
    let issuerId: String
    let bundleId: String
    /// Where the nonce and the time come from: fresh and now, or fixed by a test (``SignatureInputs``).
    var inputs: SignatureInputs = .live

    /// Signs a token whose claims are the common ones and `claims`.
    func createSignature(claims: [String: JSONValue]) throws(SigningError) -> String {
        var payload = claims
        payload["iss"] = .string(issuerId)
        payload["bid"] = .string(bundleId)
        payload["aud"] = .string(audience)
        payload["iat"] = .integer(Int64(inputs.now().timeIntervalSince1970.rounded(.down)))
        payload["nonce"] = .string(inputs.nonce().uuidString.lowercased())
        return try signingKey.signedJWT(keyId: keyId, claims: payload)
    }
}

extension ES256SigningKey {
    /// A JWT signed with this key: the header `{"alg":"ES256","kid":keyId,"typ":"JWT"}` and the claims, both written
    /// by the library's ``JSONWriter`` (keys sorted). The one writer of the signature creators' tokens and of the
    /// App Store Server API's bearer tokens.
    package func signedJWT(keyId: String, claims: [String: JSONValue]) throws(SigningError) -> String {
        let header: JSONValue = .object(["typ": .string("JWT"), "alg": .string("ES256"), "kid": .string(keyId)])
        return try compactJWS(
            headerJSON: Array(JSONWriter.write(header, pretty: false).utf8),
            payloadJSON: Array(JSONWriter.write(.object(claims), pretty: false).utf8))
    }
}

/// The nonce and the time of a signature: a fresh UUID and the clock, or fixed values that tests set through the
/// creators' `package` seams (the public API has no way to reuse a nonce).
package struct SignatureInputs: Sendable {
    /// The nonce.
    package var nonce: @Sendable () -> UUID
    /// The time: `iat`, and the V1 signature's default timestamp.
    package var now: @Sendable () -> Date

    /// A fresh UUID and the clock.
    package static let live = SignatureInputs(nonce: { UUID() }, now: { Date() })

    /// A fixed nonce and time.
    package static func fixed(nonce: UUID, now: Date) -> SignatureInputs {
        SignatureInputs(nonce: { nonce }, now: { now })
    }

    /// Inputs from the given closures.
    package init(nonce: @escaping @Sendable () -> UUID, now: @escaping @Sendable () -> Date) {
        self.nonce = nonce
        self.now = now
    }
}
