import Foundation
import JWSVerify

/// App receipts in `batch`: which lines are receipts, the verifier they go to, and their result lines.
///
/// A line holds a receipt when the library's ``InputShape/readLine(_:range:)`` says so (a `receipt-data` object,
/// or a token that starts like a receipt in base64); it is verified with one ``AppReceiptVerifier`` built from the same options as the tokens' verifier (``runner(_:)``),
/// shared by every thread. Its outcome travels through `batch` as a ``TokenOutcome`` carrying the
/// ``ReceiptOutcome`` (``TokenOutcome/receipt``), and its line is written here.
///
/// The compact line (`schemaVersion` 2) has the verdict members of a token's line, `kind: "receipt"`, the
/// environment, the identifiers ``identifierKeys`` and `payload`: the receipt in the `verifyReceipt` shape
/// (``ReceiptOutcome/json(_:)``). `--report full` writes `receipt --json`'s object, without certificates'
/// `der`, with `line` and `id`.
enum ReceiptBatchLine {
    /// The identifiers of a receipt's compact line: the bundle id (field 2), and the transaction and original
    /// transaction ids of its first in-app purchase in the receipt's order (absent without purchases): an id to
    /// pass to the App Store Server API's Get Transaction History.
    static let identifierKeys = ["bundleId", "transactionId", "originalTransactionId"]

    /// The compact line's top-level fields.
    static let compactFields =
        [
            "schemaVersion", "line", "id", "verified", "code", "check", "message", "underlying", "retryable", "kind",
            "environment", "payload",
        ] + identifierKeys

    /// The full object's top-level fields (``ReceiptRenderer/document(_:includeDER:)`` with `line` and `id`).
    static let fullFields = [
        "schemaVersion", "line", "id", "verified", "kind", "code", "check", "message", "underlying", "retryable",
        "environment", "checks", "chain", "chainValidated", "certificateProblems", "validationTime", "hints",
        "receipt",
    ]

    /// The receipt verifier of a `batch` run, configured from its options; the library's refusal of that
    /// configuration (as `--environment LocalTesting`, which tokens accept) when there is none.
    static func runner(_ options: VerifyOptions) -> Result<ReceiptRunner, VerificationError> {
        options.trust.configure(signedData: "receipts") { roots, xcodeCertificate in
            ReceiptRunner.make(
                options.trust, roots: roots, xcodeCertificate: xcodeCertificate, showsUndecodedDetails: false)
        }.mapError { failure in
            VerificationError(
                .invalidConfiguration, check: .configuration,
                "app receipts cannot be verified with these options: \(failure.message)")
        }
    }

    /// The most bytes a `batch` line may have: room for the largest receipt the verifier takes, in base64
    /// (``AppReceiptVerifier/defaultMaximumReceiptBytes`` counts the text as given), when that is more than the
    /// tokens' `tokenLineLimit`.
    static func lineLimit(tokens tokenLineLimit: Int) -> Int {
        max(tokenLineLimit, AppReceiptVerifier.defaultMaximumReceiptBytes + BatchCommand.lineSlack)
    }

    /// Whether a line longer than the tokens' line limit may hold a receipt, and so is read: it starts (after
    /// whitespace) as base64 of a SignedData does (`M`), as a JSON string of it (`"M`), or as an object (whose
    /// token ``InputShape`` then finds). Any other long line is refused as before, without being parsed.
    static func mayHoldReceipt<Line: Collection<UInt8>>(_ line: Line) -> Bool {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
        var bytes = line.drop(while: isSpace).makeIterator()
        switch bytes.next() {
        case UInt8(ascii: "M"), UInt8(ascii: "{"): return true
        case UInt8(ascii: "\""): return bytes.next() == UInt8(ascii: "M")
        default: return false
        }
    }

    /// The outcome of a line that holds a receipt (``InputShape/readLine(_:range:)`` decides which lines do).
    ///
    /// - Parameters:
    ///   - receipt: The receipt's bytes or base64 text.
    ///   - runner: The run's receipt verifier, or why there is none.
    ///   - reporting: Whether the outcome carries every check and the chain (`--report full`).
    static func outcome(
        _ receipt: [UInt8], runner: Result<ReceiptRunner, VerificationError>?, reporting: Bool
    ) -> TokenOutcome {
        switch runner {
        case .success(let runner)?:
            return TokenOutcome(receipt: runner.run(receipt, reporting: reporting))
        case .failure(let error)?:
            return outcome(failing: error, reporting: reporting)
        case nil:
            return outcome(
                failing: VerificationError(
                    .invalidConfiguration, check: .configuration, "app receipts are not verified here"),
                reporting: reporting)
        }
    }

    /// The outcome of a receipt line refused before verification: its shape, or the options.
    static func outcome(failing error: VerificationError, reporting: Bool) -> TokenOutcome {
        TokenOutcome(
            receipt: ReceiptOutcome(
                verified: false, error: error,
                checks: reporting ? CheckLine.lines(VerificationReport(failure: error)) : []))
    }

    /// Writes one receipt's result line, newline-terminated.
    ///
    /// - Parameters:
    ///   - receipt: The receipt's outcome.
    ///   - line: The 1-based input line.
    ///   - id: The input object's `id`, echoed as given.
    ///   - report: Compact or full.
    ///   - fields: The top-level fields to keep (plus ``BatchResultLine/alwaysKept``); nil keeps all.
    ///   - out: Where the line is appended.
    static func write(
        _ receipt: ReceiptOutcome, line: Int, id: JSONLiteral?, report: BatchReport, fields: Set<String>?,
        into out: inout [UInt8]
    ) {
        guard report == .full else {
            writeCompact(receipt, line: line, id: id, fields: fields, into: &out)
            out.append(UInt8(ascii: "\n"))
            return
        }
        guard case .object(var members) = ReceiptRenderer.document(receipt, includeDER: false) else { return }
        members["line"] = .integer(Int64(line))
        if let fields {
            members = members.filter { fields.contains($0.key) || BatchResultLine.alwaysKept.contains($0.key) }
        }
        let echoesId = fields?.contains("id") ?? true
        BatchResultLine.writeObject(members, id: echoesId ? id : nil, payloadOf: nil, into: &out)
        out.append(UInt8(ascii: "\n"))
    }

    /// A member of the compact line, by its name in ``compactFields``.
    private enum CompactMember: String {
        case bundleId, check, code, environment, id, kind, line, message, originalTransactionId, payload, retryable
        case schemaVersion, transactionId, underlying, verified
    }

    /// The members of ``compactFields`` in the order ``JSONWriter`` writes an object's
    /// (``JSONWriter/precedes(_:_:)``), each with its `"name":` bytes.
    private static let compactMembersInOrder: [(member: CompactMember, name: String, key: [UInt8])] =
        compactFields.sorted(by: JSONWriter.precedes).compactMap { name in
            guard let member = CompactMember(rawValue: name) else { return nil }
            var key: [UInt8] = []
            JSONWriter.writeString(name, into: &key)
            key.append(UInt8(ascii: ":"))
            return (member, name, key)
        }

    /// Writes the compact line of one receipt, without its newline, those of its members `fields` keeps: the bytes
    /// ``JSONWriter`` writes for the object of the members, straight into `out`, the payload as the library writes
    /// it (``AppReceipt/appendJSON(to:)``, the JSON of ``ReceiptOutcome/json(_:)``; `null` when there is none or it
    /// cannot be written).
    ///
    /// Members: the verdict (`verified`, `code`, `check`, `message`, `underlying` when there is one, `retryable`
    /// false), `kind: "receipt"`, `environment`, ``identifierKeys`` (each when the receipt has it), `payload`,
    /// `line`, `id` when given, `schemaVersion`.
    static func writeCompact(
        _ receipt: ReceiptOutcome, line: Int, id: JSONLiteral?, fields: Set<String>?, into out: inout [UInt8]
    ) {
        let error = receipt.error
        let first = receipt.receipt?.inApp.first
        var opened = false
        for entry in compactMembersInOrder {
            if let fields, !fields.contains(entry.name), !BatchResultLine.alwaysKept.contains(entry.name) { continue }
            /// `{` or `,`, then `"name":`.
            func begin(_ out: inout [UInt8]) {
                out.append(UInt8(ascii: opened ? "," : "{"))
                opened = true
                out.append(contentsOf: entry.key)
            }
            switch entry.member {
            case .bundleId:
                guard let bundleId = receipt.receipt?.bundleId else { continue }
                begin(&out)
                JSONWriter.writeString(bundleId, into: &out)
            case .check:
                begin(&out)
                JSONWriter.writeString(orNull: error?.check.rawValue, into: &out)
            case .code:
                begin(&out)
                JSONWriter.writeString(orNull: error?.code.rawValue, into: &out)
            case .environment:
                begin(&out)
                JSONWriter.writeString(orNull: receipt.environment, into: &out)
            case .id:
                guard let id else { continue }
                begin(&out)
                out.append(contentsOf: id.bytes)
            case .kind:
                begin(&out)
                JSONWriter.writeString(ReceiptRenderer.kind, into: &out)
            case .line:
                begin(&out)
                JSONWriter.writeInteger(Int64(line), into: &out)
            case .message:
                begin(&out)
                JSONWriter.writeString(error?.message ?? "every check passed", into: &out)
            case .originalTransactionId:
                guard let originalTransactionId = first?.originalTransactionId else { continue }
                begin(&out)
                JSONWriter.writeString(originalTransactionId, into: &out)
            case .payload:
                begin(&out)
                if receipt.receipt?.appendJSON(to: &out) != true { JSONWriter.writeNull(into: &out) }
            case .retryable:
                begin(&out)
                JSONWriter.writeBool(false, into: &out)
            case .schemaVersion:
                begin(&out)
                JSONWriter.writeInteger(Int64(BatchResultLine.compactSchemaVersion), into: &out)
            case .transactionId:
                guard let transactionId = first?.transactionId else { continue }
                begin(&out)
                JSONWriter.writeString(transactionId, into: &out)
            case .underlying:
                guard let underlying = error?.underlying else { continue }
                begin(&out)
                JSONWriter.writeString(underlying, into: &out)
            case .verified:
                begin(&out)
                JSONWriter.writeBool(receipt.verified, into: &out)
            }
        }
        if !opened { out.append(UInt8(ascii: "{")) }
        out.append(UInt8(ascii: "}"))
    }
}

extension TokenOutcome {
    /// The outcome of a `batch` line that held an app receipt: its verdict and error, for the summary, and the
    /// receipt's own outcome in ``receipt``, which ``ReceiptBatchLine`` writes.
    init(receipt: ReceiptOutcome) {
        self.init(
            verified: receipt.verified, kind: nil, error: receipt.error, checks: receipt.checks, chain: receipt.chain,
            chainValidated: receipt.chainValidated)
        self.receipt = receipt
    }

    /// The kind as `batch`'s summary counts it: `receipt`, or the payload kind.
    var kindName: String? { receipt != nil ? ReceiptRenderer.kind : kind?.rawValue }
}
