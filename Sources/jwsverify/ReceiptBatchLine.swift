import Foundation
import JWSVerify

/// App receipts in `batch`: which lines are receipts, the verifier they go to, and their result lines.
///
/// A line holds a receipt when the token ``InputShape`` reads from it (a bare line, a JSON string, or the `token`
/// of an object with its `id`) starts like one in base64 (``ReceiptInputDescription/startsLikeReceipt(_:)``); it
/// is verified with one ``AppReceiptVerifier`` built from the same options as the tokens' verifier (``runner(_:)``),
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
        func refusal(_ message: String) -> VerificationError {
            VerificationError(
                .invalidConfiguration, check: .configuration,
                "app receipts cannot be verified with these options: \(message)")
        }
        let files: (roots: [VerificationRunner.RootFile], xcodeCertificate: Data?)
        switch TokenInput.readCertificateFiles(roots: options.roots, xcodeCertificate: options.xcodeCertificate) {
        case .failure(let failure): return .failure(refusal(failure.message))
        case .success(let value): files = value
        }
        return ReceiptRunner.make(
            roots: files.roots, xcodeCertificate: files.xcodeCertificate, bundleId: options.bundleId,
            appAppleId: options.appAppleId, environments: options.environments, at: options.at,
            showsUndecodedDetails: false
        ).mapError { error in
            refusal(
                FlagAdvice.configurationMessage(
                    error, roots: files.roots, xcodeCertificatePath: options.xcodeCertificate,
                    xcodeCertificate: files.xcodeCertificate, signedData: "receipts"))
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

    /// The outcome of a line's token when it is a receipt; nil when it is not one (then it is a token).
    ///
    /// - Parameters:
    ///   - token: The token ``InputShape`` read from the line.
    ///   - runner: The run's receipt verifier, or why there is none.
    ///   - reporting: Whether the outcome carries every check and the chain (`--report full`).
    static func outcome(
        _ text: ShapedToken.Text, runner: Result<ReceiptRunner, VerificationError>?, reporting: Bool
    ) -> TokenOutcome? {
        // A token starts with "eyJ"; base64 of a receipt with "MI": only those lines are looked at further.
        let token: [UInt8]
        switch text {
        case .string(let string):
            guard string.utf8.first == UInt8(ascii: "M") else { return nil }
            token = Array(string.utf8)
        case .utf8(let bytes):
            guard bytes.first == UInt8(ascii: "M") else { return nil }
            token = bytes
        }
        guard let runner, ReceiptInputDescription.startsLikeReceipt(Array(token.prefix(24))) else { return nil }
        switch runner {
        case .success(let runner):
            return TokenOutcome(receipt: runner.run(token, reporting: reporting))
        case .failure(let error):
            return TokenOutcome(
                receipt: ReceiptOutcome(
                    verified: false, error: error,
                    checks: reporting ? CheckLine.lines(VerificationReport(failure: error)) : []))
        }
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
        _ receipt: ReceiptOutcome, line: Int, id: JSONValue?, report: BatchReport, fields: Set<String>?,
        into out: inout [UInt8]
    ) {
        var members: [String: JSONValue]
        switch report {
        case .compact: members = compact(receipt)
        case .full:
            guard case .object(let object) = ReceiptRenderer.document(receipt, includeDER: false) else { return }
            members = object
        }
        members["line"] = .integer(Int64(line))
        if let id { members["id"] = id }
        var writesPayload = report == .compact
        if let fields {
            members = members.filter { fields.contains($0.key) || BatchResultLine.alwaysKept.contains($0.key) }
            writesPayload = writesPayload && fields.contains("payload")
        }
        // The members in JSONWriter's order, the compact payload (nil here) among them by its name.
        var entries: [(key: String, value: JSONValue?)] = members.map { ($0.key, $0.value) }
        if writesPayload { entries.append(("payload", nil)) }
        entries.sort { JSONWriter.precedes($0.key, $1.key) }
        out.append(UInt8(ascii: "{"))
        for (index, entry) in entries.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            JSONWriter.writeString(entry.key, into: &out)
            out.append(UInt8(ascii: ":"))
            if let value = entry.value {
                JSONWriter.write(value, pretty: false, depth: 1, into: &out)
            } else if receipt.receipt?.appendJSON(to: &out) != true {
                JSONWriter.writeNull(into: &out)
            }
        }
        out.append(contentsOf: "}\n".utf8)
    }

    /// The compact members of one receipt, without `line` and `id`, and without `payload`, which
    /// ``write(_:line:id:report:fields:into:)`` writes from the library's bytes (``AppReceipt/appendJSON(to:)``, the
    /// JSON of ``ReceiptOutcome/json(_:)``).
    static func compact(_ receipt: ReceiptOutcome) -> [String: JSONValue] {
        var members: [String: JSONValue] = [
            "schemaVersion": .integer(Int64(BatchResultLine.compactSchemaVersion)),
            "verified": .bool(receipt.verified),
            "code": receipt.error.map { .string($0.code.rawValue) } ?? .null,
            "check": receipt.error.map { .string($0.check.rawValue) } ?? .null,
            "message": .string(receipt.error?.message ?? "every check passed"),
            "retryable": .bool(false),
            "kind": .string(ReceiptRenderer.kind),
            "environment": receipt.environment.map(JSONValue.string) ?? .null,
        ]
        if let underlying = receipt.error?.underlying { members["underlying"] = .string(underlying) }
        if let bundleId = receipt.receipt?.bundleId { members["bundleId"] = .string(bundleId) }
        if let first = receipt.receipt?.inApp.first {
            if let id = first.transactionId { members["transactionId"] = .string(id) }
            if let id = first.originalTransactionId { members["originalTransactionId"] = .string(id) }
        }
        return members
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
