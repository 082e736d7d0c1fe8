import JWSVerify

/// Why the ledger refused an item or could not do what it was asked: a stable code and a message.
///
/// A refused item (``Code/notVerified``, ``Code/unsupportedKind``, ``Code/missingIdentifier``) never reaches the
/// log. A store failure (``Code/storeUnavailable``, ``Code/storeFailed``) leaves the store as it was before the call:
/// the database transaction that held the item was rolled back, so nothing is half-written.
///
/// Two errors are equal when their codes are equal.
public struct LedgerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The stable identifier of a ledger failure, as the CLI prints it.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The stable string.
        public let rawValue: String
        /// Wraps a string; prefer the static constants.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The raw value.
        public var description: String { rawValue }

        /// The item did not verify; ``LedgerError/verification`` says which check failed.
        public static let notVerified = Code(rawValue: "notVerified")
        /// The item verified but is not a kind the ledger keeps (a Retention Messaging realtime request).
        public static let unsupportedKind = Code(rawValue: "unsupportedKind")
        /// The item verified but lacks the identifier the ledger keys it by (a notification without
        /// `notificationUUID`, a transaction without `transactionId` or `originalTransactionId`, a renewal info
        /// without `originalTransactionId`).
        public static let missingIdentifier = Code(rawValue: "missingIdentifier")
        /// The store cannot be reached or answered that it is busy, shutting down or out of resources: retrying
        /// later may succeed (the CLI's exit 75).
        public static let storeUnavailable = Code(rawValue: "storeUnavailable")
        /// The store refused the operation: a corrupt or unreadable database, a constraint or an SQL error.
        public static let storeFailed = Code(rawValue: "storeFailed")
        /// The store's location is not `sqlite:PATH` or a `postgresql://` URL, or it cannot be opened.
        public static let storeNotOpened = Code(rawValue: "storeNotOpened")
        /// The store's schema is newer than this version of the ledger knows: upgrade before opening it.
        public static let schemaTooNew = Code(rawValue: "schemaTooNew")

        /// The input of an import could not be read.
        public static let inputUnreadable = Code(rawValue: "inputUnreadable")

        /// Every code, in documentation order.
        public static let all: [Code] = [
            .notVerified, .unsupportedKind, .missingIdentifier, .storeUnavailable, .storeFailed, .storeNotOpened,
            .schemaTooNew, .inputUnreadable,
        ]
    }

    /// What failed.
    public let code: Code
    /// What went wrong, for people. Text from an item or a database is escaped before it gets here.
    public let message: String
    /// The verification failure, for ``Code/notVerified``.
    public let verification: VerificationError?

    /// Creates an error.
    public init(_ code: Code, _ message: String, verification: VerificationError? = nil) {
        self.code = code
        self.message = message
        self.verification = verification
    }

    /// Whether retrying the same call later may succeed: the store was unavailable, or the verification needed an
    /// answer (OCSP) that could not be had.
    public var isRetryable: Bool {
        code == .storeUnavailable || verification?.code == .revocationUnavailable
    }

    /// The verification code when the item did not verify, else the ledger code: what a report counts by.
    public var reportedCode: String { verification?.code.rawValue ?? code.rawValue }

    /// `code: message`.
    public var description: String { "\(reportedCode): \(message)" }

    /// Equal when the codes are equal.
    public static func == (lhs: LedgerError, rhs: LedgerError) -> Bool { lhs.code == rhs.code }

    /// Hashes the code.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
