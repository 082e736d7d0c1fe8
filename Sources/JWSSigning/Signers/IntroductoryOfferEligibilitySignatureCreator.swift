import Foundation
import JWSVerify

/// Signs an introductory-offer eligibility decision for StoreKit 2
/// (`Product.PurchaseOption.introductoryOfferEligibility(compactJWS:)`): a JWS whose `aud` is
/// `introductory-offer-eligibility`, as Apple's `IntroductoryOfferEligibilitySignatureCreator` makes it, with
/// Apple's initializer and method labels.
///
/// Apple's article: [Generating JWS to sign App Store requests][article].
///
/// [article]: https://developer.apple.com/documentation/storekit/generating-jws-to-sign-app-store-requests
public struct IntroductoryOfferEligibilitySignatureCreator: Sendable {
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
            audience: "introductory-offer-eligibility", signingKey: signingKey, keyId: keyId, issuerId: issuerId,
            bundleId: bundleId)
    }

    /// Creates an introductory offer eligibility signature.
    ///
    /// - Parameters:
    ///   - productId: The unique identifier of the product (`productId`).
    ///   - allowIntroductoryOffer: Whether the customer is eligible for an introductory offer
    ///     (`allowIntroductoryOffer`).
    ///   - transactionId: The identifier of any transaction of the customer, such as their `appTransactionId`
    ///     (`transactionId`).
    /// - Returns: The signed JWS (compact serialization).
    public func createSignature(
        productId: String, allowIntroductoryOffer: Bool, transactionId: String
    )
        async throws(SigningError) -> String
    {
        try signature(
            productId: productId, allowIntroductoryOffer: allowIntroductoryOffer, transactionId: transactionId)
    }

    /// The synchronous form of the `async` method of the same labels: signing never waits.
    public func createSignature(
        productId: String, allowIntroductoryOffer: Bool, transactionId: String
    )
        throws(SigningError) -> String
    {
        try signature(
            productId: productId, allowIntroductoryOffer: allowIntroductoryOffer, transactionId: transactionId)
    }

    private func signature(
        productId: String, allowIntroductoryOffer: Bool, transactionId: String
    )
        throws(SigningError) -> String
    {
        try creator.createSignature(claims: [
            "productId": .string(productId), "allowIntroductoryOffer": .bool(allowIntroductoryOffer),
            "transactionId": .string(transactionId),
        ])
    }

    /// This creator with a fixed nonce and time (tests).
    package func with(_ inputs: SignatureInputs) -> Self {
        var copy = self
        copy.creator.inputs = inputs
        return copy
    }
}
