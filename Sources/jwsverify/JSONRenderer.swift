import Foundation
import JWSVerify

/// The `--json` output: one object per token, keys sorted, `schemaVersion` 1.
///
/// Documented in `Docs/CLI.md` ("JSON schema"). Keys are only ever added; a change that would break
/// a reader raises `schemaVersion`. Documents are built as ``JSONValue`` trees and written by
/// ``JSONWriter`` (sorted keys, compact or indented), several times faster than `JSONEncoder` for
/// `batch`.
enum JSONRenderer {
    /// The version of the JSON output.
    static let schemaVersion = 1

    /// A verification result as JSON text ending in a newline.
    ///
    /// - Parameters:
    ///   - outcome: The outcome.
    ///   - line: The input line number (`batch`), or nil.
    ///   - pretty: Indented (verify) or compact on one line (batch).
    ///   - includeDER: Whether certificates carry their DER as base64 (`der`).
    static func render(_ outcome: TokenOutcome, line: Int? = nil, pretty: Bool, includeDER: Bool) -> String {
        JSONWriter.write(document(outcome, line: line, includeDER: includeDER), pretty: pretty) + "\n"
    }

    /// An `inspect` result as JSON text ending in a newline.
    static func render(_ inspection: Inspection, pretty: Bool = true) -> String {
        JSONWriter.write(document(inspection), pretty: pretty) + "\n"
    }

    /// The verification object of `verify --json` and of each `batch` line.
    static func document(_ outcome: TokenOutcome, line: Int?, includeDER: Bool) -> JSONValue {
        var members: [String: JSONValue] = [
            "schemaVersion": .integer(Int64(schemaVersion)),
            "verified": .bool(outcome.verified),
            "kind": string(outcome.kind?.rawValue),
            "code": string(outcome.error?.code.rawValue),
            "check": string(outcome.error?.check.rawValue),
            "message": .string(outcome.error?.message ?? "every check passed"),
            "underlying": string(outcome.error?.underlying),
            "retryable": .bool(outcome.error?.isRetryable ?? false),
            "nestedField": string(outcome.error?.nestedField),
            "nestedCheck": string(outcome.error?.nestedCheck?.rawValue),
            "checks": .array(
                outcome.checks.map {
                    .object(["name": .string($0.name), "outcome": .string($0.outcome), "detail": .string($0.detail)])
                }
            ),
            "chain": .array(outcome.chain.map { certificate($0, includeDER: includeDER) }),
            "chainValidated": .bool(outcome.chainValidated),
            "certificateProblems": .array(outcome.certificateProblems.map(JSONValue.string)),
            "validationTime": string(outcome.validationTime.map(ISO8601Text.iso8601)),
            "hints": .array(
                (outcome.hints + (outcome.validationTimeNote.map { ["validated at \($0)"] } ?? [])).map(
                    JSONValue.string)),
            "payload": outcome.payload?.json ?? .null,
            "nested": .null,
        ]
        if let line { members["line"] = .integer(Int64(line)) }
        if outcome.kind == .notification {
            var nested: [String: JSONValue] = [:]
            for item in outcome.nested {
                nested[item.field] = document(item.outcome, line: nil, includeDER: includeDER)
            }
            members["nested"] = .object(nested)
        }
        return .object(members)
    }

    /// The object of `inspect --json`.
    static func document(_ inspection: Inspection) -> JSONValue {
        var members: [String: JSONValue] = [
            "schemaVersion": .integer(Int64(schemaVersion)),
            "verified": .bool(false),
            "warning": .string("UNVERIFIED: nothing was checked; anybody can make a token that decodes to anything"),
            "kind": string(inspection.kind?.rawValue),
            "code": string(inspection.error?.code.rawValue),
            "check": string(inspection.error?.check.rawValue),
            "message": string(inspection.error?.message),
            "header": inspection.header ?? .null,
            "chain": .array(inspection.chain.map { certificate($0, includeDER: true) }),
            "certificateProblems": .array(inspection.certificateProblems.map(JSONValue.string)),
            "payload": inspection.payload?.json ?? .null,
            "nested": .null,
        ]
        if inspection.kind == .notification {
            var nested: [String: JSONValue] = [:]
            for item in inspection.nested { nested[item.field] = document(item.inspection) }
            members["nested"] = .object(nested)
        }
        return .object(members)
    }

    /// A certificate: the ``CertificateInfo`` fields (dates ISO 8601, DER base64 when asked), its role
    /// and the configured root it matched.
    static func certificate(_ entry: ChainEntry, includeDER: Bool) -> JSONValue {
        let info = entry.info
        var members: [String: JSONValue] = [
            "role": .string(entry.role),
            "trustAnchor": string(entry.trustAnchor),
            "subjectCommonName": string(info.subjectCommonName),
            "subjectOrganization": string(info.subjectOrganization),
            "issuerCommonName": string(info.issuerCommonName),
            "issuerOrganization": string(info.issuerOrganization),
            "serialNumber": string(info.serialNumber),
            "notBefore": string(info.notBefore.map(ISO8601Text.iso8601)),
            "notAfter": string(info.notAfter.map(ISO8601Text.iso8601)),
            "keyType": .string(info.keyType),
            "signatureAlgorithm": string(info.signatureAlgorithm),
            "appleMarkerExtensions": .array(info.appleMarkerExtensions.map(JSONValue.string)),
            "sha256Fingerprint": .string(info.sha256Fingerprint),
        ]
        if includeDER { members["der"] = .string(info.der.base64EncodedString()) }
        return .object(members)
    }

    private static func string(_ value: String?) -> JSONValue {
        value.map(JSONValue.string) ?? .null
    }
}

/// Writes a ``JSONValue`` as JSON text with object keys sorted: compact (one line) or indented by two
/// spaces, `"key" : value` as `JSONEncoder`'s `.prettyPrinted` writes it.
///
/// Token text reaches terminals through it, so strings escape, besides what JSON requires, every
/// character ``EscapedText`` escapes: DEL and C1 controls, U+2028 and U+2029, and the bidirectional
/// formatting characters, as `\u` escapes (the JSON still decodes to the same string).
enum JSONWriter {
    /// The JSON text of `value`.
    static func write(_ value: JSONValue, pretty: Bool) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        write(value, pretty: pretty, depth: 0, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the JSON text of `value` to `out`.
    static func write(_ value: JSONValue, pretty: Bool, depth: Int, into out: inout [UInt8]) {
        switch value {
        case .null: writeNull(into: &out)
        case .bool(let flag): writeBool(flag, into: &out)
        case .integer(let number): writeInteger(number, into: &out)
        case .double(let number):
            if number.isFinite && number == number.rounded() && abs(number) < 1e15 {
                writeInteger(Int64(number), into: &out)
            } else {
                out.append(contentsOf: (number.isFinite ? "\(number)" : "null").utf8)
            }
        case .string(let text): writeString(text, into: &out)
        case .array(let elements):
            guard !elements.isEmpty else {
                out.append(contentsOf: "[]".utf8)
                return
            }
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                newline(pretty, depth + 1, &out)
                write(element, pretty: pretty, depth: depth + 1, into: &out)
            }
            newline(pretty, depth, &out)
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            guard !members.isEmpty else {
                out.append(contentsOf: "{}".utf8)
                return
            }
            out.append(UInt8(ascii: "{"))
            for (index, member) in sorted(members).enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                newline(pretty, depth + 1, &out)
                writeString(member.key, into: &out)
                if pretty { out.append(contentsOf: " : ".utf8) } else { out.append(UInt8(ascii: ":")) }
                write(member.value, pretty: pretty, depth: depth + 1, into: &out)
            }
            newline(pretty, depth, &out)
            out.append(UInt8(ascii: "}"))
        }
    }

    /// The members in key order. Each key's first eight bytes, read once as a big-endian number (zero
    /// padded), decide most comparisons; ties fall back to ``precedes(_:_:)``.
    private static func sorted(_ members: [String: JSONValue]) -> [(prefix: UInt64, key: String, value: JSONValue)] {
        var entries: [(prefix: UInt64, key: String, value: JSONValue)] = []
        entries.reserveCapacity(members.count)
        for (key, value) in members {
            var prefix: UInt64 = 0
            var shift: UInt64 = 56
            for byte in key.utf8.prefix(8) {
                prefix |= UInt64(byte) << shift
                shift &-= 8
            }
            entries.append((prefix, key, value))
        }
        entries.sort { $0.prefix != $1.prefix ? $0.prefix < $1.prefix : precedes($0.key, $1.key) }
        return entries
    }

    /// Whether `a` sorts before `b`: by UTF-8 bytes, which is `String`'s order for the ASCII keys of
    /// App Store payloads, without its Unicode comparison machinery (the sort is most of the cost of
    /// writing a payload otherwise).
    static func precedes(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    private static func newline(_ pretty: Bool, _ depth: Int, _ out: inout [UInt8]) {
        guard pretty else { return }
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }

    /// `null`.
    static func writeNull(into out: inout [UInt8]) {
        out.append(contentsOf: nullText)
    }

    /// `true` or `false`.
    static func writeBool(_ flag: Bool, into out: inout [UInt8]) {
        out.append(contentsOf: flag ? trueText : falseText)
    }

    private static let nullText = Array("null".utf8)
    private static let trueText = Array("true".utf8)
    private static let falseText = Array("false".utf8)

    /// A string literal (``writeString(_:into:)``), or `null` for nil.
    static func writeString(orNull text: String?, into out: inout [UInt8]) {
        if let text { writeString(text, into: &out) } else { writeNull(into: &out) }
    }

    /// Decimal digits, without an intermediate `String`.
    static func writeInteger(_ number: Int64, into out: inout [UInt8]) {
        if number < 0 { out.append(UInt8(ascii: "-")) }
        let magnitude = number.magnitude
        var divisor: UInt64 = 1
        while magnitude / divisor >= 10 { divisor *= 10 }  // at most 10^18 for Int64's magnitudes
        repeat {
            out.append(UInt8(ascii: "0") + UInt8(magnitude / divisor % 10))
            divisor /= 10
        } while divisor > 0
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// A JSON string literal: `"` and `\\` escaped, control characters as `\\n`, `\\t`, … or `\\u00XX`,
    /// and the characters that do not print as themselves (see the type's summary) as `\\uXXXX`.
    static func writeString(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        // Runs of bytes that need no escape are copied whole (most payload strings), found eight bytes
        // at a time where there are eight.
        text.withUTF8 { bytes in
            var runStart = 0
            var index = 0
            while index < bytes.count {
                if index &+ 8 <= bytes.count {
                    var word: UInt64 = 0
                    var shift: UInt64 = 0
                    for byte in bytes[index..<(index &+ 8)] {
                        word |= UInt64(byte) << shift
                        shift &+= 8
                    }
                    let flagged = bytesToCheck(word)
                    if flagged == 0 {
                        index &+= 8
                        continue
                    }
                    index &+= flagged.trailingZeroBitCount &>> 3
                }
                let length = escapeLength(bytes, at: index)
                guard length > 0 else {
                    index += 1
                    continue
                }
                out.append(contentsOf: bytes[runStart..<index])
                writeEscaped(bytes, at: index, length: length, into: &out)
                index += length
                runStart = index
            }
            out.append(contentsOf: bytes[runStart...])
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The high bit of each byte of `word` (eight bytes read little-endian) that may need an escape,
    /// up to the first such byte: a control character, DEL or above, `"` or `\\`. Bit tricks test every
    /// byte at once; they are exact about the first match (a borrow or carry between bytes only starts
    /// at a byte that matches itself), so `trailingZeroBitCount / 8` is the first byte to check.
    static func bytesToCheck(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let quotes = word ^ (ones &* 0x22)
        let backslashes = word ^ (ones &* 0x5C)
        let below0x20 = (word &- ones &* 0x20) & ~word
        let above0x7E = (word &+ ones) | word
        let quote = (quotes &- ones) & ~quotes
        let backslash = (backslashes &- ones) & ~backslashes
        return (below0x20 | above0x7E | quote | backslash) & highBits
    }

    /// The length of the UTF-8 sequence at `index` when it encodes a character this writer escapes
    /// (`"`, `\\`, C0 controls, DEL, C1 controls, U+2028, U+2029, U+200E, U+200F, U+202A–U+202E,
    /// U+2066–U+2069); 0 otherwise.
    static func escapeLength<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, at index: Int) -> Int
    where Bytes.Index == Int {
        let first = bytes[index]
        if first < 0x80 {
            return first < 0x20 || first == 0x7F || first == UInt8(ascii: "\"") || first == UInt8(ascii: "\\") ? 1 : 0
        }
        if first == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) { return 2 }
        guard first == 0xE2, index + 2 < bytes.count else { return 0 }
        let (second, third) = (bytes[index + 1], bytes[index + 2])
        if second == 0x80, (0x8E...0x8F).contains(third) || (0xA8...0xAE).contains(third) { return 3 }
        if second == 0x81, (0xA6...0xA9).contains(third) { return 3 }
        return 0
    }

    /// Writes the character of ``escapeLength(_:at:)``'s sequence at `index` as an escape.
    static func writeEscaped<Bytes: RandomAccessCollection<UInt8>>(
        _ bytes: Bytes, at index: Int, length: Int, into out: inout [UInt8]
    ) where Bytes.Index == Int {
        let scalar: UInt32
        switch length {
        case 1: scalar = UInt32(bytes[index])
        case 2: scalar = UInt32(bytes[index] & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F)
        default:
            scalar =
                UInt32(bytes[index] & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6
                | UInt32(bytes[index + 2] & 0x3F)
        }
        switch scalar {
        case 0x22: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
        case 0x5C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
        case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
        case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
        case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
        default:
            out.append(contentsOf: "\\u".utf8)
            for shift in [12, 8, 4, 0] { out.append(hexDigits[Int((scalar >> UInt32(shift)) & 0xF)]) }
        }
    }
}
