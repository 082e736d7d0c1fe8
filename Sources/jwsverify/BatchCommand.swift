import Dispatch
import Foundation
import JWSVerify

extension Subcommand {
    /// `jwsverify batch`.
    static let batch = Subcommand(path: "batch")
}

/// `jwsverify batch`: verifies one token or app receipt per line on all cores with one shared verifier and writes one
/// compact JSON result per input line, in input order.
///
/// Input is streamed: lines are read with `read(2)` straight into a chunk's buffer, chunks of at most
/// ``linesPerChunk`` lines and ``Chunking/bytes`` bytes; each chunk's result lines are written with one call from
/// one byte buffer that is reused for the next chunk. With one processor allowed, a chunk is verified on the
/// reading thread right after it is read, its result lines rendered straight into that buffer; with more, on
/// every core with `DispatchQueue.concurrentPerform`, ``linesPerStripe`` lines at a time, while the next is
/// read, each stripe's result lines rendered into a buffer of its own and the stripes joined in input order.
/// Memory stays flat whatever the input size; a line over the line limit is read to its end without being kept.
enum BatchCommand {
    /// Lines verified together.
    static let linesPerChunk = 4096
    /// Lines one `concurrentPerform` iteration verifies and renders, in order, into one byte buffer.
    static let linesPerStripe = 8
    /// Bytes a line may have beyond the token limit: room for the NDJSON wrapper and whitespace.
    static let lineSlack = 4096

    /// How input is cut into chunks.
    struct Chunking {
        /// The most line bytes kept in one chunk.
        var bytes: Int
        /// The most bytes one `read(2)` asks for.
        var readSize: Int

        /// One processor: small chunks, in cache when verified, whose reading evicts little (Docs/Performance.md).
        static let oneProcessor = Chunking(bytes: 64 * 1024, readSize: 16 * 1024)
        /// Several: chunks large enough that handing them between threads costs little.
        static let severalProcessors = Chunking(bytes: 1024 * 1024, readSize: 256 * 1024)
    }

    // MARK: Options and definition

    static let report = OptionDeclaration<VerifyOptions>.value(
        "--report", label: "<report>",
        help: "compact: one short line per input line (schemaVersion 2: verdict, identifiers, decoded payload);"
            + " full: verify's JSON object with every check and the chain (schemaVersion 1).",
        defaultValue: BatchReport.compact.rawValue, allowedValues: BatchReport.allCases.map(\.rawValue)
    ) { options, string throws(InvalidValue) in
        guard let report = BatchReport(rawValue: string) else { throw InvalidValue() }
        options.report = report
    }

    static let fields = OptionDeclaration<VerifyOptions>.value(
        "--fields", label: "<list>",
        help: "Comma-separated top-level fields each line keeps; line and schemaVersion are always kept.",
        defaultValue: "every field of the report"
    ) { options, string throws(InvalidValue) in
        let names = string.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        if let unknown = names.first(where: { !BatchResultLine.selectableFields.contains($0) }) {
            throw InvalidValue(
                hint: ": unknown field '\(EscapedText.escaped(unknown))'. Please provide a comma-separated list of"
                    + " \(CommandLineGrammar.listed(BatchResultLine.selectableFields)).")
        }
        options.fields = Set(names)
    }

    /// The seconds between two ``progress`` lines: `JWSVERIFY_PROGRESS_SECONDS` when set (tests use 0: a line per
    /// chunk of lines), else 5.
    static var progressSeconds: Double {
        ProcessInfo.processInfo.environment["JWSVERIFY_PROGRESS_SECONDS"].flatMap(Double.init) ?? 5
    }

    static let progress = OptionDeclaration<VerifyOptions>.flag(
        OptionName.progress,
        help: "When standard error is not a terminal (a log, CI, a cluster job), write a progress line there every"
            + " 5 seconds (JWSVERIFY_PROGRESS_SECONDS); a terminal always gets the live line.", \.progress)

    /// The options of `batch`: those of `verify`, with `--json` and `--quiet` worded for batch, then
    /// `--report`, `--fields` and `--progress`.
    static let declarations =
        VerifyCommand.declarations.map { declaration in
            switch declaration.name {
            case VerifyCommand.json.name:
                return declaration.withHelp("Accepted for symmetry with verify; batch always writes JSON.")
            case VerifyCommand.quiet.name:
                return declaration.withHelp("Print neither results nor summary; report through the exit status only.")
            default: return declaration
            }
        } + [report, fields, progress]

    /// `batch` in ``CommandRegistry``.
    static let definition = CommandDefinition(
        .batch, summary: "Verify one token or receipt per line on all cores; one JSON result per line.",
        help: HelpContent(
            overview: "Verify many tokens and app receipts, one per line, on all cores.",
            discussion: "Each line is a bare token, a JSON string holding one, or a JSON object with a 'token' or"
                + " 'signedPayload' string member and an optional 'id' (string or number). Writes one JSON result per"
                + " input line, in input order, with its 1-based 'line' and the line's 'id'; blank, garbage, binary"
                + " and over-long lines are reported as malformedToken, never dropped. A line whose token is an app"
                + " receipt in base64 is verified as one ('kind': 'receipt'). A summary goes to standard error (lines per"
                + " verdict, failure code and kind, receipts included), with a live progress line when standard error"
                + " is a terminal, or a line every few seconds with '\(progress.name)' when it is not.",
            argument: .file(help: "The file of token and receipt lines; '-' or none reads standard input."),
            exitCodes: [
                (ExitCode.verified, "Every line verified."),
                (ExitCode.notVerified, "At least one line not verified."),
                (ExitCode.usage, "Usage error, or a configuration the verifier refuses."),
                (ExitCode.noInput, "Input missing, unreadable or empty."),
                (ExitCode.retryable, "Every failure was retryable (revocation status unavailable)."),
            ]),
        options: declarations,
        parse: { VerifyCommand.parse($0, subcommand: .batch, declarations: declarations).map(Command.batch) },
        execute: { command, io in
            guard case .batch(let options) = command else { return nil }
            return run(
                options, standardOutput: io.standardOutputBytes, standardError: io.standardError,
                showProgress: io.standardErrorIsTerminal)
        })

    /// What one line produced, for the summary (its result line is in its stripe's ``Stripe/output``).
    struct LineResult: Sendable {
        /// Whether the token verified.
        var verified: Bool
        /// The failure code, when not verified.
        var code: String?
        /// The payload kind, when known.
        var kind: String?
        /// Whether the failure was retryable.
        var retryable: Bool
    }

    /// What one stripe of a chunk produced.
    struct Stripe: Sendable {
        /// The stripe's result lines, each newline-terminated, in input order (empty with `--quiet`).
        var output: [UInt8]
        /// Each line's result, in input order.
        var lines: [LineResult]
    }

    /// Counts for the summary.
    struct Tally: Sendable, Equatable {
        /// Lines read.
        var total = 0
        /// Lines that verified.
        var verified = 0
        /// Failures per code.
        var codes: [String: Int] = [:]
        /// Lines per kind (`unknown` when the kind was not learned).
        var kinds: [String: Int] = [:]
        /// Failures that were not retryable.
        var permanentFailures = 0

        /// Adds one line.
        mutating func add(_ result: LineResult) {
            total += 1
            kinds[result.kind ?? "unknown", default: 0] += 1
            if result.verified {
                verified += 1
            } else {
                codes[result.code ?? "unknown", default: 0] += 1
                if !result.retryable { permanentFailures += 1 }
            }
        }

        /// 0 when every token verified, 1 when any failed for good, 75 when every failure was retryable.
        var exitCode: Int32 {
            if verified == total { return ExitCode.verified }
            return permanentFailures > 0 ? ExitCode.notVerified : ExitCode.retryable
        }

        /// The summary written to standard error: counts per code and per kind, elapsed time and rate.
        func summary(seconds: Double) -> String {
            var text = "total: \(total)\nverified: \(verified)\nnot verified: \(total - verified)\n"
            for (code, count) in codes.sorted(by: { $0.key < $1.key }) { text += "  \(code): \(count)\n" }
            text += "kinds:\n"
            for (kind, count) in kinds.sorted(by: { $0.key < $1.key }) { text += "  \(kind): \(count)\n" }
            let rate = seconds > 0 ? Double(total) / seconds : 0
            text += "elapsed: \(String(format: "%.3f", seconds)) s, \(Int(rate.rounded())) lines/s\n"
            return text
        }
    }

    /// Runs `batch`.
    ///
    /// - Parameters:
    ///   - options: The verify options; `--json` is implied.
    ///   - standardOutput: Writes result lines.
    ///   - standardError: Writes the progress line and the summary.
    ///   - showProgress: Whether standard error is a terminal (a progress line is then redrawn per chunk; else
    ///     `--progress` writes one every ``progressSeconds``).
    /// - Returns: the exit status.
    static func run(
        _ options: VerifyOptions, standardOutput: ([UInt8]) -> Void, standardError: (String) -> Void,
        showProgress: Bool
    ) -> Int32 {
        let runner: VerificationRunner
        switch VerificationRunner.make(options, forms: .both, subcommand: .batch, showsUndecodedDetails: false) {
        case .failure(let result):
            standardError(result.stderr)
            return result.status
        case .success(let value): runner = value
        }
        let source: ByteSource
        switch ByteSource.open(options.input) {
        case .failure(let failure):
            standardError(CommandResult.inputFailure(failure).stderr)
            return ExitCode.noInput
        case .success(let value): source = value
        }
        let lineLimit = runner.maximumTokenBytes + lineSlack
        let oneProcessor = UsableProcessors.count == 1
        let chunking = oneProcessor ? Chunking.oneProcessor : Chunking.severalProcessors
        let reader = LineReader(
            source, lineLimit: max(lineLimit, AppReceiptVerifier.defaultMaximumReceiptBytes + lineSlack),
            readSize: chunking.readSize)
        var tally = Tally()
        let start = DispatchTime.now().uptimeNanoseconds
        func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
        let progressSeconds = Self.progressSeconds
        var nextProgress = progressSeconds

        // One chunk's result lines, joined; its capacity is kept for the next chunk.
        var output: [UInt8] = []
        // Counts one verified chunk's lines and writes `output`, which holds their result lines.
        func finish(_ results: [LineResult]) {
            for result in results { tally.add(result) }
            if !output.isEmpty { standardOutput(output) }
            output.removeAll(keepingCapacity: true)
            let seconds = elapsed()
            guard !options.quiet, showProgress || (options.progress && seconds >= nextProgress) else { return }
            let rate = Int((Double(tally.total) / max(seconds, 1e-9)).rounded())
            let line = "\(tally.total) lines, \(tally.verified) verified, \(rate) lines/s"
            standardError(
                showProgress ? "\r\(line)\u{1B}[K" : "progress: \(line), \(String(format: "%.1f", seconds)) s\n")
            nextProgress = seconds + progressSeconds
        }
        // The chunk buffers not in use, kept for the next chunks' lines.
        var spares: [[UInt8]] = []
        func readChunk() -> (lines: [InputLine], bytes: [UInt8], failure: InputFailure?) {
            var bytes = spares.popLast() ?? reader.makeBuffer(maximumBytes: chunking.bytes)
            switch reader.nextChunk(into: &bytes, maximumLines: linesPerChunk, maximumBytes: chunking.bytes) {
            case .failure(let failure): return ([], bytes, failure)
            case .success(let lines): return (lines, bytes, nil)
            }
        }
        if oneProcessor {
            // One processor: each chunk is verified on this thread right after it is read, while its lines
            // are in cache; other threads would only take turns with this one.
            while true {
                let (lines, bytes, failure) = readChunk()
                if let failure {
                    standardError(CommandResult.inputFailure(failure).stderr)
                    return ExitCode.noInput
                }
                if lines.isEmpty { break }
                var stripe = Stripe(output: output, lines: [])
                output = []
                verify(
                    lines, 0..<lines.count, bytes: bytes, with: runner, lineLimit: lineLimit, options: options,
                    into: &stripe)
                output = stripe.output
                finish(stripe.lines)
                spares.append(bytes)
            }
        } else {
            // Chunks verify on every core while this thread reads the next one and writes the results of
            // the one before. A chunk starts before the one ahead of it is waited for, so that no core
            // waits for a chunk's last stripes: at most three chunks of lines and one of results are held.
            var inFlight: [ChunkInFlight] = []
            while true {
                let (lines, bytes, failure) = readChunk()
                let started = failure == nil && !lines.isEmpty
                if started {
                    inFlight.append(
                        ChunkInFlight(lines, bytes: bytes, runner: runner, lineLimit: lineLimit, options: options))
                }
                while inFlight.count > (started ? 1 : 0) {
                    let oldest = inFlight.removeFirst()
                    let stripes = oldest.wait()
                    spares.append(oldest.takeBytes())
                    for stripe in stripes { output.append(contentsOf: stripe.output) }
                    finish(stripes.flatMap(\.lines))
                }
                if let failure {
                    standardError(CommandResult.inputFailure(failure).stderr)
                    return ExitCode.noInput
                }
                if lines.isEmpty { break }
            }
        }
        if showProgress && !options.quiet { standardError("\r\u{1B}[K") }
        if reader.bytesRead == 0 {
            standardError("Error: no token \(options.input == .standardInput ? "on" : "in") \(source.name)\n")
            return ExitCode.noInput
        }
        if !options.quiet { standardError(tally.summary(seconds: elapsed())) }
        return tally.exitCode
    }

    /// Verifies the lines of one chunk on all cores, ``linesPerStripe`` lines per iteration; stripes in input order.
    static func verify(
        _ lines: [InputLine], bytes: [UInt8], with runner: VerificationRunner, lineLimit: Int, options: VerifyOptions
    ) -> [Stripe] {
        let stripeCount = (lines.count + linesPerStripe - 1) / linesPerStripe
        let slots = ResultSlots(count: stripeCount)
        DispatchQueue.concurrentPerform(iterations: stripeCount) { stripeIndex in
            let range = (stripeIndex * linesPerStripe)..<min(lines.count, (stripeIndex + 1) * linesPerStripe)
            var stripe = Stripe(output: [], lines: [])
            if !options.quiet { stripe.output.reserveCapacity(range.count * 2048) }
            verify(lines, range, bytes: bytes, with: runner, lineLimit: lineLimit, options: options, into: &stripe)
            slots.store(stripe, at: stripeIndex)
        }
        return slots.values()
    }

    /// Verifies the lines `range` of a chunk in order, appending their result lines and results to `stripe`.
    static func verify(
        _ lines: [InputLine], _ range: Range<Int>, bytes: [UInt8], with runner: VerificationRunner, lineLimit: Int,
        options: VerifyOptions, into stripe: inout Stripe
    ) {
        stripe.lines.reserveCapacity(stripe.lines.count + range.count)
        for index in range {
            let line = lines[index]
            let (outcome, id) = outcome(
                of: line, in: bytes, runner: runner, lineLimit: lineLimit, report: options.report)
            if !options.quiet {
                BatchResultLine.render(
                    outcome, line: line.number, id: id, report: options.report, fields: options.fields,
                    into: &stripe.output)
            }
            stripe.lines.append(
                LineResult(
                    verified: outcome.verified, code: outcome.error?.code.rawValue, kind: outcome.kindName,
                    retryable: outcome.error?.isRetryable ?? false))
        }
    }

    /// The outcome of one line (its bytes in `bytes`), in any shape ``InputShape/readLine(_:range:)`` accepts,
    /// with the line's `id` as written.
    ///
    /// A line longer than the tokens' limit is read only when it may hold a receipt (``mayHoldReceipt(_:)``). A bare
    /// receipt in plain ASCII goes to the verifier as the line's bytes, without the text round trip of a token.
    static func outcome(
        of line: InputLine, in bytes: [UInt8], runner: VerificationRunner, lineLimit: Int, report: BatchReport
    ) -> (SignedDataOutcome, JSONLiteral?) {
        let reporting = report == .full
        if line.overflowed || (line.length > lineLimit && !mayHoldReceipt(bytes[line.range])) {
            return (
                .unreadable(
                    .token,
                    "the line is \(line.length) bytes, over the line limit of \(lineLimit) bytes (a token is at most"
                        + " \(runner.maximumTokenBytes) bytes); skipped"), nil
            )
        }
        let trimmed = bytes[line.range].trimmingASCIIWhitespace()
        if trimmed.first == UInt8(ascii: "M"), ReceiptInputDescription.startsLikeReceipt(trimmed),
            InputShape.isPlainASCII(trimmed.span)
        {
            return (runner.run(receipt: Array(trimmed), reporting: reporting), nil)
        }
        switch InputShape.readLine(bytes, range: line.range) {
        case .failure(let failure):
            return (.refused(failure.receipt ? .receipt : .token, failure.error, reporting: reporting), failure.id)
        case .success(let shaped):
            switch shaped.content {
            case .receipt(let receipt): return (runner.run(receipt: receipt, reporting: reporting), shaped.id)
            case .token(let token): return (runner.run(token, reporting: reporting), shaped.id)
            }
        }
    }

    /// Whether a line longer than the tokens' line limit may hold a receipt, and so is read: it starts (after
    /// whitespace) as base64 of a SignedData does (`M`), as a JSON string of it (`"M`), or as an object (whose
    /// token ``InputShape`` then finds). Any other long line is refused as before, without being parsed.
    static func mayHoldReceipt(_ line: ArraySlice<UInt8>) -> Bool {
        var bytes = line.drop { $0 == 0x20 || (0x09...0x0D).contains($0) }.makeIterator()
        switch bytes.next() {
        case UInt8(ascii: "M"), UInt8(ascii: "{"): return true
        case UInt8(ascii: "\""): return bytes.next() == UInt8(ascii: "M")
        default: return false
        }
    }
}

/// A chunk being verified on every core, started on a global queue so that the reading thread goes on.
///
/// `@unchecked Sendable`: the verification reads the lines and their buffer and writes the results
/// before `group` is left; the results are read and the buffer taken only after `group.wait()` returned
/// (``wait()``, ``takeBytes()``), which orders the verification's accesses before those.
private final class ChunkInFlight: @unchecked Sendable {
    private let group = DispatchGroup()
    private let lines: [InputLine]
    private var bytes: [UInt8]
    private var results: [BatchCommand.Stripe] = []

    init(_ lines: [InputLine], bytes: [UInt8], runner: VerificationRunner, lineLimit: Int, options: VerifyOptions) {
        self.lines = lines
        self.bytes = bytes
        group.enter()
        DispatchQueue.global().async { [self] in
            results = BatchCommand.verify(
                self.lines, bytes: self.bytes, with: runner, lineLimit: lineLimit, options: options)
            group.leave()
        }
    }

    /// The chunk's line buffer, once verified, for the next chunk to reuse its memory.
    func takeBytes() -> [UInt8] {
        group.wait()
        defer { bytes = [] }
        return bytes
    }

    /// The chunk's stripes in input order, once verified.
    func wait() -> [BatchCommand.Stripe] {
        group.wait()
        return results
    }
}

/// Fixed slots that the iterations of ``BatchCommand/verify(_:bytes:with:lineLimit:options:)``
/// fill, one stripe per iteration.
///
/// `@unchecked Sendable`: each index is written by exactly one iteration, and read only after
/// `concurrentPerform` (or the serial loop) returned, which orders every write before the reads.
private final class ResultSlots: @unchecked Sendable {
    private let storage: UnsafeMutableBufferPointer<BatchCommand.Stripe?>

    init(count: Int) {
        storage = .allocate(capacity: count)
        storage.initialize(repeating: nil)
    }

    deinit {
        storage.deinitialize()
        storage.deallocate()
    }

    func store(_ value: BatchCommand.Stripe, at index: Int) {
        storage[index] = value
    }

    func values() -> [BatchCommand.Stripe] {
        storage.compactMap { $0 }  // every slot is filled before values() is called
    }
}
