import Foundation
import JWSVerify

/// An In-App Purchase key from App Store Connect: an EC P-256 private key, read from its PKCS #8 `.p8` file, that
/// signs with ES256.
///
/// It is what Apple's signature creators sign with (``PromotionalOfferV2SignatureCreator`` and the others read one
/// from the PEM text they are given), and it signs anything else a server signs with that key: a JWS
/// (``rawSignature(for:)``, the 64-byte r‖s of RFC 7518) or the V1 promotional offer signature
/// (``derSignature(for:)``, a DER ECDSA-Sig-Value).
///
/// Only unencrypted PKCS #8 P-256 keys are read; anything else throws a ``SigningError`` whose code and message
/// say what was found instead (``SigningError/Code/rsaKey``, ``SigningError/Code/wrongCurve``,
/// ``SigningError/Code/encryptedKey``, ``SigningError/Code/certificateNotKey``, ...).
///
/// The key never shows itself: its description, debug description and `dump` name the algorithm only, and no error
/// carries its bytes. Its memory is OpenSSL's and is cleared when the last copy of the value goes away.
///
/// ```swift
/// let pem = try String(contentsOfFile: "SubscriptionKey_ABC123.p8", encoding: .utf8)
/// let key = try ES256SigningKey(pemRepresentation: pem)
/// let signature = try key.rawSignature(for: Data("header.payload".utf8))  // 64 bytes
/// ```
public struct ES256SigningKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    let owned: OwnedSigningKey

    /// Reads a PKCS #8 PEM private key (`-----BEGIN PRIVATE KEY-----`, the content of an App Store Connect `.p8`
    /// file). Text around the PEM block is ignored; the first PEM block decides.
    ///
    /// - Throws: ``SigningError`` with a key code (``SigningError/Code/emptyKey`` ...
    ///   ``SigningError/Code/keyTooLarge``).
    public init(pemRepresentation: String) throws(SigningError) {
        var bytes = Array(pemRepresentation.utf8)
        defer { for index in bytes.indices { bytes[index] = 0 } }
        owned = try OwnedSigningKey.read(bytes)
    }

    /// Reads a DER PKCS #8 PrivateKeyInfo (exactly these bytes, nothing after them).
    ///
    /// - Throws: ``SigningError`` with a key code (``SigningError/Code/emptyKey`` ...
    ///   ``SigningError/Code/keyTooLarge``).
    public init<Bytes: ContiguousBytes>(derRepresentation: Bytes) throws(SigningError) {
        owned = try OwnedSigningKey.read(derRepresentation)
    }

    /// The ES256 signature of `message` (SHA-256 and ECDSA P-256) as the raw 64-byte r‖s that a JWS carries.
    /// ECDSA draws a fresh nonce: two signatures of one message differ, and both verify.
    public func rawSignature<Message: DataProtocol>(for message: Message) throws(SigningError) -> Data {
        Data(try owned.sign(message, der: false))
    }

    /// The SHA-256 ECDSA P-256 signature of `message` as a DER ECDSA-Sig-Value (the form of the V1 promotional
    /// offer signature, and of OpenSSL's `dgst -sign`).
    public func derSignature<Message: DataProtocol>(for message: Message) throws(SigningError) -> Data {
        Data(try owned.sign(message, der: true))
    }

    /// `ES256SigningKey(P-256)`: the algorithm only, never the key.
    public var description: String { "ES256SigningKey(P-256)" }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// A compact JWS: `base64url(header).base64url(payload).base64url(r‖s)`, the header and payload JSON as given.
    package func compactJWS(headerJSON: [UInt8], payloadJSON: [UInt8]) throws(SigningError) -> String {
        let signingInput = Base64.encodeURL(headerJSON) + "." + Base64.encodeURL(payloadJSON)
        let signature = try owned.sign(Array(signingInput.utf8), der: false)
        return signingInput + "." + Base64.encodeURL(signature)
    }
}
