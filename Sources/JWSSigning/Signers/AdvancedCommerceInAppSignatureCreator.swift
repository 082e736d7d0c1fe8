import Foundation
import JWSVerify

/// Signs an Advanced Commerce in-app request, which the app sends to the App Store from the device: a JWS whose
/// `aud` is `advanced-commerce-api` and whose `request` claim is the base64 of the request's JSON, as Apple's
/// `AdvancedCommerceInAppSignatureCreator` makes it, with Apple's initializer and method labels.
///
/// Apple's article: [Generating JWS to sign App Store requests][article].
///
/// [article]: https://developer.apple.com/documentation/storekit/generating-jws-to-sign-app-store-requests
public struct AdvancedCommerceInAppSignatureCreator: Sendable {
    var creator: JWSSignatureCreator

    /// A creator that signs with `signingKey`, the PEM text of an In-App Purchase key from App Store Connect.
    ///
    /// - Parameters:
    ///   - signingKey: Your private key downloaded from App Store Connect (the content of the `.p8` file).
    ///   - keyId: The key's identifier in App Store Connect (the JWS header's `kid`).
    ///   - issuerId: Your issuer ID from the Keys page in App Store Connect (`iss`).
    ///   - bundleId: Your app's bundle ID (`bid`).
    /// - Throws: ``SigningError`` when `signingKey` is not a PKCS #8 P-256 private key.
    public init(signingKey: String, keyId: String, issuerId: String, bundleId: String) throws(SigningError) {
        self.init(
            signingKey: try ES256SigningKey(pemRepresentation: signingKey), keyId: keyId, issuerId: issuerId,
            bundleId: bundleId)
    }

    /// A creator that signs with a key already read.
    public init(signingKey: ES256SigningKey, keyId: String, issuerId: String, bundleId: String) {
        creator = JWSSignatureCreator(
            audience: "advanced-commerce-api", signingKey: signingKey, keyId: keyId, issuerId: issuerId,
            bundleId: bundleId)
    }

    /// Creates an Advanced Commerce in-app signed request.
    ///
    /// - Parameter advancedCommerceInAppRequest: The request to sign; its JSON (``AdvancedCommerceInAppRequest/jsonData()``) goes,
    ///   base64-encoded, into the `request` claim.
    /// - Returns: The signed JWS (compact serialization).
    /// - Throws: ``SigningError/Code/encodingFailed`` when the request cannot be encoded.
    public func createSignature(
        advancedCommerceInAppRequest: any AdvancedCommerceInAppRequest
    )
        async throws(SigningError) -> String
    {
        try createSignature(requestJSON: Self.encode(advancedCommerceInAppRequest))
    }

    /// The synchronous form of the `async` method of the same label: signing never waits.
    public func createSignature(
        advancedCommerceInAppRequest: any AdvancedCommerceInAppRequest
    )
        throws(SigningError) -> String
    {
        try createSignature(requestJSON: Self.encode(advancedCommerceInAppRequest))
    }

    /// Signs a request given as its JSON bytes, used as given (the CLI's `--request FILE`).
    public func createSignature(requestJSON: Data) throws(SigningError) -> String {
        try creator.createSignature(claims: ["request": .string(requestJSON.base64EncodedString())])
    }

    /// The request's JSON as ``AdvancedCommerceInAppRequest/jsonData()`` writes it (Apple's rules checked again,
    /// keys sorted, UUIDs in lower case, slashes unescaped).
    static func encode(_ request: any AdvancedCommerceInAppRequest) throws(SigningError) -> Data {
        do {
            return try request.jsonData()
        } catch {
            throw SigningError(
                code: .encodingFailed, message: "the Advanced Commerce request could not be encoded: \(error)")
        }
    }

    /// This creator with a fixed nonce and time (tests).
    package func with(_ inputs: SignatureInputs) -> Self {
        var copy = self
        copy.creator.inputs = inputs
        return copy
    }
}
