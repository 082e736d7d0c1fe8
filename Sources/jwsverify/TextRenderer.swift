import Foundation
import JWSVerify

/// The human output of `verify` and `inspect`: verdict first, then the checks, the chain and the payload.
///
/// Payloads are rendered generically from their JSON, keys sorted, so that fields Apple adds appear
/// without code changes. Numbers at timestamp paths (known from the model) or under keys ending in
/// `Date` show as ISO 8601 beside the raw milliseconds; enumeration values show their Swift constant
/// name beside the raw value (`environment: Sandbox (sandbox)`).
enum TextRenderer {
    /// The text of a verification outcome.
    static func render(_ outcome: TokenOutcome) -> String {
        lines(outcome, outerChain: nil).joined(separator: "\n") + "\n"
    }

    /// The text of an inspection.
    static func render(_ inspection: Inspection) -> String {
        lines(inspection).joined(separator: "\n") + "\n"
    }

    // MARK: - Verification

    private static func lines(_ outcome: TokenOutcome, outerChain: [ChainEntry]?) -> [String] {
        var out = [outcome.verdict]
        if outcome.decodedWithoutVerification {
            out.append("  LocalTesting token: decoded WITHOUT verification; nobody signed it, trust nothing below")
        }
        if let underlying = outcome.error?.underlying { out.append("  OpenSSL: \(underlying)") }
        if outcome.error?.isRetryable == true { out.append("  retryable: the same token may verify later") }
        out.append(
            "  kind: \(outcome.kind?.rawValue ?? "unknown")")
        out += outcome.hintLines + outcome.checkLines
        out.append("")
        if let outerChain, !outcome.chain.isEmpty,
            outcome.chain.map(\.info.sha256Fingerprint) == outerChain.map(\.info.sha256Fingerprint)
        {
            out.append(
                "CHAIN: the same certificates as the notification's" + (outcome.chainValidated ? " (validated)" : ""))
        } else {
            out.append(
                outcome.chainValidated
                    ? "CHAIN (validated, leaf first, ending in the trusted root that matched)"
                    : "CHAIN (the token's x5c as decoded, not the validated chain; the checks above say what passed)")
            out += chainLines(outcome.chain, problems: outcome.certificateProblems)
        }

        out.append("")
        let label = outcome.kind.map { "PAYLOAD (\($0.rawValue)" } ?? "PAYLOAD ("
        let trust = outcome.verified ? "verified)" : "NOT VERIFIED: do not trust it)"
        out.append(label + (outcome.kind == nil ? "" : "; ") + trust)
        out += payloadLines(outcome.payload, nestedPaths: Set(outcome.nested.map(\.path)))

        for item in outcome.nested {
            out.append("")
            out.append("NESTED TOKEN \(item.path)")
            out += lines(item.outcome, outerChain: outcome.chain).map { $0.isEmpty ? $0 : "    " + $0 }
        }
        return out
    }

    // MARK: - Inspection

    private static func lines(_ inspection: Inspection) -> [String] {
        var out = ["UNVERIFIED: decoded only; nothing was checked, anybody can make a token that decodes to anything"]
        if let error = inspection.error {
            out.append("NOT DECODED: \(error.code.rawValue) (\(error.check.rawValue)): \(error.message)")
            return out
        }
        out.append("  kind: \(inspection.kind?.rawValue ?? "unknown")")
        out.append("")
        out.append("HEADER")
        if let header = inspection.header {
            let redacted: JSONValue
            if case .object(var members) = header, case .array(let entries)? = members["x5c"] {
                members["x5c"] = .string(
                    "\(entries.count) certificate\(entries.count == 1 ? "" : "s"), shown under CHAIN")
                redacted = .object(members)
            } else {
                redacted = header
            }
            out += payloadLines(PayloadDocument(json: redacted, annotatingAs: nil), nestedPaths: [])
        }
        out.append("")
        out.append("CHAIN (as the token's x5c claims; NOT validated)")
        out += chainLines(inspection.chain, problems: inspection.certificateProblems)
        out.append("")
        out.append("PAYLOAD" + (inspection.kind.map { " (\($0.rawValue); UNVERIFIED)" } ?? " (UNVERIFIED)"))
        out += payloadLines(inspection.payload, nestedPaths: Set(inspection.nested.map(\.path)))
        for item in inspection.nested {
            out.append("")
            out.append("NESTED TOKEN \(item.path)")
            out += lines(item.inspection).map { $0.isEmpty ? $0 : "    " + $0 }
        }
        return out
    }

    // MARK: - Chain

    /// The lines of a chain: each certificate's role, names, serial, validity, key, markers and fingerprint.
    static func chainLines(_ chain: [ChainEntry], problems: [String]) -> [String] {
        var out: [String] = []
        if chain.isEmpty && problems.isEmpty { out.append("  (no certificates)") }
        for entry in chain {
            let info = entry.info
            out.append("  " + entry.role + (entry.trustAnchor.map { ": matched trusted root \($0)" } ?? ""))
            out.append("    subject:    " + name(info.subjectCommonName, info.subjectOrganization))
            out.append("    issuer:     " + name(info.issuerCommonName, info.issuerOrganization))
            out.append("    serial:     " + (info.serialNumber ?? "?"))
            out.append(
                "    valid:      " + (info.notBefore.map(ISO8601Text.iso8601) ?? "?") + " to "
                    + (info.notAfter.map(ISO8601Text.iso8601) ?? "?"))
            out.append(
                "    key:        " + info.keyType + (info.signatureAlgorithm.map { ", signed with \($0)" } ?? ""))
            out.append(
                "    markers:    "
                    + (info.appleMarkerExtensions.isEmpty
                        ? "none" : info.appleMarkerExtensions.map(markerName).joined(separator: ", ")))
            out.append("    sha256:     " + info.sha256Fingerprint)
        }
        for problem in problems { out.append("  problem: \(problem)") }
        return out
    }

    /// `CN=…, O=…`, or `(no CN or O)`.
    private static func name(_ commonName: String?, _ organization: String?) -> String {
        // Names come from the token's certificates: escaped, as any token text.
        let parts = [
            commonName.map { "CN=\(EscapedText.escaped($0))" }, organization.map { "O=\(EscapedText.escaped($0))" },
        ].compactMap { $0 }
        return parts.isEmpty ? "(no CN or O)" : parts.joined(separator: ", ")
    }

    private static func markerName(_ oid: String) -> String {
        switch oid {
        case "1.2.840.113635.100.6.2.1": return "\(oid) (Apple WWDR intermediate)"
        case "1.2.840.113635.100.6.11.1": return "\(oid) (App Store receipt signing)"
        default: return oid
        }
    }

    // MARK: - Payload

    private static func payloadLines(_ payload: PayloadDocument?, nestedPaths: Set<String>) -> [String] {
        guard let payload else { return ["  (not decoded)"] }
        guard case .object(let members) = payload.json else {
            return ["  " + scalar(payload.json, key: "", path: "", payload: payload, nestedPaths: nestedPaths)]
        }
        if members.isEmpty { return ["  {}"] }
        var out: [String] = []
        for (key, value) in members.sorted(by: { $0.key < $1.key }) {
            member(key, value, path: key, indent: 1, payload: payload, nestedPaths: nestedPaths, into: &out)
        }
        return out
    }

    private static func member(
        _ label: String, _ value: JSONValue, path: String, indent: Int, payload: PayloadDocument,
        nestedPaths: Set<String>, into out: inout [String]
    ) {
        let prefix = String(repeating: "  ", count: indent) + EscapedText.escaped(label) + ":"
        switch value {
        case .object(let members) where !members.isEmpty:
            out.append(prefix)
            for (key, value) in members.sorted(by: { $0.key < $1.key }) {
                member(
                    key, value, path: path + "." + key, indent: indent + 1, payload: payload,
                    nestedPaths: nestedPaths, into: &out)
            }
        case .array(let elements) where !elements.isEmpty:
            out.append(prefix)
            for (index, element) in elements.enumerated() {
                member(
                    "[\(index)]", element, path: path + "[\(index)]", indent: indent + 1, payload: payload,
                    nestedPaths: nestedPaths, into: &out)
            }
        default:
            out.append(prefix + " " + scalar(value, key: label, path: path, payload: payload, nestedPaths: nestedPaths))
        }
    }

    private static func scalar(
        _ value: JSONValue, key: String, path: String, payload: PayloadDocument, nestedPaths: Set<String>
    ) -> String {
        let name = payload.enumerationNames[path].map { " (\($0))" } ?? ""
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .integer(let number):
            if isDate(key: key, path: path, payload: payload) {
                return "\(ISO8601Text.iso8601(milliseconds: Double(number))) (\(number))"
            }
            return "\(number)\(name)"
        case .double(let number):
            if isDate(key: key, path: path, payload: payload) {
                return "\(ISO8601Text.iso8601(milliseconds: number)) (\(number))"
            }
            return "\(number)\(name)"
        case .string(let text):
            if nestedPaths.contains(path) {
                return "<nested token, \(text.utf8.count) bytes: see NESTED TOKEN \(path) below>"
            }
            return printable(text) + name
        case .object: return "{}"
        case .array: return "[]"
        }
    }

    private static func isDate(key: String, path: String, payload: PayloadDocument) -> Bool {
        payload.timestampPaths.contains(path) || key.hasSuffix("Date")
    }

    /// The text as is, or quoted, with `"` and `\` escaped and every character that does not print as
    /// itself escaped (``EscapedText``), when it is empty, has surrounding spaces or such characters.
    static func printable(_ text: String) -> String {
        let escaped = EscapedText.escaped(text)
        let plain = !text.isEmpty && text.first != " " && text.last != " " && escaped == text
        guard !plain else { return text }
        let quoted = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "\"" + EscapedText.escaped(quoted) + "\""
    }
}
