import Foundation

/// The JSON documents of verification results, versioned: what `jwsverify --json` prints and what `Encodable`
/// results encode to.
///
/// `Docs/CLI.md` ("JSON schema") documents every member. Members are only ever added; a change that would break a
/// reader raises ``version``, which every top-level document carries as `schemaVersion`.
public enum JSONSchema {
    /// The version of the documents (`schemaVersion`).
    public static let version = 1

    /// The member that carries ``version`` in a top-level document.
    public static let versionKey = "schemaVersion"

    /// The `message` of a result without an error.
    package static let passedMessage = "every check passed"

    /// The members of a verdict: `code`, `check`, `message`, `underlying`, `retryable`, `nestedField` and
    /// `nestedCheck`, from `error` (null, or ``passedMessage`` and `false`, without one).
    package static func verdictMembers(_ error: VerificationError?) -> [String: JSONValue] {
        [
            "code": string(error?.code.rawValue),
            "check": string(error?.check.rawValue),
            "message": .string(error?.message ?? passedMessage),
            "underlying": string(error?.underlying),
            "retryable": .bool(error?.isRetryable ?? false),
            "nestedField": string(error?.nestedField),
            "nestedCheck": string(error?.nestedCheck?.rawValue),
        ]
    }

    /// A string, or null.
    package static func string(_ value: String?) -> JSONValue {
        value.map(JSONValue.string) ?? .null
    }
}

extension VerificationError: Encodable {
    /// The error as its schema object (``JSONSchema``): `code`, `check`, `message`, `underlying`, `retryable`,
    /// `nestedField` and `nestedCheck`, absent values as null.
    package var jsonValue: JSONValue { .object(JSONSchema.verdictMembers(self)) }

    /// Encodes the error as its schema object (see ``JSONSchema``): `code`, `check`, `message`, `underlying`,
    /// `retryable`, `nestedField`, `nestedCheck`.
    public func encode(to encoder: any Encoder) throws {
        try jsonValue.encode(to: encoder)
    }
}

extension CertificateInfo {
    /// The certificate as its schema object (``JSONSchema``): names, serial number, validity as ISO 8601 text,
    /// key type, signature algorithm, Apple marker extensions, SHA-256 fingerprint, and the DER as base64 when
    /// asked (`der`).
    package func jsonValue(includeDER: Bool) -> [String: JSONValue] {
        var members: [String: JSONValue] = [
            "subjectCommonName": JSONSchema.string(subjectCommonName),
            "subjectOrganization": JSONSchema.string(subjectOrganization),
            "issuerCommonName": JSONSchema.string(issuerCommonName),
            "issuerOrganization": JSONSchema.string(issuerOrganization),
            "serialNumber": JSONSchema.string(serialNumber),
            "notBefore": JSONSchema.string(notBefore.map(ISO8601Text.iso8601)),
            "notAfter": JSONSchema.string(notAfter.map(ISO8601Text.iso8601)),
            "keyType": .string(keyType),
            "signatureAlgorithm": JSONSchema.string(signatureAlgorithm),
            "appleMarkerExtensions": .array(appleMarkerExtensions.map(JSONValue.string)),
            "sha256Fingerprint": .string(sha256Fingerprint),
        ]
        if includeDER { members["der"] = .string(der.base64EncodedString()) }
        return members
    }
}

extension VerificationReport.Step {
    /// The step as its schema object: `name`, `outcome` and `detail`.
    package var jsonValue: JSONValue {
        .object(["name": .string(name.rawValue), "outcome": .string(outcome.rawValue), "detail": .string(detail)])
    }
}
