import Foundation

/// Operations per token, counted by the library itself (`OperationCounters`).
struct OperationsPerToken: Codable, Sendable {
    /// ES256 (P-256) verifications of token signatures.
    var es256Verifications: Double
    /// Certificate signature verifications (P-384 for the App Store chain).
    var certificateSignatureVerifications: Double
    /// DER certificates parsed.
    var certificateParses: Double
    /// OCSP requests sent by online checks (0 with a warm revocation cache).
    var ocspRequests: Double
}

/// One scenario measured with one thread count.
struct ThreadMeasurement: Codable, Sendable {
    var threads: Int
    /// Median over the repeats.
    var tokensPerSecond: Double
    /// Every repeat's rate, in order.
    var repeatTokensPerSecond: [Double]
    /// Median over the repeats of tokens per CPU-second of the verifying threads (user + system
    /// time): what `openssl speed` reports too, and far less sensitive to other load than wall time.
    var tokensPerCPUSecond: Double
    /// Cores the verifying threads kept busy on average (their CPU time over the wall time).
    var coresUsed: Double
    /// Cores busy machine-wide on average, ours included (Linux `/proc/stat`, steal time counted as
    /// busy); nil where unknown. Busy minus used is what other processes took.
    var machineCoresBusy: Double?
    var p50Microseconds: Double
    var p99Microseconds: Double
    /// Tokens verified in all repeats.
    var tokens: Int
    /// Counted over all repeats of this measurement.
    var operationsPerToken: OperationsPerToken
    /// 1-minute load average before and after.
    var loadAverageBefore: Double
    var loadAverageAfter: Double
}

/// One scenario.
struct ScenarioResult: Codable, Sendable {
    var scenario: String
    var summary: String
    /// Whether the verifier ran online checks (OCSP).
    var onlineChecks: Bool
    /// Why the scenario was not measured (then there are no measurements), or nil.
    var skipped: String?
    var tokens: Int
    var meanTokenBytes: Int
    /// Counted on one thread over one pass over (up to 1,000 tokens of) the set, after the primer.
    var operationsPerToken: OperationsPerToken
    var measurements: [ThreadMeasurement]
    /// getrusage ru_maxrss at the end of the scenario: the whole process, token set included; with
    /// one child process per scenario (the default) it is this scenario's alone.
    var peakRSSBytes: Int
    /// ru_maxrss after loading the set, before verifying anything.
    var peakRSSBeforeVerifyingBytes: Int
    /// Reject set only: mean single-thread latency per category, in microseconds.
    var rejectCategoryMicroseconds: [String: Double]?
    /// Reject set only: certificate signature verifications during the whole run (must be 0).
    var certificateSignatureVerificationsDuringRun: Int?
    /// Cached chains, and those whose leaf key verifies with its own fixed-base table (a key gets one
    /// after `PublicKey.fixedBaseThreshold` valid signatures), at the end of the scenario.
    var cachedChains: Int = 0
    var leafKeysWithFixedBaseTable: Int = 0
    /// Cached intermediates, and those whose key checks new leaves with its fixed-base table (one
    /// gets it after `PublicKey.issuerTableThreshold` valid leaf signatures).
    var cachedIntermediates: Int = 0
    var intermediateKeysWithFixedBaseTable: Int = 0
    /// Failed checks (unexpected outcomes, forbidden work); empty when all is well.
    var problems: [String]

    /// A scenario that could not run here, and why (not a failure).
    static func skipped(_ scenario: ScenarioName, reason: String) -> ScenarioResult {
        let none = OperationsPerToken(
            es256Verifications: 0, certificateSignatureVerifications: 0, certificateParses: 0, ocspRequests: 0)
        return ScenarioResult(
            scenario: scenario.rawValue, summary: scenario.summary, onlineChecks: scenario.enablesOnlineChecks,
            skipped: reason, tokens: 0, meanTokenBytes: 0, operationsPerToken: none, measurements: [],
            peakRSSBytes: 0, peakRSSBeforeVerifyingBytes: 0, problems: [])
    }
}

/// The whole run.
struct BenchmarkReport: Codable, Sendable {
    var tool = "jwsverify-benchmark"
    var date: String
    var cores: Int
    var operatingSystem: String
    var repeats: Int
    var secondsPerRepeat: Double
    var iterations: Int?
    var seed: UInt64
    var isolation: String
    var bundleId = BenchmarkConfiguration.bundleId
    var environment = BenchmarkConfiguration.environment
    var results: [ScenarioResult]
}

enum ReportFormatter {
    static func table(_ report: BenchmarkReport) -> String {
        // The OCSP column only when a scenario ran online checks.
        let showsOCSP = report.results.contains { $0.onlineChecks }
        var header = [
            "scenario", "thr", "tokens/s", "tok/CPU-s", "cores", "p50 µs", "p99 µs", "P-256/tok", "certsig/tok",
            "parses/tok",
        ]
        if showsOCSP { header.append("OCSP/tok") }
        header += ["RSS MiB (pre)", "load"]
        var rows: [[String]] = []
        for result in report.results {
            for measurement in result.measurements {
                let ops = measurement.operationsPerToken
                var row = [
                    result.scenario, String(measurement.threads), format(measurement.tokensPerSecond, digits: 0),
                    format(measurement.tokensPerCPUSecond, digits: 0),
                    format(measurement.coresUsed, digits: 2) + "/"
                        + (measurement.machineCoresBusy.map { format($0, digits: 2) } ?? "?"),
                    format(measurement.p50Microseconds, digits: 1), format(measurement.p99Microseconds, digits: 1),
                    format(ops.es256Verifications, digits: 3), format(ops.certificateSignatureVerifications, digits: 3),
                    format(ops.certificateParses, digits: 3),
                ]
                if showsOCSP { row.append(format(ops.ocspRequests, digits: 3)) }
                row += [
                    format(Double(result.peakRSSBytes) / 1_048_576, digits: 1) + " ("
                        + format(Double(result.peakRSSBeforeVerifyingBytes) / 1_048_576, digits: 1) + ")",
                    format(measurement.loadAverageBefore, digits: 2),
                ]
                rows.append(row)
            }
        }
        var widths = header.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                let pad = String(repeating: " ", count: widths[index] - cell.count)
                return index == 0 ? cell + pad : pad + cell
            }.joined(separator: "  ")
        }
        var text = line(header) + "\n" + line(widths.map { String(repeating: "-", count: $0) }) + "\n"
        for row in rows { text += line(row) + "\n" }
        text +=
            "\n\(report.cores) cores; tokens/s (wall clock) and tok/CPU-s (per CPU-second of the verifying"
            + " threads): median of \(report.repeats) repeats of "
            + (report.iterations.map { "\($0) tokens/thread" } ?? "≥ \(format(report.secondsPerRepeat, digits: 1)) s")
            + "; cores: used by the verifying threads / busy machine-wide (the rest is other load)"
            + "; ops/token counted by the library over the timed repeats"
            + (showsOCSP ? " (OCSP/tok: requests sent by online checks)" : "")
            + "; RSS: ru_maxrss (\(report.isolation)),"
            + " at the end and (pre) after loading the set, before verifying;"
            + " load: 1-min load average before.\n"
        for result in report.results {
            if let reason = result.skipped { text += "\(result.scenario) skipped: \(reason)\n" }
            if let categories = result.rejectCategoryMicroseconds {
                text +=
                    "\(result.scenario) categories, mean µs/token on 1 thread: "
                    + categories.sorted { $0.key < $1.key }.map { "\($0.key) \(format($0.value, digits: 2))" }
                    .joined(separator: ", ")
                    + "; certificate signature verifications during the run: "
                    + "\(result.certificateSignatureVerificationsDuringRun ?? -1)\n"
            }
            if result.cachedChains > 0 {
                text +=
                    "\(result.scenario): \(result.leafKeysWithFixedBaseTable) of \(result.cachedChains) cached chains'"
                    + " leaf keys verify with their own fixed-base table\n"
            }
            if result.cachedIntermediates > 0 {
                text +=
                    "\(result.scenario): \(result.intermediateKeysWithFixedBaseTable) of \(result.cachedIntermediates)"
                    + " cached intermediates check new leaves with their key's fixed-base table\n"
            }
            for problem in result.problems { text += "PROBLEM \(result.scenario): \(problem)\n" }
        }
        return text
    }

    static func format(_ value: Double, digits: Int) -> String {
        String(format: "%.\(digits)f", value)
    }
}

/// Peak resident set size of this process (getrusage ru_maxrss), in bytes.
func peakRSSBytes() -> Int {
    var usage = rusage()
    #if canImport(Darwin)
        guard getrusage(RUSAGE_SELF, &usage) == 0 else { return 0 }
        return Int(usage.ru_maxrss)  // bytes on Darwin
    #else
        guard getrusage(Int32(RUSAGE_SELF.rawValue), &usage) == 0 else { return 0 }
        return Int(usage.ru_maxrss) * 1024  // KiB on Linux
    #endif
}

/// Busy and total CPU ticks of the whole machine (Linux `/proc/stat`; steal time counts as busy),
/// or nil where unavailable.
func machineCPUTicks() -> (busy: UInt64, total: UInt64)? {
    guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
        let line = text.split(separator: "\n").first, line.hasPrefix("cpu ")
    else { return nil }
    // user nice system idle iowait irq softirq steal
    let fields = line.split(separator: " ").dropFirst().prefix(8).compactMap { UInt64($0) }
    guard fields.count >= 5 else { return nil }
    let total = fields.reduce(0, +)
    return (total - fields[3] - fields[4], total)
}

/// The 1-minute load average.
func loadAverage() -> Double {
    var loads = [Double](repeating: 0, count: 3)
    return getloadavg(&loads, 3) >= 1 ? loads[0] : 0
}

/// Writes a line to standard error.
func progress(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
