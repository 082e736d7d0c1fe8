import Foundation
import JWSVerify

/// Importing a file of stored tokens into a ledger: one token per line, in `batch`'s shapes (bare, a JSON string,
/// `{"token": ...}`, Apple's notification body `{"signedPayload": ...}`), each verified and appended.
///
/// Idempotent: importing the same file again, or after an interruption at any point, stores each item once. Lines are
/// committed in groups of ``Options/batchSize``; each group is one database transaction, durable before the next is
/// read, so an interrupted import has stored whole groups only and a second run skips them as duplicates.
public enum LedgerImport {
    /// The longest line read; a longer one is refused (`malformedToken`) and the import goes on after it.
    public static let maximumLineBytes = 1 << 20

    /// How an import runs.
    public struct Options: Sendable {
        /// Where the items are said to come from.
        public var source: LedgerSource = .import
        /// How many verified lines each database transaction commits.
        public var batchSize = 256
        /// How many times a group is tried again when the store is unavailable (a PostgreSQL deadlock between two
        /// importers, a busy SQLite file) before the import stops with the store's error.
        public var retries = 3

        /// The defaults.
        public init() {}
    }

    /// What an import did so far, or in the end.
    public struct Report: Sendable, Hashable {
        /// Lines read, blank lines not counted.
        public var lines = 0
        /// Items appended.
        public var appended = 0
        /// Items already in the log.
        public var duplicate = 0
        /// Lines refused.
        public var refused = 0
        /// Refused lines by code: the verification code, or the ledger's.
        public var refusedByCode: [String: Int] = [:]

        /// An empty report.
        public init() {}

        /// The report as one JSON object (`jwsverify ledger import --json`): `lines`, `appended`, `duplicate`,
        /// `refused`, `refusedByCode` and `schemaVersion` 1.
        public var jsonValue: JSONValue {
            .object([
                "schemaVersion": .integer(1), "lines": .integer(Int64(lines)), "appended": .integer(Int64(appended)),
                "duplicate": .integer(Int64(duplicate)), "refused": .integer(Int64(refused)),
                "refusedByCode": .object(refusedByCode.mapValues { .integer(Int64($0)) }),
            ])
        }

        /// `N lines: A appended, D duplicate, R refused (code n, ...)`.
        public var summary: String {
            let codes = refusedByCode.keys.sorted().map { "\($0) \(refusedByCode[$0] ?? 0)" }
            return "\(lines) lines: \(appended) appended, \(duplicate) duplicate, \(refused) refused"
                + (codes.isEmpty ? "" : " (\(codes.joined(separator: ", ")))")
        }
    }

    /// A refused line.
    public struct Refusal: Sendable, Hashable {
        /// Its line number, from 1.
        public var line: Int
        /// The verification code (`invalidSignature`, ...) or the ledger's (`unsupportedKind`, ...).
        public var code: String
        /// Why, with any text from the line escaped.
        public var message: String
    }
}

extension Ledger {
    /// Imports every line of a file (``LedgerImport``).
    ///
    /// - Parameters:
    ///   - handle: The file, read to its end.
    ///   - options: Source, group size and retries.
    ///   - progress: Called after each group commits, with the counts so far.
    ///   - refused: Called for each refused line, as it is read.
    /// - Returns: the counts.
    /// - Throws: ``LedgerError`` when the store fails (after the retries) or the file cannot be read; the groups
    ///   committed before stay stored.
    public func importLines(
        from handle: FileHandle, options: LedgerImport.Options = LedgerImport.Options(),
        progress: (LedgerImport.Report) -> Void = { _ in },
        refused: (LedgerImport.Refusal) -> Void = { _ in }
    ) throws(LedgerError) -> LedgerImport.Report {
        var report = LedgerImport.Report()
        var pending: [LedgerEntry] = []
        var lineNumber = 0

        func commit() throws(LedgerError) {
            guard !pending.isEmpty else { return }
            var attempt = 0
            while true {
                do {
                    let outcomes = try store.append(pending)
                    for outcome in outcomes {
                        if outcome.result == .appended { report.appended += 1 } else { report.duplicate += 1 }
                    }
                    break
                } catch  where error.code == .storeUnavailable && attempt < options.retries {
                    attempt += 1
                    Thread.sleep(forTimeInterval: 0.05 * Double(attempt))
                }
            }
            pending.removeAll(keepingCapacity: true)
            progress(report)
        }

        func refuse(_ error: LedgerError) {
            report.refused += 1
            report.refusedByCode[error.reportedCode, default: 0] += 1
            refused(LedgerImport.Refusal(line: lineNumber, code: error.reportedCode, message: error.message))
        }

        var lines = LineReader(handle: handle, maximumLineBytes: LedgerImport.maximumLineBytes)
        while let line = try lines.next() {
            lineNumber += 1
            switch line {
            case .tooLong:
                report.lines += 1
                refuse(
                    LedgerError(
                        .notVerified, "the line is longer than \(LedgerImport.maximumLineBytes) bytes",
                        verification: VerificationError(
                            .malformedToken, check: .format,
                            "the line is longer than \(LedgerImport.maximumLineBytes) bytes")))
            case .line(let bytes, let range):
                guard bytes[range].contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { continue }
                report.lines += 1
                do {
                    let token = try Ledger.token(in: bytes, range: range, what: "the line")
                    pending.append(try LedgerEntry(verifying: token, with: verifier, source: options.source))
                } catch {
                    refuse(error)
                    continue
                }
                if pending.count >= options.batchSize { try commit() }
            }
        }
        try commit()
        return report
    }
}

/// The lines of a file, read in chunks: each line's bytes without its `\n`, or `tooLong` for a line over the bound
/// (skipped to its end without keeping it).
struct LineReader {
    enum Line {
        case line([UInt8], Range<Int>)
        case tooLong
    }

    private let handle: FileHandle
    private let maximumLineBytes: Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var finished = false
    private var skipping = false

    init(handle: FileHandle, maximumLineBytes: Int) {
        self.handle = handle
        self.maximumLineBytes = maximumLineBytes
    }

    mutating func next() throws(LedgerError) -> Line? {
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                let range = start..<newline
                start = newline + 1
                if skipping {
                    skipping = false
                    continue
                }
                return .line(buffer, range)
            }
            if buffer.count - start > maximumLineBytes || (skipping && start < buffer.count) {
                let wasSkipping = skipping
                buffer.removeAll(keepingCapacity: true)
                start = 0
                skipping = true
                if !wasSkipping { return .tooLong }
            }
            if finished {
                guard start < buffer.count, !skipping else { return nil }
                let range = start..<buffer.count
                start = buffer.count
                return .line(buffer, range)
            }
            let chunk: Data?
            do {
                chunk = try handle.read(upToCount: 1 << 20)
            } catch {
                throw LedgerError(.inputUnreadable, "cannot read the input: \(error.localizedDescription)")
            }
            guard let chunk, !chunk.isEmpty else {
                finished = true
                continue
            }
            if start > 0 {
                buffer.removeFirst(start)
                start = 0
            }
            buffer.append(contentsOf: chunk)
        }
    }
}
