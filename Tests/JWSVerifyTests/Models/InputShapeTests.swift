import Foundation
import Testing

@testable import JWSVerify

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
        #"{"token":"t","id":-7}"#,
        #"{"token":"t","id":0}"#,
        #"{"token":"t","id":-0}"#,
        #"{"token":"t","id":007}"#,
        #"{"token":"t","id":-}"#,
        #"{"token":"t","id":1.5}"#,
        #"{"token":"t","id":1e3}"#,
        #"{"token":"t","id":123456789012345678}"#,
        #"{"token":"t","id":1234567890123456789}"#,
        #"{"token":"t","id":true}"#,
        #"{"token":"t","id":7x}"#,
        #"{"token":"t","n":12,"b":true,"f":false,"z":null}"#,
        #"{"token":"t","b":truex}"#,
        #"{"token":"t","b":tru}"#,
        #"{"token":"t","n":-}"#,
        #"{"token":"t","n":-true}"#,
        #"{"token":"t","n":-null,"id":"1"}"#,
        #"{"token":"t","n":[1]}"#,
        #"{"token":"t","n":{}}"#,
        #"{"token":"t","n":12 }"#,
        #"{"token":"t","n":12,}"#,
        #"{"token":true}"#,
        #"{"token":null,"id":"1"}"#,
        #"{"receipt-data":"MIIBx","password":"p","id":3}"#,
        #"{"receipt-data": "MIIBx", "password": "shared-secret", "id": 1999}"#,
        #"{"receipt-data":"MIIBx","exclude-old-transactions":true}"#,
        #"{"receipt-data":"MIIBx","token":"eyJ.a.b"}"#,
        #"{"receipt-data":"MIIBx","receipt-data":"MIIBy"}"#,
        #"{"receipt-data":7,"id":"r1"}"#,
        #"{"receipt-data":"MII\/Bx"}"#,
        #"{"receipt-data":"","id":"e"}"#,
        #"{"signedPayload":"eyJ.a.b","receipt-data":"MIIBx","id":2}"#,
    ]

    /// Input: each crafted line. Expected: ``InputShape/read(_:what:)`` gives exactly what the strict
    /// parser alone gives (token, id, or the same failure message), and the fast path answers only
    /// for lines the parser accepts with the same token and id.
    @Test("the plain-object fast path reads what the strict parser reads", arguments: lines)
    func fastPathMatchesParser(line: String) {
        let bytes = Array(line.utf8)
        let parsed = InputShape.object(bytes[...], what: "the line", receipts: false)
        let read = InputShape.read(bytes, what: "the line")
        switch (read, parsed) {
        case (.success(let fast), .success(let strict)):
            #expect(fast.token?.string == strict.token?.string && fast.id == strict.id, "\(line)")
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
            #expect(plain.token?.string == strict.token?.string && plain.id == strict.id, "\(line)")
        }
    }

    /// Input: each crafted line, read as a `batch` line (`{"receipt-data": ...}` accepted). Expected: what the strict
    /// parser alone gives (the same token or receipt and id, or the same failure message), and the fast path answers
    /// only for lines the parser accepts, with the same content and id.
    @Test("the plain-object fast path reads batch lines as the strict parser does", arguments: lines)
    func fastPathMatchesParserForBatchLines(line: String) {
        let bytes = Array(line.utf8)
        func content(_ shaped: ShapedInput) -> [UInt8] {
            switch shaped.content {
            case .receipt(let receipt): return Array("receipt:".utf8) + receipt
            case .token(let token): return Array("token:".utf8) + token.utf8
            }
        }
        let parsed = InputShape.object(bytes[...], what: "the line", receipts: true)
        let read = InputShape.read(bytes, range: bytes.indices, what: "the line", receipts: true)
        switch (read, parsed) {
        case (.success(let fast), .success(let strict)):
            #expect(content(fast) == content(strict) && fast.id == strict.id, "\(line)")
        case (.failure(let fast), .failure(let strict)):
            #expect(fast.message == strict.message && fast.id == strict.id && fast.receipt == strict.receipt, "\(line)")
        default:
            Issue.record("\(line): read \(read), parser \(parsed)")
        }
        if let plain = InputShape.plainObject(in: bytes, range: bytes.indices, receipts: true) {
            guard case .success(let strict) = parsed else {
                Issue.record("\(line): fast path accepted what the parser refuses")
                return
            }
            #expect(content(plain) == content(strict) && plain.id == strict.id, "\(line)")
        }
    }

    /// Input: a line whose string is not closed, in a buffer whose bytes after the line (another line, or bytes of an
    /// earlier chunk that `batch` did not read again) would close it and the object. Expected: the fast path reads
    /// only the line: it refuses it as the strict parser does, and a scan for the closing quote stops at the line's end
    /// (`ByteScanning.firstIndex(of:in:from:before:)` finds nothing there, though the byte follows).
    @Test("the fast path reads no byte past its line")
    func fastPathStaysInItsLine() {
        let line = Array(#"{"token":"abc"#.utf8)
        let buffer = line + Array(#"", "id": 1}"#.utf8)
        #expect(InputShape.plainObject(in: buffer, range: 0..<line.count) == nil)
        #expect(ByteScanning.firstIndex(of: UInt8(ascii: "\""), in: buffer, from: 10, before: line.count) == nil)
        #expect(ByteScanning.firstIndex(of: UInt8(ascii: "\""), in: buffer, from: 10) == line.count)
        #expect(ByteScanning.firstIndex(of: UInt8(ascii: "a"), in: buffer, from: 10, before: 11) == 10)
        #expect(ByteScanning.firstIndex(of: UInt8(ascii: "a"), in: buffer, from: 10, before: 10) == nil)
    }

    /// Input: the `verifyReceipt` body as `Benchmarks/batch-rate.sh --receipts` writes it (Python's `json.dumps`:
    /// spaces after `:` and `,`, a numeric id). Expected: the fast path reads it, the receipt's text and the id's.
    @Test("the verifyReceipt body line takes the fast path")
    func receiptBodyLineIsPlain() {
        let bytes = Array(#"{"receipt-data": "MIIBx+/=", "password": "shared-secret", "id": 17}"#.utf8)
        let plain = InputShape.plainObject(in: bytes, range: bytes.indices, receipts: true)
        guard case .receipt(let receipt)? = plain?.content else {
            Issue.record("not read as a receipt: \(String(describing: plain))")
            return
        }
        #expect(receipt == Array("MIIBx+/=".utf8))
        #expect(plain?.id?.bytes == Array("17".utf8))
        // Outside batch lines, the fast path leaves a receipt-data object to the parser.
        #expect(InputShape.plainObject(in: bytes, range: bytes.indices) == nil)
    }

    /// Input: the benchmark's wrapper line. Expected: the fast path reads it (it is what `batch` is fed).
    @Test("the NDJSON wrapper line takes the fast path")
    func wrapperLineIsPlain() {
        let bytes = Array(#"{"expect":"verified","token":"eyJ.a.b","id":"9"}"#.utf8)
        let plain = InputShape.plainObject(in: bytes, range: 0..<bytes.count)
        #expect(plain?.token?.string == "eyJ.a.b")
        #expect(plain?.id?.bytes == Array(#""9""#.utf8))
    }

    /// The text of each `id` the issue names, and others: each is echoed exactly as written.
    static let echoedIds: [String] = [
        "9223372036854775808", "9223372036854775809", #""\ud800""#, #""\udbff""#, "-9223372036854775809",
        "-123456789012345678901234567890", "1e400", "-0", "1.50", "0.1e-7", #""\u0041\n\t\"\\""#, #""caf\u00e9""#,
        "\"caf\u{E9}\"", #""\ud83d\ude00""#, "\"\u{1F600}\"", #""""#,
    ]

    /// Input: an object line with a token and each id of ``echoedIds``, written with spaces around the id.
    /// Expected: the id's JSON text exactly as written, without the spaces; distinct texts stay distinct (the
    /// parsed values of `9223372036854775808` and `9223372036854775809` are the same `Double`, of `"\ud800"` and
    /// `"\udbff"` the same U+FFFD).
    @Test("an id is kept as its JSON text, byte for byte", arguments: echoedIds)
    func idIsKeptAsWritten(id: String) throws {
        let bytes = Array("{\"token\":\"eyJ.a.b\", \"id\" :  \(id) }".utf8)
        let shaped = try InputShape.read(bytes, what: "the line").get()
        #expect(shaped.id?.bytes == Array(id.utf8), "\(id)")
        let body = Array("{\"receipt-data\":\"MIIB\",\"password\":\"x\",\"id\":\(id)}".utf8)
        let receipt = try InputShape.readLine(body, range: body.indices).get()
        #expect(receipt.id?.bytes == Array(id.utf8), "\(id)")
    }

    /// Input: the issue's colliding ids. Expected: distinct texts.
    @Test("ids that parse to the same value stay distinct")
    func collidingIdsStayDistinct() throws {
        func id(_ text: String) throws -> [UInt8]? {
            try InputShape.read(Array("{\"token\":\"t\",\"id\":\(text)}".utf8), what: "the line").get().id?.bytes
        }
        #expect(try id("9223372036854775808") != id("9223372036854775809"))
        #expect(try id(#""\ud800""#) != id(#""\udbff""#))
    }

    /// Input: ids that are not a string or a number (arrays, objects, nested, null, Booleans), and strings holding a
    /// character the writer escapes, written raw. Expected: the line is refused, `malformedToken` in `format`, with
    /// a message that says why, and no id to echo.
    @Test(
        "an id that cannot be echoed as written refuses the line",
        arguments: [
            "[1]", "[[\"a\"],{\"b\":[]}]", "{\"a\":{\"b\":1}}", "null", "true", "\"a\u{7F}\"", "\"a\u{85}\"",
            "\"a\u{2028}\"", "\"\u{202E}gnp.exe\"",
        ])
    func unechoableIdRefusesTheLine(id: String) {
        let bytes = Array("{\"token\":\"eyJ.a.b\",\"id\":\(id)}".utf8)
        guard case .failure(let failure) = InputShape.read(bytes, what: "the line") else {
            Issue.record("\(id): accepted")
            return
        }
        #expect(failure.id == nil)
        #expect(failure.error.code == .malformedToken && failure.error.check == .format)
        #expect(failure.message.contains("\"id\""), "\(failure.message)")
    }

    /// Input: `verifyReceipt` bodies as `batch` lines. Expected: a receipt, other members ignored; a body whose
    /// `receipt-data` is not a string is refused as `malformedReceipt`.
    @Test("batch lines accept the verifyReceipt body")
    func receiptDataLines() throws {
        let line = Array(#"{"receipt-data":"MIIBx","password":"secret","exclude-old-transactions":true}"#.utf8)
        let shaped = try InputShape.readLine(line, range: line.indices).get()
        guard case .receipt(let receipt) = shaped.content else {
            Issue.record("not a receipt")
            return
        }
        #expect(receipt == Array("MIIBx".utf8))
        let bad = Array(#"{"receipt-data":7,"id":"r1"}"#.utf8)
        guard case .failure(let failure) = InputShape.readLine(bad, range: bad.indices) else {
            Issue.record("accepted")
            return
        }
        #expect(failure.error.code == .malformedReceipt)
        #expect(failure.id?.bytes == Array(#""r1""#.utf8))
        let token = Array(#"{"token":"eyJ.a.b"}"#.utf8)
        #expect(try InputShape.read(token, what: "the line").get().token?.string == "eyJ.a.b")
        // Outside batch lines, a receipt-data object is no token.
        guard case .failure = InputShape.read(line, what: "the input") else {
            Issue.record("a receipt-data object read as a token")
            return
        }
    }

    /// Input: a receipt as DER, as base64 with line breaks, and text that is neither. Expected: the file's bytes,
    /// the decoded bytes, nil.
    @Test("DER or base64 is decided in one place")
    func receiptFileBytes() {
        let der: [UInt8] = [0x30, 0x03, 0x02, 0x01, 0x05]
        #expect(InputShape.receiptFileBytes(der) == der)
        let base64 = Array(Data(der).base64EncodedString().utf8)
        #expect(InputShape.receiptFileBytes(Array(" ".utf8) + base64.prefix(4) + [0x0A] + base64.dropFirst(4)) == der)
        #expect(InputShape.receiptFileBytes(Array("not base64!".utf8)) == nil)
        #expect(InputShape.receiptFileBytes([]) == nil)
    }
}
