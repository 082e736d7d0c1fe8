import Foundation

/// Why a key could not be read or a signature could not be made: a stable code and a human message.
///
/// Programs branch on ``code`` (stable strings, never renamed, only added to); people read ``message``. A key's
/// bytes never appear in an error: a wrong key is described by what it is ("an RSA 2048 key", "a P-384 key",
/// "a certificate"), never by its content. Two errors are equal when their codes are equal.
public struct SigningError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// The stable identifier of a failure.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The stable string.
        public let rawValue: String
        /// Wraps a string; prefer the static constants.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The raw value.
        public var description: String { rawValue }

        /// The key text or bytes are empty (or only white space).
        public static let emptyKey = Code(rawValue: "emptyKey")
        /// Neither a PEM block nor the DER of a key, a certificate or a public key.
        public static let unreadableKey = Code(rawValue: "unreadableKey")
        /// An encrypted private key (`ENCRYPTED PRIVATE KEY`); App Store Connect's `.p8` keys are not encrypted.
        public static let encryptedKey = Code(rawValue: "encryptedKey")
        /// An X.509 certificate, not a private key.
        public static let certificateNotKey = Code(rawValue: "certificateNotKey")
        /// A public key, not a private key.
        public static let publicKeyNotPrivate = Code(rawValue: "publicKeyNotPrivate")
        /// An RSA private key; In-App Purchase keys are EC P-256.
        public static let rsaKey = Code(rawValue: "rsaKey")
        /// An EC private key on another curve than P-256 (P-384, P-521, ...).
        public static let wrongCurve = Code(rawValue: "wrongCurve")
        /// A private key of another algorithm (Ed25519, DSA, ...).
        public static let unsupportedKeyType = Code(rawValue: "unsupportedKeyType")
        /// A private key in a legacy form (SEC 1 `EC PRIVATE KEY`), not PKCS #8 as App Store Connect issues it.
        public static let notPKCS8 = Code(rawValue: "notPKCS8")
        /// A P-256 PKCS #8 key that fails OpenSSL's key check (a scalar out of range, a public key that does not
        /// match).
        public static let invalidKey = Code(rawValue: "invalidKey")
        /// More bytes than any In-App Purchase key (64 KiB).
        public static let keyTooLarge = Code(rawValue: "keyTooLarge")
        /// OpenSSL could not sign (out of memory, or an internal error).
        public static let signingFailed = Code(rawValue: "signingFailed")
        /// A value to sign could not be encoded (an Advanced Commerce request whose `encode(to:)` throws).
        public static let encodingFailed = Code(rawValue: "encodingFailed")

        /// Every code, the key codes first.
        public static let all: [Code] = [
            .emptyKey, .unreadableKey, .encryptedKey, .certificateNotKey, .publicKeyNotPrivate, .rsaKey, .wrongCurve,
            .unsupportedKeyType, .notPKCS8, .invalidKey, .keyTooLarge, .signingFailed, .encodingFailed,
        ]
    }

    /// The stable code.
    public let code: Code
    /// What went wrong, for people. Never contains key material.
    public let message: String

    /// An error with `code` and `message`.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// `code: message`.
    public var description: String { "\(code.rawValue): \(message)" }

    /// The message (Foundation's `LocalizedError`).
    public var errorDescription: String? { message }

    /// Equal when the codes are equal.
    public static func == (lhs: SigningError, rhs: SigningError) -> Bool { lhs.code == rhs.code }

    /// Hashes the code.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
