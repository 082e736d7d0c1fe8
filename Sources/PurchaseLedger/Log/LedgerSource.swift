/// Where an item of the log came from.
public struct LedgerSource: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The stored string.
    public let rawValue: String
    /// Wraps a stored string; prefer the static constants.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The raw value.
    public var description: String { rawValue }

    /// An App Store Server Notification V2 that Apple posted.
    public static let notification = LedgerSource(rawValue: "notification")
    /// An item of an App Store Server API response (history, statuses, transaction info).
    public static let apiResponse = LedgerSource(rawValue: "api")
    /// A token the app sent (`Transaction.jwsRepresentation`).
    public static let device = LedgerSource(rawValue: "device")
    /// A line of a file given to ``Ledger/importLines(from:options:progress:refused:)``.
    public static let `import` = LedgerSource(rawValue: "import")
}
