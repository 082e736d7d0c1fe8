import Foundation
import Testing

@testable import JWSVerify

/// ``ISO8601Text/civil(fromDays:)`` (Neri and Schneider's form, with Hinnant's for far days) against Hinnant's
/// `civil_from_days` and against Foundation's Gregorian calendar.
@Suite("Civil dates from day counts")
struct CivilDateTests {
    /// Input: every day from about the year -770 to 10,730 (days -1,000,000 to 3,200,000 from 1970), the ends of the
    /// fast form's range and of `Int64`'s days. Expected: the same year, month and day as Hinnant's algorithm.
    @Test("the fast form equals Hinnant's on every day of the years -770 to 10,730 and at its range's ends")
    func everyDay() {
        var mismatches = 0
        for days: Int64 in -1_000_000...3_200_000
        where ISO8601Text.civil(fromDays: days) != ISO8601Text.hinnantCivil(fromDays: days) {
            mismatches += 1
            if mismatches < 5 { Issue.record("day \(days)") }
        }
        #expect(mismatches == 0)
        let lowest: Int64 = -(719_468 + 146_097 * 82)
        let ends: [Int64] = [
            lowest - 1, lowest, lowest + 1, (1 << 50) + lowest - 1, (1 << 50) + lowest, Int64.max / 86_400,
            Int64.min / 86_400, 0, -1,
        ]
        for days in ends {
            #expect(ISO8601Text.civil(fromDays: days) == ISO8601Text.hinnantCivil(fromDays: days), "day \(days)")
        }
    }

    /// Input: 10,000 days spread over the years 1583 to 9999 (Foundation's Gregorian calendar is Julian before
    /// 1582-10-15). Expected: that calendar (GMT) names the same dates.
    @Test("dates equal Foundation's Gregorian calendar's")
    func foundation() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "GMT"))
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<10_000 {
            // 1583-01-01 is day -141,349; 9999-12-31 is day 2,932,896.
            let days = Int64.random(in: -141_349...2_932_896, using: &generator)
            let parts = calendar.dateComponents(
                [.year, .month, .day], from: Date(timeIntervalSince1970: Double(days) * 86_400))
            let civil = ISO8601Text.civil(fromDays: days)
            #expect(
                civil.year == Int64(parts.year ?? 0) && civil.month == Int64(parts.month ?? 0)
                    && civil.day == Int64(parts.day ?? 0), "day \(days)")
        }
    }
}
