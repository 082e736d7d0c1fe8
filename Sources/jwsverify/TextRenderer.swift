import Foundation
import JWSVerify

/// The human output of `verify`, `receipt` and `inspect`: verdict first, then the checks, the chain and the payload
/// (a receipt: a summary of its fields). Text from the input never reaches the terminal unescaped (``printable(_:)``).
///
/// Payloads are rendered generically from their JSON, keys sorted, so that fields Apple adds appear
/// without code changes. Numbers at timestamp paths (known from the model) or under keys ending in
/// `Date` show as ISO 8601 beside the raw milliseconds; enumeration values show their Swift constant
/// name beside the raw value (`environment: Sandbox (sandbox)`).
enum TextRenderer {
    /// The text of a verification outcome, a token's or a receipt's.
    static func render(_ outcome: SignedDataOutcome) -> String {
        lines(outcome, outerChain: nil).joined(separator: "\n") + "\n"
    }

    /// The text of a token's inspection.
    static func render(inspection: SignedDataOutcome) -> String {
        lines(inspection: inspection).joined(separator: "\n") + "\n"
    }

    // MARK: - Verification

    private static func lines(_ outcome: SignedDataOutcome, outerChain: [ChainEntry]?) -> [String] {
        var out = [outcome.verdict]
        if outcome.decodedWithoutVerification {
            out.append("  LocalTesting token: decoded WITHOUT verification; nobody signed it, trust nothing below")
        }
        if let underlying = outcome.error?.underlying { out.append("  OpenSSL: \(underlying)") }
        if outcome.error?.isRetryable == true { out.append("  retryable: the same token may verify later") }
        out.append("  kind: \(outcome.kindName ?? "unknown")")
        out += outcome.hintLines + outcome.checkLines
        out.append("")
        let receipt = outcome.form == .receipt
        if let outerChain, !outcome.chain.isEmpty,
            outcome.chain.map(\.info.sha256Fingerprint) == outerChain.map(\.info.sha256Fingerprint)
        {
            out.append(
                "CHAIN: the same certificates as the notification's" + (outcome.chainValidated ? " (validated)" : ""))
        } else {
            out.append(
                outcome.chainValidated
                    ? "CHAIN (validated, \(receipt ? "signer" : "leaf") first, ending in the trusted root that matched)"
                    : receipt
                        ? "CERTIFICATES (embedded in the receipt, as decoded; NOT the validated chain: the checks above say"
                            + " what passed)"
                        : "CHAIN (the token's x5c as decoded, not the validated chain; the checks above say what passed)"
            )
            out += chainLines(outcome.chain, problems: outcome.certificateProblems)
        }

        out.append("")
        let trust = outcome.verified ? "verified)" : "NOT VERIFIED: do not trust it)"
        if receipt {
            out.append("RECEIPT (" + trust)
            out += outcome.receipt.map(receiptLines) ?? ["  (not decoded)"]
            return out
        }
        out.append((outcome.kind.map { "PAYLOAD (\($0.rawValue); " } ?? "PAYLOAD (") + trust)
        out += payloadLines(outcome.payload, nestedPaths: Set(outcome.nested.map(\.path)))

        for item in outcome.nested {
            out.append("")
            out.append("NESTED TOKEN \(item.path)")
            out += lines(item.outcome, outerChain: outcome.chain).map { $0.isEmpty ? $0 : "    " + $0 }
        }
        return out
    }

    // MARK: - Inspection

    private static func lines(inspection: SignedDataOutcome) -> [String] {
        var out = ["UNVERIFIED: decoded only; nothing was checked, anybody can make a token that decodes to anything"]
        if let error = inspection.error {
            out.append("NOT DECODED: \(error.code.rawValue) (\(error.check.rawValue)): \(error.message)")
            return out
        }
        if let developer = inspection.developerKind {
            out.append("  kind: \(developer.rawValue) (\(developer.description), aud \(developer.audience))")
            out.append("  \(SignedDataOutcome.developerSigned)")
            out.append("  kid: \(inspection.developerKeyId.map(printable) ?? "(none)")")
        } else {
            out.append("  kind: \(inspection.kind?.rawValue ?? "unknown")")
        }
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
        let kindName = inspection.kind?.rawValue ?? inspection.developerKind?.rawValue
        out.append("PAYLOAD" + (kindName.map { " (\($0); UNVERIFIED)" } ?? " (UNVERIFIED)"))
        out += payloadLines(inspection.payload, nestedPaths: Set(inspection.nested.map(\.path)))
        for item in inspection.nested {
            out.append("")
            out.append("NESTED TOKEN \(item.path)")
            out += lines(inspection: item.outcome).map { $0.isEmpty ? $0 : "    " + $0 }
        }
        return out
    }

    // MARK: - Receipts

    /// The text of a receipt's inspection: its decoding, or why it did not decode.
    static func render(_ inspection: Result<UnverifiedAppReceipt, VerificationError>) -> String {
        var out = [
            "UNVERIFIED: decoded only; nothing was checked, anybody can make a receipt that decodes to anything"
        ]
        let unverified: UnverifiedAppReceipt
        switch inspection {
        case .failure(let error):
            out.append("NOT DECODED: \(error.code.rawValue) (\(error.check.rawValue)): \(error.message)")
            return out.joined(separator: "\n") + "\n"
        case .success(let value): unverified = value
        }
        out.append("  kind: \(SignedDataForm.receiptKind)")
        out.append("")
        out.append("SIGNER (as the SignerInfo states it)")
        out.append("  digest:             \(unverified.digestAlgorithm)")
        out.append("  signature:          \(unverified.signatureAlgorithm)")
        out.append("  signed attributes:  \(unverified.hasSignedAttributes ? "present" : "none")")
        out.append(
            "  certificate:        "
                + (unverified.signerIndex.map { "embedded certificate \($0 + 1) of \(unverified.certificates.count)" }
                    ?? "none of the embedded certificates"))
        out.append("")
        out.append("CERTIFICATES (embedded in the receipt; NOT validated)")
        out += chainLines(SignedDataOutcome.roles(unverified), problems: unverified.certificateProblems)
        out.append("")
        out.append("RECEIPT (UNVERIFIED)")
        out += receiptLines(unverified.receipt)
        return out.joined(separator: "\n") + "\n"
    }

    /// The receipt's fields that are present, one per line, with its purchases: what a reader checks first
    /// (bundle id, type, creation date, versions), then the rest of the app fields, then each purchase.
    static func receiptLines(_ receipt: AppReceipt) -> [String] {
        var out: [String] = []
        func add(_ label: String, _ value: String?, indent: Int = 2) {
            guard let value else { return }
            let head = String(repeating: " ", count: indent) + label + ":"
            out.append(head.padding(toLength: max(head.count + 1, indent + 24), withPad: " ", startingAt: 0) + value)
        }
        let environment =
            receipt.environment.flatMap { $0.rawValue == receipt.receiptType ? nil : " (\($0.rawValue))" } ?? ""
        add("bundle id", receipt.bundleId.map(printable))
        add("receipt type", receipt.receiptType.map { printable($0) + environment })
        add("created", receipt.receiptCreationDate.map(ISO8601Text.iso8601))
        add("app version", receipt.applicationVersion.map(printable))
        add("original app version", receipt.originalApplicationVersion.map(printable))
        add("app item id", receipt.appItemId.map { "\($0)" })
        add("original purchase", receipt.originalPurchaseDate.map(ISO8601Text.iso8601))
        add("expires", receipt.expirationDate.map(ISO8601Text.iso8601))
        add("age rating", receipt.ageRating.map(printable))
        add("opaque value", receipt.opaqueValue.map(hex))
        add("SHA-1 hash", receipt.sha1Hash.map(hex))
        if !receipt.unknownAttributes.isEmpty {
            add("other attributes", receipt.unknownAttributes.map { "\($0.type)" }.joined(separator: ", "))
        }
        add("purchases", "\(receipt.inApp.count)")
        for (index, purchase) in receipt.inApp.enumerated() {
            out.append("    [\(index)] " + (purchase.productId.map(printable) ?? "(no product id)"))
            add("transaction", purchase.transactionId.map(printable), indent: 8)
            add("original transaction", purchase.originalTransactionId.map(printable), indent: 8)
            add("purchased", purchase.purchaseDate.map(ISO8601Text.iso8601), indent: 8)
            add("original purchase", purchase.originalPurchaseDate.map(ISO8601Text.iso8601), indent: 8)
            add("expires", purchase.expiresDate.map(ISO8601Text.iso8601), indent: 8)
            add("cancelled", purchase.cancellationDate.map(ISO8601Text.iso8601), indent: 8)
            add("quantity", purchase.quantity.map { "\($0)" }, indent: 8)
            add("web order line item", purchase.webOrderLineItemId.map { "\($0)" }, indent: 8)
            add("trial period", purchase.isTrialPeriod.map { "\($0)" }, indent: 8)
            add("intro offer period", purchase.isInIntroOfferPeriod.map { "\($0)" }, indent: 8)
            add("promotional offer", purchase.promotionalOfferId.map(printable), indent: 8)
            add("product type", purchase.productType.map { "\($0)" }, indent: 8)
            if !purchase.unknownAttributes.isEmpty {
                add(
                    "other attributes", purchase.unknownAttributes.map { "\($0.type)" }.joined(separator: ", "),
                    indent: 8)
            }
        }
        return out
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        bytes.isEmpty ? "(empty)" : bytes.map { String(format: "%02X", $0) }.joined()
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
