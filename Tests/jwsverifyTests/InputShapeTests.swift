import JWSVerify
import Testing

@testable import jwsverify

/// The fast path of ``InputShape`` for plain NDJSON wrapper objects, against the strict parser.
@Suite("Input shape")
struct InputShapeTests {
    /// Crafted object lines: plain ones the fast path reads, and near misses (escapes, non-ASCII,
    /// duplicates, both token members, non-string members, other whitespace, trailing bytes) it must
    /// leave to the parser.
    static let lines: [String] = [
        #"{"expect":"verified","token":"eyJ.a.b"}"#,
        #"{"token":"eyJ.a.b"}"#,
        #"{ "token" : "eyJ.a.b" , "id" : "x-1" }"#,
        #"{"signedPayload":"eyJ.a.b","id":"7"}"#,
        #"{"id":"a","token":"t","other":"z"}"#,
        #"{"token":""}"#,
        #"{"token":"a b ~ !"}"#,
        #"{"token":"a","token":"b"}"#,
        #"{"id":"1","id":"2","token":"t"}"#,
        #"{"token":"a","signedPayload":"b"}"#,
        #"{"expect":"verified"}"#,
        #"{"token":1}"#,
        #"{"token":"t","id":7}"#,
        #"{"token":"t","id":null}"#,
        #"{"token":"t","id":{"a":"b"}}"#,
        #"{"token":"a\"b"}"#,
        #"{"token":"a\u0041"}"#,
        #"{"tok\u0065n":"a"}"#,
        "{\"token\":\"caf\u{E9}\"}",
        "{\"token\":\"a\u{7F}\"}",
        "{\"token\":\"a\tb\"}",
        "{\"token\":\t\"a\"}",
        #"{"token":"a"} x"#,
        #"{"token":"a"}}"#,
        #"{"token":"a",}"#,
        #"{"token":"a""#,
        #"{"token""a"}"#,
        #"{"token":"a" "id":"b"}"#,
        #"{}"#,
        #"{"#,
        #"{"a":"1","b":"2","c":"3","d":"4","e":"5","f":"6","g":"7","h":"8","token":"t"}"#,
    ]

    /// Input: each crafted line. Expected: ``InputShape/read(_:what:)`` gives exactly what the strict
    /// parser alone gives (token, id, or the same failure message), and the fast path answers only
    /// for lines the parser accepts with the same token and id.
    @Test("the plain-object fast path reads what the strict parser reads", arguments: lines)
    func fastPathMatchesParser(line: String) {
        let bytes = Array(line.utf8)
        let parsed = InputShape.object(bytes, what: "the line")
        let read = InputShape.read(bytes, what: "the line")
        switch (read, parsed) {
        case (.success(let fast), .success(let strict)):
            #expect(fast.token == strict.token && fast.id == strict.id, "\(line)")
        case (.failure(let fast), .failure(let strict)):
            #expect(fast.message == strict.message && fast.id == strict.id, "\(line)")
        default:
            Issue.record("\(line): read \(read), parser \(parsed)")
        }
        if let plain = InputShape.plainObject(in: bytes, range: 0..<bytes.count) {
            guard case .success(let strict) = parsed else {
                Issue.record("\(line): fast path accepted what the parser refuses")
                return
            }
            #expect(plain.token == strict.token && plain.id == strict.id, "\(line)")
        }
    }

    /// Input: the benchmark's wrapper line. Expected: the fast path reads it (it is what `batch` is fed).
    @Test("the NDJSON wrapper line takes the fast path")
    func wrapperLineIsPlain() {
        let bytes = Array(#"{"expect":"verified","token":"eyJ.a.b","id":"9"}"#.utf8)
        let plain = InputShape.plainObject(in: bytes, range: 0..<bytes.count)
        #expect(plain?.token == "eyJ.a.b")
        #expect(plain?.id == .string("9"))
    }
}
