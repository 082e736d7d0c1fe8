import Foundation
import Testing

@testable import JWSVerify

/// The error `read` throws on a reader over `bytes`, `nil` when it succeeds.
private func derError(
    _ bytes: [UInt8], limits: DERReader.Limits = .standard, _ read: (inout DERReader) throws(DERError) -> Void
) -> DERError? {
    var reader = DERReader(bytes, limits: limits)
    do throws(DERError) {
        try read(&reader)
        return nil
    } catch {
        return error
    }
}

/// Reads one element and checks that nothing follows.
private func readOne(_ reader: inout DERReader) throws(DERError) {
    _ = try reader.readElement()
    try reader.finish()
}

/// `depth` SEQUENCEs nested in one another around a NULL.
private func nestedSequences(_ depth: Int) -> [UInt8] {
    var bytes: [UInt8] = [0x05, 0x00]
    for _ in 0..<depth { bytes = [0x30, UInt8(bytes.count)] + bytes }
    return bytes
}

@Suite("Receipt DER reader")
struct ReceiptDERReaderTests {
    /// Input: hostile framings, one rule each. Expected: the reason names the rule and the offset is the byte that
    /// breaks it.
    @Test(
        "every tag and length rule is enforced, at the offending byte",
        arguments: [
            ([], "expected an element, found the end of its container", 0),
            ([0x04], "the element is cut off before its length", 1),
            ([0x30, 0x80, 0x05, 0x00, 0x00, 0x00], "indefinite length (BER), which DER forbids", 1),
            ([0x04, 0xFF], "reserved length octet 0xFF", 1),
            ([0x04, 0x81, 0x05, 1, 2, 3, 4, 5], "the long form for length 5 is not minimal (DER)", 1),
            ([0x04, 0x81, 0x00], "a length with a leading zero octet is not minimal (DER)", 1),
            ([0x04, 0x82, 0x00, 0x80] + [UInt8](repeating: 0, count: 128), "leading zero octet", 1),
            ([0x04, 0x85, 1, 0, 0, 0, 0], "a length of 5 octets, more than the 4 accepted", 1),
            ([0x04, 0x82, 0x01], "the element is cut off in its length octets", 2),
            ([0x04, 0x05, 0x01, 0x02], "length 5 exceeds the 2 bytes that remain", 0),
            ([0x04, 0x84, 0x7F, 0xFF, 0xFF, 0xFF, 0x00], "length 2147483647 exceeds the 1 bytes that remain", 0),
            ([0x1F, 0x81, 0x01, 0x00], "tag byte 0x1F uses the high-tag-number form", 0),
            ([0xBF, 0x22, 0x00], "tag byte 0xBF uses the high-tag-number form", 0),
            ([0x05, 0x00, 0x05, 0x00], "2 bytes after the last element", 2),
            ([0x05, 0x00, 0x00], "1 byte after the last element", 2),
        ] as [([UInt8], String, Int)])
    func framingRules(bytes: [UInt8], reason: String, offset: Int) {
        let error = derError(bytes, readOne)
        #expect(error?.reason.contains(reason) == true, "\(bytes): \(String(describing: error))")
        #expect(error?.offset == offset, "\(bytes): \(String(describing: error))")
    }

    /// Input: a SEQUENCE whose child claims more bytes than the SEQUENCE holds (but fewer than the whole input).
    /// Expected: the child's length is checked against its container, not against the array.
    @Test("a child's length is bounded by its container")
    func childBoundedByParent() {
        let error = derError([0x30, 0x03, 0x04, 0x05, 0x00, 0x00, 0x00, 0x00, 0x00]) { reader throws(DERError) in
            var sequence = try reader.readSequence()
            _ = try sequence.readOctetString()
        }
        #expect(error == DERError("length 5 exceeds the 1 bytes that remain", at: 2))
    }

    /// Input: the long form where it is needed (128 and 65,536 bytes). Expected: read, contents where they belong.
    @Test("minimal long-form lengths are read")
    func longFormLengths() throws {
        for (header, count) in [([0x04, 0x81, 0x80] as [UInt8], 128), ([0x04, 0x83, 0x01, 0x00, 0x00], 65_536)] {
            var reader = DERReader(header + [UInt8](repeating: 7, count: count))
            let element = try reader.readOctetString()
            try reader.finish()
            #expect(element.contentStart == header.count && element.length == count && element.start == 0)
        }
    }

    /// Input: SEQUENCEs nested 16 and 17 deep around a NULL, read with the standard depth 16.
    /// Expected: 16 levels read; the 17th refused at the offset of the SEQUENCE that goes too deep.
    @Test("nesting deeper than the limit is refused")
    func depthLimit() throws {
        func descend(_ reader: inout DERReader) throws(DERError) {
            while reader.nextTag == 0x30 { reader = try reader.readSequence() }
            try reader.readNull()
        }
        #expect(derError(nestedSequences(16), descend) == nil)
        #expect(derError(nestedSequences(17), descend) == DERError("elements nested more than 16 deep", at: 32))
    }

    /// Input: a SET of 11 NULLs read with a limit of 10 elements a container. Expected: the 11th is refused.
    @Test("more elements in one container than the limit are refused")
    func elementLimit() {
        let set: [UInt8] = [0x31, 22] + Array([[UInt8]](repeating: [0x05, 0x00], count: 11).joined())
        let limits = DERReader.Limits(maximumDepth: 4, maximumElements: 10)
        let error = derError(set, limits: limits) { reader throws(DERError) in
            var inner = try reader.readSet()
            while !inner.isAtEnd { try inner.readNull() }
        }
        #expect(error == DERError("more than 10 elements in one container", at: 22))
    }

    /// Input: INTEGERs at the edges of `Int64` and of minimal encoding. Expected: the right values.
    @Test(
        "INTEGER values are read as two's complement",
        arguments: [
            ([0x02, 0x01, 0x00], 0), ([0x02, 0x01, 0x7F], 127), ([0x02, 0x02, 0x00, 0x80], 128),
            ([0x02, 0x01, 0xFF], -1), ([0x02, 0x01, 0x80], -128), ([0x02, 0x02, 0xFF, 0x7F], -129),
            ([0x02, 0x08, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], Int64.max),
            ([0x02, 0x08, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00], Int64.min),
            ([0x02, 0x07, 0x07, 0x1A, 0xFD, 0x50, 0xE7, 0x48, 0x2D], 2_000_000_123_357_229),
        ] as [([UInt8], Int64)])
    func integers(bytes: [UInt8], value: Int64) throws {
        var reader = DERReader(bytes)
        #expect(try reader.readInteger() == value)
    }

    /// Input: INTEGERs that are empty, not minimal or over 64 bits. Expected: each refused with its reason.
    @Test(
        "bad INTEGERs are refused",
        arguments: [
            ([0x02, 0x00], "an INTEGER with no contents", 0),
            ([0x02, 0x02, 0x00, 0x7F], "an INTEGER with a redundant leading octet (not minimal)", 2),
            ([0x02, 0x02, 0xFF, 0x80], "an INTEGER with a redundant leading octet (not minimal)", 2),
            ([0x02, 0x09, 0x00, 0x80, 0, 0, 0, 0, 0, 0, 0], "an INTEGER of 9 octets, beyond 64 bits", 0),
            ([0x04, 0x01, 0x00], "expected an INTEGER, found an OCTET STRING", 0),
        ] as [([UInt8], String, Int)])
    func badIntegers(bytes: [UInt8], reason: String, offset: Int) {
        let error = derError(bytes) { reader throws(DERError) in _ = try reader.readInteger() }
        #expect(error == DERError(reason, at: offset))
    }

    /// Input: strings, OIDs and NULLs that break DER or their type. Expected: each refused with its reason.
    @Test(
        "bad strings, OIDs and NULLs are refused",
        arguments: [
            ([0x24, 0x03, 0x04, 0x01, 0x41], "octet", "expected an OCTET STRING, found a constructed OCTET STRING", 0),
            ([0x0C, 0x02, 0xC3, 0x28], "utf8", "a UTF8String that is not valid UTF-8", 2),
            ([0x0C, 0x01, 0x80], "utf8", "a UTF8String that is not valid UTF-8", 2),
            ([0x16, 0x01, 0x41], "utf8", "expected a UTF8String, found an IA5String", 0),
            ([0x16, 0x02, 0x41, 0x80], "ia5", "an IA5String with the non-ASCII byte 0x80", 3),
            ([0x06, 0x00], "oid", "an OBJECT IDENTIFIER with no contents", 0),
            (
                [0x06, 0x02, 0x80, 0x01], "oid",
                "an OBJECT IDENTIFIER sub-identifier with a leading 0x80 (not minimal)", 2
            ),
            ([0x06, 0x03, 0x2A, 0x80, 0x01], "oid", "sub-identifier with a leading 0x80 (not minimal)", 3),
            ([0x06, 0x02, 0x2A, 0x86], "oid", "an OBJECT IDENTIFIER whose last sub-identifier is unfinished", 3),
            ([0x05, 0x01, 0x00], "null", "a NULL with contents", 0),
        ] as [([UInt8], String, String, Int)])
    func badPrimitives(bytes: [UInt8], kind: String, reason: String, offset: Int) {
        let error = derError(bytes) { reader throws(DERError) in
            switch kind {
            case "octet": _ = try reader.readOctetString()
            case "utf8": _ = try reader.readUTF8String()
            case "ia5": _ = try reader.readIA5String()
            case "oid": _ = try reader.readObjectIdentifier()
            default: try reader.readNull()
            }
        }
        #expect(error?.reason.hasSuffix(reason) == true && error?.offset == offset, "\(String(describing: error))")
    }

    /// Input: well-formed strings, an OID (1.2.840) and a NULL. Expected: their values.
    @Test("good strings, OIDs and NULLs are read")
    func goodPrimitives() throws {
        var reader = DERReader(
            [0x0C, 0x03, 0xC3, 0xA9, 0x21, 0x16, 0x02, 0x34, 0x2B, 0x06, 0x03, 0x2A, 0x86, 0x48, 0x05, 0x00])
        #expect(try reader.readUTF8String() == "é!")
        #expect(try reader.readIA5String() == "4+")
        let oid = try reader.readObjectIdentifier()
        #expect(Array(reader.slice(oid.contents)) == [0x2A, 0x86, 0x48])
        try reader.readNull()
        try reader.finish()
    }

    /// Input: trees with a primitive SEQUENCE, a constructed OCTET STRING, or a bad length three levels down.
    /// Expected: ``DERReader/validateTree(_:)`` refuses each at the offending element; a clean tree passes.
    @Test("a tree walk checks every level")
    func treeWalk() throws {
        func walk(_ bytes: [UInt8]) -> DERError? {
            derError(bytes) { reader throws(DERError) in try reader.validateTree(try reader.readElement()) }
        }
        #expect(walk([0x30, 0x06, 0x31, 0x04, 0x30, 0x02, 0x05, 0x00]) == nil)
        #expect(walk([0x30, 0x02, 0x10, 0x00]) == DERError("tag 0x10 in a form that DER forbids", at: 2))
        #expect(
            walk([0x30, 0x05, 0x24, 0x03, 0x04, 0x01, 0x41])
                == DERError("a constructed OCTET STRING in a form that DER forbids", at: 2))
        #expect(
            walk([0x30, 0x06, 0x31, 0x04, 0x30, 0x02, 0x04, 0x82])
                == DERError("the element is cut off in its length octets", at: 8))
        #expect(
            walk([0x30, 0x08, 0x31, 0x06, 0x30, 0x04, 0x04, 0x81, 0x01, 0x41])
                == DERError("the long form for length 1 is not minimal (DER)", at: 7))
    }

    /// Input: every truncation of a real receipt's content (receipt 13, 838 bytes). Expected: each is refused, by
    /// the reader or the content decoder, and none crashes.
    @Test("every truncation of real content is refused")
    func truncations() throws {
        let content = try ReceiptVectors.content("13_sandbox_2018_sha1_1iap_revenuecat.b64")
        #expect(content.count == 838)
        #expect(receiptContentError(content) == nil)
        for count in 0..<content.count {
            #expect(receiptContentError(Array(content.prefix(count))) != nil, "prefix \(count)")
        }
    }

    /// Input: 3,000 copies of receipt 13's content with one to four random bytes changed (seeded). Expected: each
    /// decodes or throws ``ReceiptContentError``; a change in a framing byte of the outer set is always refused.
    @Test("random byte changes in real content never crash")
    func randomChanges() throws {
        let content = try ReceiptVectors.content("13_sandbox_2018_sha1_1iap_revenuecat.b64")
        var random = SeededRandom(seed: 20_260_401)
        var refused = 0
        for _ in 0..<3000 {
            var mutated = content
            for _ in 0...random.next(4) {
                mutated[random.next(mutated.count)] = UInt8(random.next(256))
            }
            if receiptContentError(mutated) != nil { refused += 1 }
        }
        #expect(refused > 0)
        var badTag = content
        badTag[0] = 0x30
        #expect(receiptContentError(badTag)?.contains("expected a SET, found a SEQUENCE at byte 0") == true)
    }

    /// Input: every string of one and two bytes, every three-byte string that starts as a multi-byte sequence does
    /// (0xC0–0xFF), and well-formed and ill-formed texts of up to four code points at every offset of a slice (ASCII,
    /// two-, three- and four-byte sequences, surrogates, overlong forms, code points past U+10FFFF, truncations).
    /// Expected: ``ByteScanning/string(validatingUTF8:)``, which a UTF8String is read with, answers exactly as the
    /// standard library's `String(validating:as:)` does.
    @Test("a UTF8String's bytes are validated as the standard library validates them")
    func utf8ValidationMatchesStandardLibrary() {
        func check(_ bytes: [UInt8], offset: Int = 0) {
            let padded = Array(repeating: UInt8(ascii: "a"), count: offset) + bytes
            let slice = padded[offset...]
            let expected = String(validating: slice, as: UTF8.self)
            let found = ByteScanning.string(validatingUTF8: slice)
            #expect(found == expected, "\(bytes)")
            if let found { #expect(Array(found.utf8) == bytes) }
        }
        for first in 0...255 {
            check([UInt8(first)])
            for second in 0...255 { check([UInt8(first), UInt8(second)]) }
        }
        for first in 0xC0...0xFF {
            for second in stride(from: 0x70, through: 0xC8, by: 3) {
                for third in [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0xA0, 0xBF, 0xC0, 0xFF] {
                    check([UInt8(first), UInt8(second), UInt8(third)])
                }
            }
        }
        let pieces: [[UInt8]] = [
            Array("a".utf8), Array("é".utf8), Array("日".utf8), Array("🇫".utf8), [0xED, 0xA0, 0x80], [0xC0, 0xAF],
            [0xE0, 0x80, 0xAF], [0xF4, 0x90, 0x80, 0x80], [0xF0, 0x9F], [0xE6, 0x97], [0xFF], [0xEF, 0xBF, 0xBD],
        ]
        for a in pieces {
            for b in pieces {
                for c in pieces { for offset in 0..<3 { check(a + b + c, offset: offset) } }
            }
        }
    }
}
