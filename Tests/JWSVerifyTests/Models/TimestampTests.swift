import Foundation
import JWSVerify
import Testing

@Suite("Timestamp")
struct TimestampTests {
    private func decode(_ json: String) throws -> Timestamp {
        try ModelJSON.decode(Timestamp.self, from: json)
    }

    @Test("An integral timestamp decodes and encodes as an integer, without .0")
    func integral() throws {
        let timestamp = try decode("1698148900000")
        #expect(timestamp.millisecondsSince1970 == 1_698_148_900_000)
        #expect(timestamp.date == Date(timeIntervalSince1970: 1_698_148_900))
        #expect(try ModelJSON.encodedString(timestamp) == "1698148900000")
    }

    @Test(
        "Fractional and negative timestamps decode and encode to the same number",
        arguments: [
            "1697679936049.123", "1697679936049.7297", "-1000", "-62135769600000", "0.5", "-0.25",
        ])
    func roundTrip(json: String) throws {
        let timestamp = try decode(json)
        #expect(timestamp.millisecondsSince1970 == Double(json))
        #expect(try ModelJSON.encodedString(timestamp) == json)
    }

    @Test("A negative timestamp is before 1970")
    func negative() throws {
        let timestamp = try decode("-1000")
        #expect(timestamp.date == Date(timeIntervalSince1970: -1))
        #expect(timestamp < Timestamp(millisecondsSince1970: 0))
    }

    @Test("Converts to and from Date")
    func dates() {
        let date = Date(timeIntervalSince1970: 1_698_148_900.5)
        #expect(Timestamp(date).millisecondsSince1970 == 1_698_148_900_500)
        #expect(Timestamp(date).date == date)
    }

    @Test("Orders by time")
    func ordering() {
        let times = [3.5, -1, 2].map(Timestamp.init(millisecondsSince1970:))
        #expect(times.sorted().map(\.millisecondsSince1970) == [-1, 2, 3.5])
        #expect(Timestamp(millisecondsSince1970: 5) == Timestamp(millisecondsSince1970: 5.0))
    }

    @Test(
        "Huge values encode as floating point without trapping",
        arguments: [
            1e300, -1e300, 9.3e18, -9.3e18, 0x1p63, Double.greatestFiniteMagnitude,
        ])
    func huge(value: Double) throws {
        let timestamp = Timestamp(millisecondsSince1970: value)
        let decoded = try ModelJSON.decode(Timestamp.self, from: ModelJSON.encode(timestamp))
        #expect(decoded == timestamp)
    }

    @Test("The Int64 limits encode as integers")
    func int64Limits() throws {
        #expect(try ModelJSON.encodedString(Timestamp(millisecondsSince1970: -0x1p63)) == "-9223372036854775808")
        let largest = 0x1p63 - 1024  // the largest Double below 2^63
        #expect(try ModelJSON.encodedString(Timestamp(millisecondsSince1970: largest)) == "9223372036854774784")
    }

    @Test(
        "NaN and infinities throw an EncodingError instead of trapping",
        arguments: [
            Double.nan, Double.infinity, -Double.infinity,
        ])
    func notFinite(value: Double) {
        #expect(throws: EncodingError.self) {
            try ModelJSON.encode(Timestamp(millisecondsSince1970: value))
        }
    }

    @Test(
        "A value of the wrong JSON type throws a DecodingError",
        arguments: [
            #""1698148900000""#, "true", "{}", "[1]", "null",
        ])
    func wrongType(json: String) {
        #expect(throws: DecodingError.self) {
            try decode(json)
        }
    }
}
