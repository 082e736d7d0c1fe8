import Foundation

/// The JSON documents `jwsverify` prints, built here under ``JSONSchema`` (`schemaVersion` 1, documented in
/// `Docs/CLI.md`, "JSON schema"): the verification object of `verify --json`, `receipt --json` and each `batch
/// --report full` line, and the objects of `inspect --json`. Keys are only ever added. Documents are ``JSONValue``
/// trees written by ``JSONWriter`` (keys sorted, compact or indented), several times faster than `JSONEncoder`.
extension SignedDataOutcome: Encodable {
    /// The verification object: the verdict, the checks, the chain and the hints, then a token's `payload` and
    /// `nested` tokens, or a receipt's `environment` and `receipt` (the old `verifyReceipt` response's `receipt`
    /// object).
    ///
    /// - Parameter includeDER: Whether certificates carry their DER as base64 (`der`).
    package func jsonDocument(includeDER: Bool) -> JSONValue {
        var members = JSONSchema.verdictMembers(error)
        members.merge([
            "checks": .array(
                checks.map {
                    .object(["name": .string($0.name), "outcome": .string($0.outcome), "detail": .string($0.detail)])
                }),
            "chain": .array(chain.map { $0.jsonValue(includeDER: includeDER) }),
            "chainValidated": .bool(chainValidated),
            "certificateProblems": .array(certificateProblems.map(JSONValue.string)),
            "validationTime": JSONSchema.string(validationTime.map(ISO8601Text.iso8601)),
            "hints": .array((hints + (validationTimeNote.map { ["validated at \($0)"] } ?? [])).map(JSONValue.string)),
            JSONSchema.versionKey: .integer(Int64(JSONSchema.version)),
            "verified": .bool(verified),
            "kind": JSONSchema.string(kindName),
        ]) { _, new in new }
        switch form {
        case .receipt:
            members["nestedField"] = nil
            members["nestedCheck"] = nil
            members["environment"] = JSONSchema.string(environment)
            members["receipt"] = receipt.map(\.jsonTree) ?? .null
        case .token:
            members["payload"] = payload?.json ?? .null
            members["nested"] = .null
            if kind == .notification {
                var nested: [String: JSONValue] = [:]
                for item in self.nested { nested[item.field] = item.outcome.jsonDocument(includeDER: includeDER) }
                members["nested"] = .object(nested)
            }
        }
        return .object(members)
    }

    /// ``jsonDocument(includeDER:)`` as JSON text ending in a newline, indented or compact on one line.
    package func jsonText(pretty: Bool, includeDER: Bool) -> String {
        JSONWriter.write(jsonDocument(includeDER: includeDER), pretty: pretty) + "\n"
    }

    /// Encodes the verification object (``jsonDocument(includeDER:)``, certificates with their DER).
    package func encode(to encoder: any Encoder) throws {
        try jsonDocument(includeDER: true).encode(to: encoder)
    }

    /// The object of `inspect --json` for a token this outcome decoded without verifying
    /// (``inspecting(_:kind:nesting:)``).
    package var inspectionDocument: JSONValue {
        var members: [String: JSONValue] = [
            JSONSchema.versionKey: .integer(Int64(JSONSchema.version)),
            "verified": .bool(false),
            "warning": .string("UNVERIFIED: nothing was checked; anybody can make a token that decodes to anything"),
            "kind": JSONSchema.string(kind?.rawValue ?? developerKind?.rawValue),
            "signedBy": developerKind.map { kind in
                .object([
                    "signer": .string("developer"), "keyId": JSONSchema.string(developerKeyId),
                    "description": .string(kind.description), "audience": .string(kind.audience),
                    "statement": .string(Self.developerSigned),
                ])
            } ?? .null,
            "code": JSONSchema.string(error?.code.rawValue),
            "check": JSONSchema.string(error?.check.rawValue),
            "message": JSONSchema.string(error?.message),
            "header": header ?? .null,
            "chain": .array(chain.map { $0.jsonValue(includeDER: true) }),
            "certificateProblems": .array(certificateProblems.map(JSONValue.string)),
            "payload": payload?.json ?? .null,
            "nested": .null,
        ]
        if kind == .notification {
            var nested: [String: JSONValue] = [:]
            for item in self.nested { nested[item.field] = item.outcome.inspectionDocument }
            members["nested"] = .object(nested)
        }
        return .object(members)
    }

    /// The object of `inspect --json` for a receipt: its decoding, or why it did not decode.
    package static func inspectionDocument(_ inspection: Result<UnverifiedAppReceipt, VerificationError>) -> JSONValue {
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
            JSONSchema.versionKey: .integer(Int64(JSONSchema.version)),
            "verified": .bool(false),
            "warning": .string("UNVERIFIED: nothing was checked; anybody can make a receipt that decodes to anything"),
            "kind": .string(SignedDataForm.receiptKind),
            "code": JSONSchema.string(error?.code.rawValue),
            "check": JSONSchema.string(error?.check.rawValue),
            "message": JSONSchema.string(error?.message),
            "signer": signer,
            "chain": .array((unverified.map(roles) ?? []).map { $0.jsonValue(includeDER: true) }),
            "certificateProblems": .array((unverified?.certificateProblems ?? []).map(JSONValue.string)),
            "receipt": unverified.map(\.receipt.jsonTree) ?? .null,
        ])
    }
}

extension ChainEntry {
    /// A certificate: the ``CertificateInfo`` fields (dates ISO 8601, DER base64 when asked), its role and the
    /// configured root it matched.
    package func jsonValue(includeDER: Bool) -> JSONValue {
        var members = info.jsonValue(includeDER: includeDER)
        members["role"] = .string(role)
        members["trustAnchor"] = JSONSchema.string(trustAnchor)
        return .object(members)
    }
}

extension AppReceipt {
    /// The receipt's JSON: its `Codable` form, the old `verifyReceipt` response's `receipt` object (values as
    /// strings), as a tree; null when it cannot be written (a date outside the years 0 to 9999). Read from the bytes
    /// of ``appendJSON(to:)``, which `batch` writes as they are.
    package var jsonTree: JSONValue {
        var bytes: [UInt8] = []
        guard appendJSON(to: &bytes), let value = try? JSONParser.parseValue(bytes) else { return .null }
        return value
    }
}
