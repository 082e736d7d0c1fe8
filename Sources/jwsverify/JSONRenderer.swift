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
enum JSONWriter {
    /// The JSON text of `value`.
    static func write(_ value: JSONValue, pretty: Bool) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        write(value, pretty: pretty, depth: 0, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private static func write(_ value: JSONValue, pretty: Bool, depth: Int, into out: inout [UInt8]) {
        switch value {
        case .null: out += Array("null".utf8)
        case .bool(let flag): out += Array((flag ? "true" : "false").utf8)
        case .integer(let number): out += Array(String(number).utf8)
        case .double(let number):
            if number.isFinite && number == number.rounded() && abs(number) < 1e15 {
                out += Array(String(Int64(number)).utf8)
            } else {
                out += Array((number.isFinite ? "\(number)" : "null").utf8)
            }
        case .string(let text): writeString(text, into: &out)
        case .array(let elements):
            guard !elements.isEmpty else {
                out += Array("[]".utf8)
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
                out += Array("{}".utf8)
                return
            }
            out.append(UInt8(ascii: "{"))
            for (index, (key, value)) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                newline(pretty, depth + 1, &out)
                writeString(key, into: &out)
                out += pretty ? Array(" : ".utf8) : [UInt8(ascii: ":")]
                write(value, pretty: pretty, depth: depth + 1, into: &out)
            }
            newline(pretty, depth, &out)
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(_ pretty: Bool, _ depth: Int, _ out: inout [UInt8]) {
        guard pretty else { return }
        out.append(UInt8(ascii: "\n"))
        out += Array(repeating: UInt8(ascii: " "), count: 2 * depth)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// A JSON string literal: `"` and `\` escaped, control characters as `\n`, `\t`, … or `\u00XX`.
    private static func writeString(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Runs of bytes that need no escape are copied whole (certificate base64, most payload strings).
        let copied: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
            var runStart = 0
            for index in bytes.indices where needsEscape(bytes[index]) {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                writeEscaped(bytes[index], into: &out)
                runStart = index + 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
        if copied == nil {
            for byte in text.utf8 {
                if needsEscape(byte) { writeEscaped(byte, into: &out) } else { out.append(byte) }
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private static func writeEscaped(_ byte: UInt8, into out: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
        case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
        case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
        case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
        case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
        default:
            out += Array("\\u00".utf8)
            out.append(hexDigits[Int(byte >> 4)])
            out.append(hexDigits[Int(byte & 0xF)])
        }
    }
}
