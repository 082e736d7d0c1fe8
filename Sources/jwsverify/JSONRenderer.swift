import Foundation
import JWSVerify

/// The `--json` output: one object per token or receipt, keys sorted, `schemaVersion` 1.
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
    ///   - pretty: Indented (verify) or compact on one line (batch).
    ///   - includeDER: Whether certificates carry their DER as base64 (`der`).
    static func render(_ outcome: SignedDataOutcome, pretty: Bool, includeDER: Bool) -> String {
        JSONWriter.write(document(outcome, includeDER: includeDER), pretty: pretty) + "\n"
    }

    /// An `inspect` result as JSON text ending in a newline.
    static func render(_ inspection: Inspection, pretty: Bool = true) -> String {
        JSONWriter.write(document(inspection), pretty: pretty) + "\n"
    }

    /// An `inspect` result of a receipt (its decoding, or why it did not decode) as indented JSON text ending in a
    /// newline.
    static func render(_ inspection: Result<UnverifiedAppReceipt, VerificationError>) -> String {
        JSONWriter.write(document(inspection), pretty: true) + "\n"
    }

    /// The verification object of `verify --json`, `receipt --json` and each `batch --report full` line: the
    /// verdict, the checks, the chain and the hints, then a token's `payload` and `nested` tokens, or a receipt's
    /// `environment` and `receipt` (the old `verifyReceipt` response's `receipt` object).
    static func document(_ outcome: SignedDataOutcome, includeDER: Bool) -> JSONValue {
        var members = JSONSchema.verdictMembers(outcome.error)
        members.merge([
            "checks": .array(
                outcome.checks.map {
                    .object(["name": .string($0.name), "outcome": .string($0.outcome), "detail": .string($0.detail)])
                }),
            "chain": .array(outcome.chain.map { certificate($0, includeDER: includeDER) }),
            "chainValidated": .bool(outcome.chainValidated),
            "certificateProblems": .array(outcome.certificateProblems.map(JSONValue.string)),
            "validationTime": string(outcome.validationTime.map(ISO8601Text.iso8601)),
            "hints": .array(
                (outcome.hints + (outcome.validationTimeNote.map { ["validated at \($0)"] } ?? [])).map(
                    JSONValue.string)),
            JSONSchema.versionKey: .integer(Int64(schemaVersion)),
            "verified": .bool(outcome.verified),
            "kind": string(outcome.kindName),
        ]) { _, new in new }
        switch outcome.form {
        case .receipt:
            members["nestedField"] = nil
            members["nestedCheck"] = nil
            members["environment"] = string(outcome.environment)
            members["receipt"] = outcome.receipt.map(receiptJSON) ?? .null
        case .token:
            members["payload"] = outcome.payload?.json ?? .null
            members["nested"] = .null
            if outcome.kind == .notification {
                var nested: [String: JSONValue] = [:]
                for item in outcome.nested { nested[item.field] = document(item.outcome, includeDER: includeDER) }
                members["nested"] = .object(nested)
            }
        }
        return .object(members)
    }

    /// A receipt's JSON: the `Codable` form of ``AppReceipt``, the old `verifyReceipt` response's `receipt` object
    /// (values as strings), as a tree for ``JSONWriter``; null when it cannot be written (a date outside the years 0
    /// to 9999). Read from the library's bytes (``AppReceipt/appendJSON(to:)``), which `batch` writes as they are.
    static func receiptJSON(_ receipt: AppReceipt) -> JSONValue {
        var bytes: [UInt8] = []
        guard receipt.appendJSON(to: &bytes), let value = try? JSONParser.parseValue(bytes) else { return .null }
        return value
    }

    /// The object of `inspect --json` for a receipt.
    static func document(_ inspection: Result<UnverifiedAppReceipt, VerificationError>) -> JSONValue {
        let unverified = try? inspection.get()
        let error: VerificationError? = if case .failure(let error) = inspection { error } else { nil }
        let signer: JSONValue =
            unverified.map {
                .object([
                    "digestAlgorithm": .string($0.digestAlgorithm),
                    "signatureAlgorithm": .string($0.signatureAlgorithm),
                    "signedAttributes": .bool($0.hasSignedAttributes),
                    "certificateIndex": $0.signerIndex.map { .integer(Int64($0)) } ?? .null,
                ])
            } ?? .null
        return .object([
            "schemaVersion": .integer(Int64(schemaVersion)),
            "verified": .bool(false),
            "warning": .string("UNVERIFIED: nothing was checked; anybody can make a receipt that decodes to anything"),
            "kind": .string(SignedDataForm.receiptKind),
            "code": string(error?.code.rawValue),
            "check": string(error?.check.rawValue),
            "message": string(error?.message),
            "signer": signer,
            "chain": .array(
                (unverified.map(VerificationRunner.roles) ?? []).map { certificate($0, includeDER: true) }),
            "certificateProblems": .array((unverified?.certificateProblems ?? []).map(JSONValue.string)),
            "receipt": unverified.map { receiptJSON($0.receipt) } ?? .null,
        ])
    }

    /// The object of `inspect --json`.
    static func document(_ inspection: Inspection) -> JSONValue {
        var members: [String: JSONValue] = [
            "schemaVersion": .integer(Int64(schemaVersion)),
            "verified": .bool(false),
            "warning": .string("UNVERIFIED: nothing was checked; anybody can make a token that decodes to anything"),
            "kind": string(inspection.kind?.rawValue ?? inspection.developerKind?.rawValue),
            "signedBy": inspection.developerKind.map { kind in
                .object([
                    "signer": .string("developer"), "keyId": string(inspection.developerKeyId),
                    "description": .string(kind.description), "audience": .string(kind.audience),
                    "statement": .string(Inspection.developerSigned),
                ])
            } ?? .null,
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
