import Foundation

/// When the certificates of a token must be valid.
public enum ValidationTime: Sendable, Hashable {
    /// At the payload's `signedDate` (`receiptCreationDate` for an app transaction), as Apple's
    /// library does offline; at the clock's time when the payload has none, or with online checks.
    case signedDate
    /// At the clock's current time.
    case current
    /// At a fixed time (for reproducing a verdict).
    case fixed(Date)

    /// The member most kinds are validated at, and a payload of no recognized kind.
    static let signedDateKey = "signedDate"

    /// The validation time of one token, in seconds since 1970: the one place it is decided.
    ///
    /// - Parameters:
    ///   - payload: The token's payload object (its date is read from the parsed tree, whether or not
    ///     the payload decodes as its kind).
    ///   - dateKey: The kind's validation-date member (``PayloadKind/validationDateKey``).
    ///   - online: Whether online checks run: they validate at the current time, as Apple's library does.
    ///   - clock: The current time.
    /// - Returns: the seconds, and whether they are the clock's for lack of a signed date (``signedDate``
    ///   offline, a payload without a usable `dateKey`), which reports and the CLI say.
    func seconds(
        payload: [String: JSONValue], dateKey: String, online: Bool, clock: () -> Date
    ) -> (seconds: Int64, withoutSignedDate: Bool) {
        func seconds(_ date: Date) -> Int64 {
            let value = date.timeIntervalSince1970
            return value.isFinite && abs(value) < 1e14 ? Int64(value.rounded(.down)) : 0
        }
        switch self {
        case .fixed(let date): return (seconds(date), false)
        case .current: return (seconds(clock()), false)
        case .signedDate:
            if !online, let value = payload[dateKey], let timestamp = try? Timestamp(jsonValue: value),
                timestamp.millisecondsSince1970.isFinite, abs(timestamp.millisecondsSince1970) < 1e17
            {
                return (Int64((timestamp.millisecondsSince1970 / 1000).rounded(.down)), false)
            }
            return (seconds(clock()), !online)
        }
    }
}
