import Foundation
import JWSVerify

/// What `inspect` shows of an app receipt: decoded, nothing verified.
struct ReceiptInspection: Sendable {
    /// Why the receipt did not decode (then ``unverified`` is nil).
    var error: VerificationError?
    /// The receipt's content and embedded certificates, unverified.
    var unverified: UnverifiedAppReceipt?

    /// 0 when decoded, 1 when not.
    var exitCode: Int32 { error == nil ? ExitCode.verified : ExitCode.notVerified }

    /// Decodes a receipt with ``AppReceiptVerifier/decodeUnverified(_:maximumReceiptBytes:)``.
    init(_ receipt: [UInt8]) {
        do {
            unverified = try AppReceiptVerifier.decodeUnverified(receipt)
        } catch {
            self.error = error
        }
    }
}

/// The output of `receipt`, and of `inspect` for a receipt: text (verdict, checks, chain, a summary of the
/// receipt) and `--json` objects (`kind: "receipt"`, the receipt in the `verifyReceipt` shape).
///
/// Text from the receipt never reaches the terminal unescaped: strings go through
/// ``TextRenderer/printable(_:)`` (text) or ``JSONWriter`` (JSON).
enum ReceiptRenderer {
    /// The `kind` of receipts in JSON output and in `batch`'s summary.
    static let kind = "receipt"

    // MARK: Text

    /// The text of a verification outcome.
    static func text(_ outcome: ReceiptOutcome) -> String {
        var out = [outcome.verdict]
        if let underlying = outcome.error?.underlying { out.append("  OpenSSL: \(underlying)") }
        out.append("  kind: \(kind)")
        out += outcome.hintLines + outcome.checkLines
        out.append("")
        out.append(
            outcome.chainValidated
                ? "CHAIN (validated, signer first, ending in the trusted root that matched)"
                : "CERTIFICATES (embedded in the receipt, as decoded; NOT the validated chain: the checks above say what"
                    + " passed)")
        out += TextRenderer.chainLines(outcome.chain, problems: outcome.certificateProblems)
        out.append("")
        out.append("RECEIPT (" + (outcome.verified ? "verified)" : "NOT VERIFIED: do not trust it)"))
        out += outcome.receipt.map(summaryLines) ?? ["  (not decoded)"]
        return out.joined(separator: "\n") + "\n"
    }

    /// The text of an inspection.
    static func text(_ inspection: ReceiptInspection) -> String {
        var out = [
            "UNVERIFIED: decoded only; nothing was checked, anybody can make a receipt that decodes to anything"
        ]
        guard let unverified = inspection.unverified else {
            if let error = inspection.error {
                out.append("NOT DECODED: \(error.code.rawValue) (\(error.check.rawValue)): \(error.message)")
            }
            return out.joined(separator: "\n") + "\n"
        }
        out.append("  kind: \(kind)")
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
        out += TextRenderer.chainLines(ReceiptRunner.roles(unverified), problems: unverified.certificateProblems)
        out.append("")
        out.append("RECEIPT (UNVERIFIED)")
        out += summaryLines(unverified.receipt)
        return out.joined(separator: "\n") + "\n"
    }

    /// The receipt's fields that are present, one per line, with its purchases: what a reader checks first
    /// (bundle id, type, creation date, versions), then the rest of the app fields, then each purchase.
    static func summaryLines(_ receipt: AppReceipt) -> [String] {
        var out: [String] = []
        func add(_ label: String, _ value: String?, indent: Int = 2) {
            guard let value else { return }
            let head = String(repeating: " ", count: indent) + label + ":"
            out.append(head.padding(toLength: max(head.count + 1, indent + 24), withPad: " ", startingAt: 0) + value)
        }
        let environment =
            receipt.environment.flatMap { $0.rawValue == receipt.receiptType ? nil : " (\($0.rawValue))" } ?? ""
        add("bundle id", receipt.bundleId.map(TextRenderer.printable))
        add("receipt type", receipt.receiptType.map { TextRenderer.printable($0) + environment })
        add("created", receipt.receiptCreationDate.map(date))
        add("app version", receipt.applicationVersion.map(TextRenderer.printable))
        add("original app version", receipt.originalApplicationVersion.map(TextRenderer.printable))
        add("app item id", receipt.appItemId.map { "\($0)" })
        add("original purchase", receipt.originalPurchaseDate.map(date))
        add("expires", receipt.expirationDate.map(date))
        add("age rating", receipt.ageRating.map(TextRenderer.printable))
        add("opaque value", receipt.opaqueValue.map(hex))
        add("SHA-1 hash", receipt.sha1Hash.map(hex))
        if !receipt.unknownAttributes.isEmpty {
            add("other attributes", receipt.unknownAttributes.map { "\($0.type)" }.joined(separator: ", "))
        }
        add("purchases", "\(receipt.inApp.count)")
        for (index, purchase) in receipt.inApp.enumerated() {
            out.append("    [\(index)] " + (purchase.productId.map(TextRenderer.printable) ?? "(no product id)"))
            add("transaction", purchase.transactionId.map(TextRenderer.printable), indent: 8)
            add("original transaction", purchase.originalTransactionId.map(TextRenderer.printable), indent: 8)
            add("purchased", purchase.purchaseDate.map(date), indent: 8)
            add("original purchase", purchase.originalPurchaseDate.map(date), indent: 8)
            add("expires", purchase.expiresDate.map(date), indent: 8)
            add("cancelled", purchase.cancellationDate.map(date), indent: 8)
            add("quantity", purchase.quantity.map { "\($0)" }, indent: 8)
            add("web order line item", purchase.webOrderLineItemId.map { "\($0)" }, indent: 8)
            add("trial period", purchase.isTrialPeriod.map { "\($0)" }, indent: 8)
            add("intro offer period", purchase.isInIntroOfferPeriod.map { "\($0)" }, indent: 8)
            add("promotional offer", purchase.promotionalOfferId.map(TextRenderer.printable), indent: 8)
            add("product type", purchase.productType.map { "\($0)" }, indent: 8)
            if !purchase.unknownAttributes.isEmpty {
                add(
                    "other attributes", purchase.unknownAttributes.map { "\($0.type)" }.joined(separator: ", "),
                    indent: 8)
            }
        }
        return out
    }

    private static func date(_ date: Date) -> String {
        ISO8601Text.iso8601(date)
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        bytes.isEmpty ? "(empty)" : bytes.map { String(format: "%02X", $0) }.joined()
    }

    // MARK: JSON

    /// A verification outcome as JSON text ending in a newline: indented (`receipt --json`) or compact.
    static func json(_ outcome: ReceiptOutcome, pretty: Bool, includeDER: Bool) -> String {
        JSONWriter.write(document(outcome, includeDER: includeDER), pretty: pretty) + "\n"
    }

    /// An inspection as indented JSON text ending in a newline.
    static func json(_ inspection: ReceiptInspection) -> String {
        JSONWriter.write(document(inspection), pretty: true) + "\n"
    }

    /// The verification object of `receipt --json` (and of `batch --report full` for a receipt line).
    static func document(_ outcome: ReceiptOutcome, includeDER: Bool) -> JSONValue {
        .object(outcome.reportMembers(includeDER: includeDER).merging([
            "schemaVersion": .integer(Int64(JSONRenderer.schemaVersion)),
            "verified": .bool(outcome.verified),
            "kind": .string(kind),
            "code": string(outcome.error?.code.rawValue),
            "check": string(outcome.error?.check.rawValue),
            "message": .string(outcome.error?.message ?? "every check passed"),
            "underlying": string(outcome.error?.underlying),
            "retryable": .bool(false),
            "environment": string(outcome.environment),
            "receipt": outcome.receipt.map(ReceiptOutcome.json) ?? .null,
        ]) { _, new in new })
    }

    /// The object of `inspect --json` for a receipt.
    static func document(_ inspection: ReceiptInspection) -> JSONValue {
        let unverified = inspection.unverified
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
            "schemaVersion": .integer(Int64(JSONRenderer.schemaVersion)),
            "verified": .bool(false),
            "warning": .string("UNVERIFIED: nothing was checked; anybody can make a receipt that decodes to anything"),
            "kind": .string(kind),
            "code": string(inspection.error?.code.rawValue),
            "check": string(inspection.error?.check.rawValue),
            "message": string(inspection.error?.message),
            "signer": signer,
            "chain": .array(
                (unverified.map(ReceiptRunner.roles) ?? []).map { JSONRenderer.certificate($0, includeDER: true) }),
            "certificateProblems": .array((unverified?.certificateProblems ?? []).map(JSONValue.string)),
            "receipt": unverified.map { ReceiptOutcome.json($0.receipt) } ?? .null,
        ])
    }

    private static func string(_ value: String?) -> JSONValue {
        value.map(JSONValue.string) ?? .null
    }
}
