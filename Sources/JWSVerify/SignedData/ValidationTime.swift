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

    /// The validation time of one token or receipt, in seconds since 1970: the one place it is decided,
    /// for both envelopes.
    ///
    /// - Parameters:
    ///   - signedDate: The signed data's own date (a token's `signedDate` or its kind's date member, a
    ///     receipt's creation date), nil when it has none.
    ///   - online: Whether online checks run: they validate at the current time, as Apple's library does.
    ///   - clock: The current time.
    /// - Returns: the seconds, and whether they are the clock's for lack of a signed date (``signedDate``
    ///   offline, no usable date), which reports and the CLI say.
    func seconds(
        signedDate: Date?, online: Bool, clock: () -> Date
    ) -> (seconds: Int64, withoutSignedDate: Bool) {
        switch self {
        case .fixed(let date): return (Self.seconds(date) ?? 0, false)
        case .current: return (Self.seconds(clock()) ?? 0, false)
        case .signedDate:
            if !online, let date = signedDate, let seconds = Self.seconds(date) { return (seconds, false) }
            return (Self.seconds(clock()) ?? 0, !online)
        }
    }

    /// ``seconds(signedDate:online:clock:)`` of a token: its date read from the parsed payload tree
    /// (whether or not the payload decodes as its kind), at the kind's validation-date member
    /// (``PayloadKind/validationDateKey``).
    func seconds(
        payload: [String: JSONValue], dateKey: String, online: Bool, clock: () -> Date
    ) -> (seconds: Int64, withoutSignedDate: Bool) {
        let signedDate = payload[dateKey].flatMap { try? Timestamp(jsonValue: $0) }.map {
            Date(timeIntervalSince1970: $0.millisecondsSince1970 / 1000)
        }
        return seconds(signedDate: signedDate, online: online, clock: clock)
    }

    /// `date` in whole seconds since 1970, rounded down; nil when it is not finite or more than 10¹⁴
    /// seconds (three million years) from 1970, which no certificate's validity can hold. The one
    /// conversion of a `Date` into the seconds the certificate checks and the OCSP freshness rules compare.
    static func seconds(_ date: Date) -> Int64? {
        let value = date.timeIntervalSince1970
        return value.isFinite && abs(value) < 1e14 ? Int64(value.rounded(.down)) : nil
    }
}
