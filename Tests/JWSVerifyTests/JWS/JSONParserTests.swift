import Foundation
import Testing

@testable import JWSVerify

@Suite("JSON parser")
struct JSONParserTests {
    @Test(
        "objects are accepted",
        arguments: [
            "{}", " {\"a\":1} ", "{\"a\":[1,2.5e-3,-0,true,false,null,\"x\"],\"b\":{\"c\":{}}}",
            "{\"\\u00e9\":\"caf\u{e9}\",\"e\\\"\":\"\\ud83d\\ude00\"}", "{\"a\":1E+2}",
        ])
    func accepts(_ text: String) {
        #expect(throws: Never.self) { _ = try JSONParser.parseObject(Array(text.utf8)) }
    }

    /// Input: things that are not exactly one JSON object, or exceed the limits. Expected: rejected.
    @Test(
        "non-objects and bad JSON are rejected",
        arguments: [
            "", "[]", "\"s\"", "1", "null", "{", "{\"a\"}", "{\"a\":}", "{\"a\":1,}", "{a:1}", "{\"a\":01}",
            "{\"a\":1.}", "{\"a\":.5}", "{\"a\":tru}", "{\"a\":\"\u{1}\"}", "{\"a\":\"\\x\"}", "{\"a\":\"\\u12\"}",
            "{} {}", "{\"a\":1}x", "{\"a\":1,\"a\":2}", "{\"a\":1,\"\\u0061\":2}", "{\"a\":NaN}", "{\"a\":+1}",
        ])
    func rejects(_ text: String) {
        #expect(throws: JSONParser.Failure.self) { _ = try JSONParser.parseObject(Array(text.utf8)) }
    }

    @Test("invalid UTF-8 inside strings is rejected")
    func rejectsInvalidUTF8() {
        let cases: [[UInt8]] = [[0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xE2, 0x82], [0x80]]
        for sequence in cases {
            let bytes = Array("{\"a\":\"".utf8) + sequence + Array("\"}".utf8)
            #expect(throws: JSONParser.Failure.self, "\(sequence)") { _ = try JSONParser.parseObject(bytes) }
        }
    }

    /// Input: 33 nested arrays inside an object, and 32. Expected: the default depth limit is 32.
    @Test("nesting is limited")
    func nestingLimit() {
        let deep = "{\"a\":" + String(repeating: "[", count: 32) + String(repeating: "]", count: 32) + "}"
        let ok = "{\"a\":" + String(repeating: "[", count: 31) + String(repeating: "]", count: 31) + "}"
        #expect(throws: JSONParser.Failure.self) { _ = try JSONParser.parseObject(Array(deep.utf8)) }
        #expect(throws: Never.self) { _ = try JSONParser.parseObject(Array(ok.utf8)) }
    }
}

@Suite("JSON parser values")
struct JSONParserValueTests {
    @Test("numbers keep integer or floating nature")
    func numbers() throws {
        let object = try JSONParser.parseObject(
            Array(
                #"{"a":0,"b":-12,"c":9223372036854775807,"d":-9223372036854775808,"e":9223372036854775808,"f":1.5,"g":1e3,"h":-0}"#
                    .utf8))
        #expect(object["a"] == .integer(0))
        #expect(object["b"] == .integer(-12))
        #expect(object["c"] == .integer(.max))
        #expect(object["d"] == .integer(.min))
        #expect(object["e"] == .double(9_223_372_036_854_775_808))
        #expect(object["f"] == .double(1.5))
        // Classified by value, not spelling, so that a round trip keeps the case.
        #expect(object["g"] == .integer(1000))
        #expect(object["h"] == .integer(0))
        #expect(throws: JSONParser.Failure.self) { _ = try JSONParser.parseObject(Array(#"{"a":1e999}"#.utf8)) }
    }

    @Test("strings are unescaped, surrogate pairs joined")
    func strings() throws {
        let object = try JSONParser.parseObject(
            Array(#"{"a":"x\"\\\/\b\f\n\r\t","b":"\u00e9\ud83d\ude00","c":"\ud83d","d":"café"}"#.utf8))
        #expect(object["a"] == .string("x\"\\/\u{8}\u{c}\n\r\t"))
        #expect(object["b"] == .string("é😀"))
        #expect(object["c"] == .string("\u{FFFD}"))
        #expect(object["d"] == .string("café"))
    }

    /// The decoder the verifier uses gives the same models as Foundation's JSONDecoder for every
    /// App Store model file.
    @Test(
        "the tree decoder agrees with JSONDecoder on Apple's model files",
        arguments: [
            "signedTransaction", "signedTransactionWithRevocation", "signedRenewalInfo", "appTransaction",
            "signedNotification", "signedSummaryNotification", "signedConsumptionRequestNotification",
            "signedExternalPurchaseTokenNotification", "decodedRealtimeRequest", "appData",
        ])
    func decoderAgrees(_ name: String) throws {
        let data = try TestVectorFiles.data("apple-library/models/\(name).json")
        let object = try JSONParser.parseObject(Array(data))
        func same<T: JSONObjectDecodable & Decodable & Equatable>(_ type: T.Type) throws {
            #expect(
                try T(json: JSONObjectReader(object: object)) == JSONDecoder().decode(T.self, from: data), "\(name)")
        }
        try same(JWSTransactionDecodedPayload.self)
        try same(JWSRenewalInfoDecodedPayload.self)
        try same(AppTransaction.self)
        try same(ResponseBodyV2DecodedPayload.self)
        try same(DecodedRealtimeRequestBody.self)
        try same(AppData.self)
    }

    /// A wrong JSON type is a DecodingError from both decoders, not a trap.
    @Test("type mismatches throw")
    func mismatches() throws {
        for text in [
            #"{"transactionId":1}"#, #"{"quantity":"1"}"#, #"{"quantity":1.5}"#, #"{"signedDate":"x"}"#,
            #"{"environment":1}"#, #"{"quantity":99999999999}"#,
        ] {
            let object = try JSONParser.parseObject(Array(text.utf8))
            #expect(throws: DecodingError.self, "\(text)") {
                _ = try JWSTransactionDecodedPayload(json: JSONObjectReader(object: object))
            }
            #expect(throws: DecodingError.self, "\(text)") {
                _ = try JSONDecoder().decode(JWSTransactionDecodedPayload.self, from: Data(text.utf8))
            }
        }
    }
}
