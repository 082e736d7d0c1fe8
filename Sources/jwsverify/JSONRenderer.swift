import Foundation
import JWSVerify

/// The `--json` output: one object per token, keys sorted, `schemaVersion` 1.
///
/// Documented in `Docs/CLI.md` ("JSON schema"). Keys are only ever added; a change that would break
/// a reader raises `schemaVersion`. Documents are built as ``JSONValue`` trees and written by
/// ``JSONWriter`` (sorted keys, compact or indented), several times faster than `JSONEncoder` for
/// `batch`.
enum JSONRenderer {
    /// The version of the JSON output: the library's ``JSONSchema/version``.
    static let schemaVersion = JSONSchema.version

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
        var members = JSONSchema.verdictMembers(outcome.error).merging(outcome.reportMembers(includeDER: includeDER)) {
            _, new in new
        }
        members.merge([
            JSONSchema.versionKey: .integer(Int64(schemaVersion)),
            "verified": .bool(outcome.verified),
            "kind": string(outcome.kind?.rawValue),
            "payload": outcome.payload?.json ?? .null,
            "nested": .null,
        ]) { _, new in new }
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
        var members = entry.info.jsonValue(includeDER: includeDER)
        members["role"] = .string(entry.role)
        members["trustAnchor"] = string(entry.trustAnchor)
        return .object(members)
    }

    private static func string(_ value: String?) -> JSONValue { JSONSchema.string(value) }
}
