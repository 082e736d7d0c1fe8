import Foundation
import Testing

@testable import JWSVerify

/// The library's one JSON writer and the schema of results.
@Suite("JSON writer and schema")
struct JSONWriterTests {
    /// Input: every scalar from U+0000 to U+FFFF (surrogates excepted) in a string. Expected: the writer escapes
    /// exactly `"`, `\` and the scalars ``EscapedText/needsEscape(_:)`` names: one escape set.
    @Test("the writer escapes exactly EscapedText's set, plus quote and backslash")
    func oneEscapeSet() throws {
        for value in UInt32(0)...0xFFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            var out: [UInt8] = []
            JSONWriter.writeString(String(Character(scalar)), into: &out)
            let escaped = out.count > String(Character(scalar)).utf8.count + 2
            let expected = scalar == "\"" || scalar == "\\" || EscapedText.needsEscape(scalar)
            #expect(escaped == expected, "U+\(String(value, radix: 16))")
        }
    }

    /// Input: an ordered object written by the streaming writer, compact and indented. Expected: members in the
    /// order written, nested values' keys sorted, the indented form with `"key": value` and a final newline.
    @Test("the streaming writer keeps the caller's member order")
    func streamingOrder() {
        var compact = JSONWriter(style: .compact)
        compact.beginObject()
        compact.key("alg")
        compact.value(.string("ES256"))
        compact.key("x5c")
        compact.value(.array([.object(["b": .integer(1), "a": .null])]))
        compact.endObject()
        #expect(compact.text == #"{"alg":"ES256","x5c":[{"a":null,"b":1}]}"#)
        var indented = JSONWriter(style: .indented)
        indented.beginObject()
        indented.key("z")
        indented.beginArray()
        indented.endArray()
        indented.key("a")
        indented.value(.object(["k": .bool(true)]))
        indented.endObject()
        #expect(indented.text == "{\n  \"z\": [],\n  \"a\": {\n    \"k\": true\n  }\n}\n")
    }

    /// Input: an error with every member, encoded with `JSONEncoder`. Expected: the schema's members and values.
    @Test("VerificationError encodes as its schema object")
    func errorEncodes() throws {
        let error = VerificationError(.malformedToken, check: .format, "bad \u{202E}")
        let data = try JSONEncoder().encode(error)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["code"] as? String == "malformedToken")
        #expect(object["check"] as? String == "format")
        #expect(object["retryable"] as? Bool == false)
        #expect(
            Set(object.keys) == ["code", "check", "message", "underlying", "retryable", "nestedField", "nestedCheck"])
        #expect(JSONSchema.version == 1)
    }

    /// Input: integers at every power of ten and either side, `Int64.min` and `Int64.max`; digits with leading
    /// zeros; a chunk filled past its capacity. Expected: `String(_:)`'s text; zeros to the minimum count; the
    /// chunk keeps its first `capacity` bytes and drops the rest, a text, word or number past it dropped
    /// whole or cut where the capacity ends; a chunk flushed when asked for more room than it has.
    @Test("integers and digits as String writes them, chunks bounded")
    func integersAndChunks() {
        var numbers: [Int64] = [0, Int64.min, Int64.max, Int64.min + 1, Int64.max - 1]
        var power: Int64 = 1
        for _ in 0...18 {
            numbers += [power - 1, power, power + 1, -power, -(power - 1), -(power + 1)]
            if power <= Int64.max / 10 { power *= 10 }
        }
        for number in numbers {
            var out = Array("x".utf8)
            JSONWriter.writeInteger(number, into: &out)
            #expect(String(decoding: out, as: UTF8.self) == "x" + String(number), "\(number)")
        }
        var digits: [UInt8] = []
        JSONWriter.writeDigits(7, minimumCount: 4, into: &digits)
        JSONWriter.writeDigits(UInt64.max, minimumCount: 6, into: &digits)
        JSONWriter.writeDigits(0, minimumCount: 0, into: &digits)
        #expect(String(decoding: digits, as: UTF8.self) == "0007" + String(UInt64.max) + "0")
        let capacity = JSONWriter.Chunk.capacity
        var chunk = JSONWriter.Chunk()
        for index in 0..<(capacity + 12) { chunk.append(UInt8(ascii: "a") + UInt8(index % 26)) }
        #expect(chunk.count == capacity)
        #expect(Array(chunk) == (0..<capacity).map { UInt8(ascii: "a") + UInt8($0 % 26) })
        // Texts, words and digits that end at the capacity, and past it: what fits is kept, the rest dropped.
        for filled in (capacity - 30)...capacity {
            var staged = JSONWriter.Chunk()
            var expected: [UInt8] = []
            for _ in 0..<filled { staged.append(UInt8(ascii: "x")) }
            expected += Array(repeating: UInt8(ascii: "x"), count: filled)
            staged.append("0123456789")
            expected += Array("0123456789".utf8).prefix(capacity - expected.count)
            staged.append(littleEndian: 0x3837_3635_3433_3231, length: 6)
            if expected.count + 6 <= capacity { expected += Array("123456".utf8) }
            staged.appendInteger(-42)
            if expected.count < capacity { expected.append(UInt8(ascii: "-")) }
            if expected.count + 2 <= capacity { expected += Array("42".utf8) }
            #expect(Array(staged) == expected, "filled \(filled)")
            // Byte arrays of every size class, cut at the capacity.
            for length in [7, 8, 9, 63, 64, 65, 100] {
                let before = (filled - 30) * 7 % capacity  // 0 to 255: long copies fit whole or are cut
                var copied = JSONWriter.Chunk()
                for _ in 0..<before { copied.append(UInt8(ascii: "x")) }
                let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &+ 65) }
                copied.append(contentsOf: bytes)
                let kept = Swift.min(length, capacity - before)
                #expect(Array(copied) == Array(repeating: UInt8(ascii: "x"), count: before) + bytes.prefix(kept))
            }
            var out = Array("prefix".utf8)
            staged.ensureRoom(capacity - staged.count + 1, flushingInto: &out)
            #expect(out == Array("prefix".utf8) + expected && staged.count == 0, "filled \(filled)")
        }
    }

    /// Input: texts of 0 to 17 bytes, each byte value from 0 to 255 at each position among plain letters (a byte
    /// that starts no well-formed UTF-8 sequence made well-formed as U+FFFD). Expected: a chunk stages the text
    /// (`appendPlainString`) only when the writer would copy it as it is, with the same bytes, and always when the
    /// text is printable ASCII without `"` and `\\` (other text, even text the writer keeps, goes to the writer).
    @Test("a text is staged without escapes only when the writer would copy it as it is")
    func plainStrings() {
        for length in 0...17 {
            for position in 0..<max(length, 1) {
                for value in 0...255 {
                    var bytes = Array(repeating: UInt8(ascii: "a"), count: length)
                    if length > 0 { bytes[position] = UInt8(value) }
                    let text = String(decoding: bytes, as: UTF8.self)
                    var written: [UInt8] = []
                    JSONWriter.writeString(text, into: &written)
                    let plain = Array("\"".utf8) + Array(text.utf8) + Array("\"".utf8)
                    var chunk = JSONWriter.Chunk()
                    let staged = chunk.appendPlainString(text)
                    let printable = bytes.allSatisfy {
                        $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\")
                    }
                    guard staged == printable, !staged || (written == plain && Array(chunk) == written) else {
                        Issue.record("length \(length), position \(position), byte \(value): staged \(staged)")
                        return
                    }
                }
            }
        }
        var full = JSONWriter.Chunk()
        for _ in 0..<(JSONWriter.Chunk.capacity - 5) { full.append(UInt8(ascii: "x")) }
        #expect(!full.appendPlainString("abcd") && full.count == JSONWriter.Chunk.capacity - 5, "no room: nothing")
        #expect(full.appendPlainString("abc") && full.count == JSONWriter.Chunk.capacity, "room for 3 and quotes")
    }
}
