import Foundation
import JWSVerify

/// Signs a promotional offer for StoreKit 2 (`Product.PurchaseOption.promotionalOffer(_:compactJWS:)`) and for a
/// Retention Messaging answer: a JWS whose `aud` is `promotional-offer`, as Apple's
/// `PromotionalOfferV2SignatureCreator` makes it, with Apple's initializer and method labels.
///
/// Apple's article: [Generating JWS to sign App Store requests][article].
///
/// [article]: https://developer.apple.com/documentation/storekit/generating-jws-to-sign-app-store-requests
public struct PromotionalOfferV2SignatureCreator: Sendable {
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
            audience: "promotional-offer", signingKey: signingKey, keyId: keyId, issuerId: issuerId, bundleId: bundleId)
    }

    /// Creates a promotional offer V2 signature.
    ///
    /// - Parameters:
    ///   - productId: The unique identifier of the product (`productId`).
    ///   - offerIdentifier: The promotional offer identifier that you set up in App Store Connect (`offerIdentifier`).
    ///   - transactionId: The identifier of any transaction of the customer, such as their `appTransactionId`
    ///     (`transactionId`; left out when nil). Optional, but recommended.
    /// - Returns: The signed JWS (compact serialization).
    public func createSignature(
        productId: String, offerIdentifier: String, transactionId: String? = nil
    )
        async throws(SigningError) -> String
    {
        try signature(productId: productId, offerIdentifier: offerIdentifier, transactionId: transactionId)
    }

    /// The synchronous form of the `async` method of the same labels: signing never waits.
    public func createSignature(
        productId: String, offerIdentifier: String, transactionId: String? = nil
    )
        throws(SigningError) -> String
    {
        try signature(productId: productId, offerIdentifier: offerIdentifier, transactionId: transactionId)
    }

    private func signature(
        productId: String, offerIdentifier: String, transactionId: String?
    ) throws(SigningError)
        -> String
    {
        var claims: [String: JSONValue] = [
            "productId": .string(productId), "offerIdentifier": .string(offerIdentifier),
        ]
        if let transactionId { claims["transactionId"] = .string(transactionId) }
        return try creator.createSignature(claims: claims)
    }

    /// This creator with a fixed nonce and time (tests).
    package func with(_ inputs: SignatureInputs) -> Self {
        var copy = self
        copy.creator.inputs = inputs
        return copy
    }
}
