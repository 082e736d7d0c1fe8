import Foundation
import Testing

@testable import JWSVerify

/// The three `verifyReceipt` texts of the instant `milliseconds` after 1970 as the code before the integer
/// arithmetic made them: ISO 8601 text of its whole seconds (rounded down), the milliseconds in decimal, and ISO 8601
/// text of those seconds plus Foundation's America/Los_Angeles offset (the system's time zone database) at that
/// instant. The reference the arithmetic must equal; nil outside the years 0 to 9999.
private func referenceTexts(
    milliseconds: Int64, zone: TimeZone
) -> (gmt: String, milliseconds: String, pacific: String)? {
    let seconds = milliseconds >= 0 ? milliseconds / 1000 : -((-milliseconds + 999) / 1000)
    guard seconds >= -62_167_219_200, seconds < 253_402_300_800 else { return nil }
    let offset = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds))))
    func spaced(_ iso: String) -> String { String(iso.dropLast().map { $0 == "T" ? " " : $0 }) }
    return (
        spaced(ISO8601Text.iso8601(seconds: seconds)) + " Etc/GMT", String(milliseconds),
        spaced(ISO8601Text.iso8601(seconds: seconds + offset)) + " America/Los_Angeles"
    )
}

@Suite("Receipt dates in the verifyReceipt texts")
struct ReceiptDateTextTests {
    static let losAngeles = TimeZone(identifier: "America/Los_Angeles")

    /// Whether the integer texts of each instant (seconds since 1970, a whole number of milliseconds) equal the time
    /// zone database's; the instants that differ.
    private func mismatches(_ instants: [Double]) throws -> [String] {
        let zone = try #require(Self.losAngeles, "no America/Los_Angeles in this system's time zone database")
        var found: [String] = []
        for instant in instants {
            let date = Date(timeIntervalSince1970: instant)
            let texts = ReceiptDate.verifyReceiptTexts(date)
            let reference =
                abs(instant) < 1e15 ? referenceTexts(milliseconds: Int64((instant * 1000).rounded()), zone: zone) : nil
            if texts?.gmt != reference?.gmt || texts?.milliseconds != reference?.milliseconds
                || texts?.pacific != reference?.pacific
            {
                found.append("\(instant): \(String(describing: texts)) != \(String(describing: reference))")
            }
        }
        return found
    }

    /// Input: every switch of America/Los_Angeles that Foundation's time zone database reports from the year 0 to
    /// 2400 (local mean time to PST in 1883, the US and California daylight-time rules, war time), and the two
    /// switches of every 7th year after that up to 9999; each instant, one second and one hour either side.
    /// Expected: the integer texts equal the database's, at each.
    @Test("the Pacific text switches where the time zone database does, from the year 0 to 9999")
    func everySwitch() throws {
        let zone = try #require(Self.losAngeles)
        var switches: [Double] = []
        var after = Date(timeIntervalSince1970: -62_167_219_200)
        while let next = zone.nextDaylightSavingTimeTransition(after: after),
            next.timeIntervalSince1970 < 13_569_465_600
        {
            switches.append(next.timeIntervalSince1970)
            after = next
        }
        #expect(switches.count > 850, "\(switches.count) switches up to 2400")
        for year in stride(from: 2400, through: 9999, by: 7) {
            let newYear = Double(ReceiptDate.seconds(rfc3339: ArraySlice("\(year)-01-01T00:00:00Z".utf8)) ?? 0)
            var date = Date(timeIntervalSince1970: newYear)
            for _ in 0..<2 {
                guard let next = zone.nextDaylightSavingTimeTransition(after: date) else { break }
                switches.append(next.timeIntervalSince1970)
                date = next
            }
        }
        let instants = switches.flatMap { [$0 - 3600, $0 - 1, $0, $0 + 1, $0 + 3600] }
        #expect(try mismatches(instants) == [])
    }

    /// Input: every six hours from 1880 to 2040, so that a daylight-time period the database doesn't have (or
    /// lacks) would show. Expected: the texts equal the database's at each.
    @Test("the Pacific text equals the time zone database's every six hours from 1880 to 2040")
    func everySixHours() throws {
        let instants = stride(from: -2_840_140_800.0, to: 2_208_988_800, by: 21_600).map { $0 }
        #expect(try mismatches(instants) == [])
    }

    /// Input: 20,000 instants spread over the years 0 to 9999 by a Weyl sequence (the same on every run), in
    /// milliseconds, and instants around 1970 (below a millisecond from it: the `Date` rounds them to 1970).
    /// Expected: the texts equal the database's, with the instant's own milliseconds (about one in twenty of these
    /// dates gives `timeIntervalSince1970 * 1000` just below its whole milliseconds, which rounding down read as
    /// one millisecond earlier).
    @Test("instants spread over the years 0 to 9999 give the database's texts")
    func spreadInstants() throws {
        let first: Int64 = -62_167_219_200_000
        let span = UInt64(253_402_300_800_000 - first)
        var instants = (0..<20_000).map { (index: UInt64) in
            Double(first + Int64((index &* 0x9e37_79b9_7f4a_7c15) % span)) / 1000
        }
        instants += [-1, -0.5, -0.001, 0, 0.001, 0.999, 1, 1e-9, -1e-9, 86_399.999]
        #expect(try mismatches(instants) == [])
    }

    /// Input: the first and last second of the years 0 to 9999, and one second outside each; the switch from local
    /// mean time in 1883; infinite and NaN. Expected: the texts written out (the year 0 starting on 31 December of
    /// the year -1 in Los Angeles, at local mean time -7:52:58), nil outside the range.
    @Test("the ends of the range and local mean time")
    func ends() throws {
        let first = try #require(ReceiptDate.verifyReceiptTexts(Date(timeIntervalSince1970: -62_167_219_200)))
        #expect(first.gmt == "0000-01-01 00:00:00 Etc/GMT")
        #expect(first.milliseconds == "-62167219200000")
        #expect(first.pacific == "-000001-12-31 16:07:02 America/Los_Angeles")
        let last = try #require(ReceiptDate.verifyReceiptTexts(Date(timeIntervalSince1970: 253_402_300_799.5)))
        #expect(last.gmt == "9999-12-31 23:59:59 Etc/GMT")
        #expect(last.milliseconds == "253402300799500")
        #expect(last.pacific == "9999-12-31 15:59:59 America/Los_Angeles")
        let lastMeanTime = try #require(ReceiptDate.verifyReceiptTexts(Date(timeIntervalSince1970: -2_717_640_001)))
        #expect(lastMeanTime.pacific == "1883-11-18 12:07:01 America/Los_Angeles")
        let firstStandard = try #require(ReceiptDate.verifyReceiptTexts(Date(timeIntervalSince1970: -2_717_640_000)))
        #expect(firstStandard.pacific == "1883-11-18 12:00:00 America/Los_Angeles")
        for outside in [-62_167_219_200.001, 253_402_300_800, .infinity, -.infinity, .nan, 1e300] {
            #expect(ReceiptDate.verifyReceiptTexts(Date(timeIntervalSince1970: outside)) == nil, "\(outside)")
        }
        #expect(try mismatches([-62_167_219_200, -62_167_219_201, 253_402_300_799, 253_402_300_800]) == [])
    }

    /// Input: dates made from whole milliseconds (as `_ms` texts decode, `Date(timeIntervalSince1970: ms / 1000)`),
    /// negative ones around 1970 and others, and the first and last millisecond of the years 0 to 9999. Expected: the
    /// `_ms` text is those milliseconds (-0.001 s once wrote "-2", 0.999 s "998"), the GMT and Pacific texts are of
    /// their seconds rounded down, and ISO 8601 text shows the same milliseconds.
    @Test(
        "a date of whole milliseconds writes those milliseconds, negative ones too",
        arguments: [
            (-1, "1969-12-31 23:59:59", "1969-12-31T23:59:59.999Z"),
            (-999, "1969-12-31 23:59:59", "1969-12-31T23:59:59.001Z"),
            (-1000, "1969-12-31 23:59:59", "1969-12-31T23:59:59Z"),
            (-1001, "1969-12-31 23:59:58", "1969-12-31T23:59:58.999Z"),
            (-1999, "1969-12-31 23:59:58", "1969-12-31T23:59:58.001Z"),
            (-86_400_001, "1969-12-30 23:59:59", "1969-12-30T23:59:59.999Z"),
            (-2_717_640_001_001, "1883-11-18 19:59:58", "1883-11-18T19:59:58.999Z"),
            (999, "1970-01-01 00:00:00", "1970-01-01T00:00:00.999Z"),
            (1001, "1970-01-01 00:00:01", "1970-01-01T00:00:01.001Z"),
            (1_766_770_987_001, "2025-12-26 17:43:07", "2025-12-26T17:43:07.001Z"),
            (-62_167_219_200_000, "0000-01-01 00:00:00", "0000-01-01T00:00:00Z"),
            (-62_167_219_199_999, "0000-01-01 00:00:00", "0000-01-01T00:00:00.001Z"),
            (253_402_300_799_999, "9999-12-31 23:59:59", "9999-12-31T23:59:59.999Z"),
        ] as [(Int64, String, String)])
    func wholeMilliseconds(milliseconds: Int64, gmt: String, iso8601: String) throws {
        let zone = try #require(Self.losAngeles)
        let decoded = try #require(ReceiptDate.date(milliseconds: String(milliseconds)))
        #expect(decoded == Date(timeIntervalSince1970: Double(milliseconds) / 1000))
        let texts = try #require(ReceiptDate.verifyReceiptTexts(decoded))
        #expect(texts.milliseconds == String(milliseconds))
        #expect(texts.gmt == gmt + " Etc/GMT")
        #expect(texts.pacific == referenceTexts(milliseconds: milliseconds, zone: zone)?.pacific)
        #expect(ISO8601Text.iso8601(decoded) == iso8601)
        #expect(ISO8601Text.wholeMilliseconds(decoded) == Double(milliseconds))
        // The payload JSON writes the same texts, and reads them back to the same date.
        var json: [UInt8] = []
        #expect(AppReceipt(receiptCreationDate: decoded).appendJSON(to: &json))
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.contains(#""receipt_creation_date_ms":"\#(milliseconds)""#), "\(text)")
        #expect(text.contains(#""receipt_creation_date":"\#(gmt) Etc/GMT""#), "\(text)")
        let read = try JSONDecoder().decode(AppReceipt.self, from: Data(json))
        #expect(read.receiptCreationDate == decoded)
    }

    /// Input: dates a millisecond text cannot make or the years 0 to 9999 do not hold: `Int64.min` and `Int64.max`
    /// milliseconds (as text, and as dates of those milliseconds and of those seconds), the largest 16-digit texts,
    /// infinities; and the floor division of the extremes. Expected: no text (nil), no trap; ISO 8601 text of the
    /// dates without a trap; the floor division defined at `Int64.min` and `Int64.max`.
    @Test("extreme millisecond values write no receipt text and trap nowhere")
    func extremeMilliseconds() {
        for text in [
            String(Int64.min), String(Int64.max), "-9999999999999999", "9999999999999999", "-", "", "1.5", "+1",
        ] {
            let date = ReceiptDate.date(milliseconds: text)
            #expect(date.flatMap(ReceiptDate.verifyReceiptTexts) == nil, "\(text)")
        }
        #expect(ReceiptDate.date(milliseconds: String(Int64.min)) == nil)
        #expect(ReceiptDate.date(milliseconds: "-9999999999999999") != nil)
        for seconds in [
            Double(Int64.min) / 1000, Double(Int64.max) / 1000, Double(Int64.min), Double(Int64.max),
            -.greatestFiniteMagnitude, .greatestFiniteMagnitude, -.infinity, .infinity,
        ] {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(ReceiptDate.verifyReceiptTexts(date) == nil, "\(seconds)")
            #expect(ReceiptDate.rfc3339(date) == nil, "\(seconds)")
            #expect(!ISO8601Text.iso8601(date).isEmpty)
        }
        #expect(ISO8601Text.floorDivide(Int64.min, 1000) == (-9_223_372_036_854_776, 192))
        #expect(ISO8601Text.floorDivide(Int64.max, 1000) == (9_223_372_036_854_775, 807))
        #expect(ISO8601Text.floorDivide(-1, 1000) == (-1, 999))
        #expect(ISO8601Text.floorDivide(-1000, 1000) == (-1, 0))
        #expect(ISO8601Text.floorDivide(-1001, 1000) == (-2, 999))
        #expect(ISO8601Text.floorDivide(Int64.min, 86_400) == (-106_751_991_167_301, 30_592))
    }

    /// Input: the switches the rules write out: war time (1942-02-09T10:00Z to 1945-09-30T09:00Z), California's
    /// 1948 start at 2:01 and its end at the new year 1949, the 1974 and 1975 winter starts, and 2007's. Expected:
    /// the Pacific texts as tzdata writes these switches (zdump).
    @Test(
        "irregular switches of the Pacific rules",
        arguments: [
            (-880_207_201, "1942-02-09 01:59:59"), (-880_207_200, "1942-02-09 03:00:00"),
            (-765_385_201, "1945-09-30 01:59:59"), (-765_385_200, "1945-09-30 01:00:00"),
            (-687_967_141, "1948-03-14 02:00:59"), (-687_967_140, "1948-03-14 03:01:00"),
            (-662_655_601, "1949-01-01 01:59:59"), (-662_655_600, "1949-01-01 01:00:00"),
            (126_698_399, "1974-01-06 01:59:59"), (126_698_400, "1974-01-06 03:00:00"),
            (162_381_600, "1975-02-23 03:00:00"), (1_173_607_200, "2007-03-11 03:00:00"),
            (1_194_166_800, "2007-11-04 01:00:00"),
        ] as [(Int64, String)])
    func irregularSwitches(seconds: Int64, local: String) throws {
        let texts = try #require(ReceiptDate.verifyReceiptTexts(Date(timeIntervalSince1970: Double(seconds))))
        #expect(texts.pacific == local + " America/Los_Angeles")
    }
}
