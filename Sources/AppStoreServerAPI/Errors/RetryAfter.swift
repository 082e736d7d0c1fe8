import Foundation

/// The `Retry-After` header field (RFC 9110 §10.2.3): a number of seconds, or an HTTP date.
enum RetryAfter {
    /// The wait the field asks for, measured from `now`; `nil` when it is absent, malformed or negative seconds.
    /// A date in the past is a wait of zero.
    static func parse(_ value: String?, now: Date) -> Duration? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty, value.utf8.count <= 64 else {
            return nil
        }
        if value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            guard let seconds = Int64(value) else { return nil }
            return .seconds(seconds)
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        guard let date = formatter.date(from: value) else { return nil }
        let seconds = max(0, date.timeIntervalSince(now))
        return .milliseconds(Int64(seconds * 1000))
    }
}
