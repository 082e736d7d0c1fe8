import Foundation

/// Signs a promotional offer the V1 way (StoreKit 1's `SKPaymentDiscount`, StoreKit 2's
/// `Product.PurchaseOption.promotionalOffer(offerID:keyID:nonce:signature:timestamp:)`, and a Retention Messaging
/// answer's `promotionalOfferSignatureV1`), as Apple's `PromotionalOfferSignatureCreator` does, with Apple's
/// initializer and method labels.
///
/// The signature is ECDSA P-256 with SHA-256, DER-encoded, in standard base64, over the UTF-8 of the bundle id, the
/// key id, the product id, the offer id, the lower-cased application username (the app account token), the
/// lower-cased nonce and the timestamp in milliseconds, joined by U+2063 INVISIBLE SEPARATOR.
///
/// Apple's article: [Generating a signature for promotional offers][article].
///
/// [article]: https://developer.apple.com/documentation/storekit/generating-a-signature-for-promotional-offers
public struct PromotionalOfferSignatureCreator: Sendable {
    let signingKey: ES256SigningKey
    let keyId: String
    let bundleId: String

    /// A creator that signs with `privateKey`, the PEM text of an In-App Purchase key from App Store Connect.
    ///
    /// - Parameters:
    ///   - privateKey: Your private key downloaded from App Store Connect (the content of the `.p8` file).
    ///   - keyId: The key's identifier in App Store Connect.
    ///   - bundleId: Your app's bundle ID.
    /// - Throws: ``SigningError`` when `privateKey` is not a PKCS #8 P-256 private key.
    public init(privateKey: String, keyId: String, bundleId: String) throws(SigningError) {
        self.init(signingKey: try ES256SigningKey(pemRepresentation: privateKey), keyId: keyId, bundleId: bundleId)
    }

    /// A creator that signs with a key already read.
    public init(signingKey: ES256SigningKey, keyId: String, bundleId: String) {
        self.signingKey = signingKey
        self.keyId = keyId
        self.bundleId = bundleId
    }

    /// Creates a promotional offer signature.
    ///
    /// - Parameters:
    ///   - productIdentifier: The subscription product identifier.
    ///   - subscriptionOfferID: The subscription offer identifier.
    ///   - applicationUsername: The app account token the purchase carries, or an empty string; signed lower-cased.
    ///   - nonce: A one-time UUID that your server generates for every signature; signed lower-cased.
    ///   - timestamp: The time in milliseconds since 1970; the offer stays valid for 24 hours.
    /// - Returns: The base64 of the DER signature.
    public func createSignature(
        productIdentifier: String, subscriptionOfferID: String, applicationUsername: String, nonce: UUID,
        timestamp: Int64
    ) throws(SigningError) -> String {
        let message = Self.message(
            bundleId: bundleId, keyId: keyId, productIdentifier: productIdentifier,
            subscriptionOfferID: subscriptionOfferID, applicationUsername: applicationUsername, nonce: nonce,
            timestamp: timestamp)
        return try signingKey.derSignature(for: message).base64EncodedString()
    }

    /// Creates a promotional offer signature for a purchase that carries `appAccountToken`.
    ///
    /// The same as ``createSignature(productIdentifier:subscriptionOfferID:applicationUsername:nonce:timestamp:)``
    /// with the token's string as the application username.
    public func createSignature(
        productIdentifier: String, subscriptionOfferID: String, appAccountToken: UUID, nonce: UUID, timestamp: Int64
    ) throws(SigningError) -> String {
        try createSignature(
            productIdentifier: productIdentifier, subscriptionOfferID: subscriptionOfferID,
            applicationUsername: appAccountToken.uuidString, nonce: nonce, timestamp: timestamp)
    }

    /// The bytes a V1 signature covers: the seven fields joined by U+2063, as UTF-8.
    static func message(
        bundleId: String, keyId: String, productIdentifier: String, subscriptionOfferID: String,
        applicationUsername: String, nonce: UUID, timestamp: Int64
    ) -> Data {
        let fields = [
            bundleId, keyId, productIdentifier, subscriptionOfferID, applicationUsername.lowercased(),
            nonce.uuidString.lowercased(), String(timestamp),
        ]
        return Data(fields.joined(separator: "\u{2063}").utf8)
    }
}
