import Testing

@testable import JWSVerify

@Suite("JSON syntax check")
struct JSONSyntaxTests {
    @Test(
        "objects are accepted",
        arguments: [
            "{}", " {\"a\":1} ", "{\"a\":[1,2.5e-3,-0,true,false,null,\"x\"],\"b\":{\"c\":{}}}",
            "{\"\\u00e9\":\"caf\u{e9}\",\"e\\\"\":\"\\ud83d\\ude00\"}", "{\"a\":1E+2}",
        ])
    func accepts(_ text: String) {
        #expect(throws: Never.self) { try JSONSyntax.validateObject(Array(text.utf8)) }
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
        #expect(throws: JSONSyntax.Failure.self) { try JSONSyntax.validateObject(Array(text.utf8)) }
    }

    @Test("invalid UTF-8 inside strings is rejected")
    func rejectsInvalidUTF8() {
        let cases: [[UInt8]] = [[0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xE2, 0x82], [0x80]]
        for sequence in cases {
            let bytes = Array("{\"a\":\"".utf8) + sequence + Array("\"}".utf8)
            #expect(throws: JSONSyntax.Failure.self, "\(sequence)") { try JSONSyntax.validateObject(bytes) }
        }
    }

    /// Input: 33 nested arrays inside an object, and 32. Expected: the default depth limit is 32.
    @Test("nesting is limited")
    func nestingLimit() {
        let deep = "{\"a\":" + String(repeating: "[", count: 32) + String(repeating: "]", count: 32) + "}"
        let ok = "{\"a\":" + String(repeating: "[", count: 31) + String(repeating: "]", count: 31) + "}"
        #expect(throws: JSONSyntax.Failure.self) { try JSONSyntax.validateObject(Array(deep.utf8)) }
        #expect(throws: Never.self) { try JSONSyntax.validateObject(Array(ok.utf8)) }
    }
}
