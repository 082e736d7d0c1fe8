import Foundation
import Testing

@testable import JWSVerify

/// `JWSHeader` decoded with `JSONDecoder` (its public `Codable` face) against the header the token
/// parser builds from the same JSON, and the `JSONValue` accessors the header and models rely on.
@Suite("JWS header decoding")
struct JWSHeaderDecodingTests {
    /// The header the compact-JWS parser builds for `json` (the verifier's path).
    static func parsedHeader(_ json: String) throws -> JWSHeader {
        JWSHeader(members: try JSONParser.parseObject(Array(json.utf8)))
    }

    /// Input: a header with every named member well typed and two unknown members. Expected:
    /// `JSONDecoder` gives the header that the initializer builds, the same header as the token parser,
    /// and encoding it gives the JSON back.
    @Test("a well-typed header decodes like the token parser's header and encodes back")
    func wellTyped() throws {
        let json =
            #"{"alg":"ES256","x5c":["MIIB","MIIC"],"kid":"Apple_Xcode_Key","typ":"JWT","crit":["exp"],"zip":"DEF","n":2}"#
        let expected = JWSHeader(
            alg: "ES256", x5c: ["MIIB", "MIIC"], kid: "Apple_Xcode_Key", typ: "JWT", crit: .array([.string("exp")]),
            additionalMembers: ["zip": .string("DEF"), "n": .integer(2)])
        let decoded = try JSONDecoder().decode(JWSHeader.self, from: Data(json.utf8))
        #expect(decoded == expected)
        #expect(try Self.parsedHeader(json) == expected)
        #expect(try ModelJSON.sameJSON(Data(json.utf8), JSONEncoder().encode(decoded)))
    }

    /// Input: named members of the wrong JSON type (`alg` a number, `x5c` a string, `x5c` entries
    /// not all strings, `kid` null, `typ` an object). Expected: each named field is nil and the member is
    /// kept unchanged in `additionalMembers`, exactly as the token parser does; encoding keeps them.
    @Test("mistyped named members are kept as additional members, as the token parser keeps them")
    func mistyped() throws {
        for json in [
            #"{"alg":1,"x5c":"MIIB","kid":null,"typ":{"a":true}}"#,
            #"{"alg":"ES256","x5c":["MIIB",7]}"#,
        ] {
            let decoded = try JSONDecoder().decode(JWSHeader.self, from: Data(json.utf8))
            #expect(decoded == (try Self.parsedHeader(json)), "\(json)")
            #expect(decoded.x5c == nil, "\(json)")
            #expect(try ModelJSON.sameJSON(Data(json.utf8), JSONEncoder().encode(decoded)), "\(json)")
        }
        let decoded = try JSONDecoder().decode(
            JWSHeader.self, from: Data(#"{"alg":1,"x5c":"MIIB","kid":null,"typ":{"a":true}}"#.utf8))
        #expect(decoded.alg == nil && decoded.kid == nil && decoded.typ == nil)
        #expect(
            decoded.additionalMembers == [
                "alg": .integer(1), "x5c": .string("MIIB"), "kid": .null, "typ": .object(["a": .bool(true)]),
            ])
    }

    /// Input: `{"alg":"ES256","crit":null}`. Expected: both paths see a `crit` member (a header with
    /// `crit` is rejected whatever its value), and it survives encoding.
    @Test("a null crit member is kept by both decoding paths")
    func nullCrit() throws {
        let json = #"{"alg":"ES256","crit":null}"#
        let parsed = try Self.parsedHeader(json)
        #expect(parsed.crit == .null)
        let decoded = try JSONDecoder().decode(JWSHeader.self, from: Data(json.utf8))
        #expect(decoded == parsed)
        let again = try JSONDecoder().decode(JWSHeader.self, from: try JSONEncoder().encode(decoded))
        #expect(again.crit == .null)
    }

    /// Input: a header that is not a JSON object. Expected: `JSONDecoder` throws a `DecodingError`.
    @Test("a header that is not an object does not decode")
    func notAnObject() {
        for json in [#"["ES256"]"#, #""ES256""#, "null"] {
            #expect(throws: DecodingError.self, "\(json)") {
                try JSONDecoder().decode(JWSHeader.self, from: Data(json.utf8))
            }
        }
    }

    /// Input: every kind of `JSONValue`. Expected: `doubleValue` is the number for integers and
    /// doubles and nil otherwise; `objectValue` is the members for an object and nil otherwise.
    @Test("JSONValue's number and object accessors")
    func accessors() {
        #expect(JSONValue.integer(-3).doubleValue == -3.0)
        #expect(JSONValue.integer(9_007_199_254_740_993).doubleValue == 9_007_199_254_740_992.0)
        #expect(JSONValue.double(2.5).doubleValue == 2.5)
        for other: JSONValue in [.null, .bool(true), .string("1"), .array([.integer(1)]), .object([:])] {
            #expect(other.doubleValue == nil, "\(other)")
        }
        #expect(JSONValue.object(["a": .null]).objectValue == ["a": .null])
        for other: JSONValue in [.null, .bool(false), .integer(1), .double(0.5), .string("{}"), .array([])] {
            #expect(other.objectValue == nil, "\(other)")
        }
        #expect(AnyCodingKey(intValue: 0) == nil)
        #expect(AnyCodingKey(stringValue: "x")?.stringValue == "x")
    }

    /// Input: strings whose UTF-8 starts with the lead bytes E0 and F4, the two with narrowed second
    /// byte ranges (no overlong three-byte forms, nothing above U+10FFFF). Expected: the smallest and
    /// largest valid sequences are accepted and decode to their scalars; one step outside is rejected, as is
    /// a sequence whose third or fourth byte is not a continuation byte.
    @Test("three- and four-byte UTF-8 at the edges of the E0 and F4 ranges")
    func utf8Edges() throws {
        func parse(_ sequence: [UInt8]) throws(JSONParser.Failure) -> [String: JSONValue] {
            try JSONParser.parseObject(Array(#"{"a":""#.utf8) + sequence + Array(#""}"#.utf8))
        }
        #expect(try parse([0xE0, 0xA0, 0x80]) == ["a": .string("\u{800}")])
        #expect(try parse([0xE0, 0xBF, 0xBF]) == ["a": .string("\u{FFF}")])
        #expect(try parse([0xF4, 0x80, 0x80, 0x80]) == ["a": .string("\u{100000}")])
        #expect(try parse([0xF4, 0x8F, 0xBF, 0xBF]) == ["a": .string("\u{10FFFF}")])
        for invalid: [UInt8] in [
            [0xE0, 0x9F, 0xBF], [0xE0, 0x80, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF4, 0xBF, 0xBF, 0xBF],
        ] {
            #expect(throws: JSONParser.Failure.self, "\(invalid)") { try parse(invalid) }
        }
        // A later byte that is not a continuation byte (10xxxxxx), in the third and in the fourth place.
        for invalid: [UInt8] in [[0xE2, 0x82, 0x41], [0xF0, 0x9F, 0x98, 0x41], [0xF1, 0x80, 0xC0, 0x80]] {
            do {
                _ = try parse(invalid)
                Issue.record("\(invalid) was accepted")
            } catch {
                #expect(error.reason == "invalid UTF-8", "\(invalid)")
            }
        }
    }

    /// Input: a high surrogate escape followed by plain text, by a non-surrogate escape, and at the end
    /// of the string. Expected: the lone surrogate becomes U+FFFD and what follows is kept.
    @Test("a lone high surrogate escape becomes U+FFFD")
    func loneHighSurrogate() throws {
        let cases: [(String, String)] = [
            (#"{"a":"\uD800x"}"#, "\u{FFFD}x"),
            (#"{"a":"\uD83D\u0041"}"#, "\u{FFFD}A"),
            (#"{"a":"\uD83D\n"}"#, "\u{FFFD}\n"),
            (#"{"a":"x\uDBFF"}"#, "x\u{FFFD}"),
            (#"{"a":"\uD83D\uDE00"}"#, "\u{1F600}"),
        ]
        for (json, expected) in cases {
            #expect(try JSONParser.parseObject(Array(json.utf8)) == ["a": .string(expected)], "\(json)")
        }
    }
}
