import Foundation
import JWSVerify

// jwsverify-benchmark: see BenchmarkOptions.usage and Docs/Performance.md.

let options: BenchmarkOptions
do {
    options = try BenchmarkOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    let text = "\(error)"
    if text == BenchmarkOptions.usage {
        print(text)
        exit(0)
    }
    FileHandle.standardError.write(
        Data(
            ("Error: \(text)\nUsage: jwsverify-benchmark [options]\n"
                + "  See 'jwsverify-benchmark --help' for more information.\n").utf8))
    exit(64)
}

do {
    if let resultPath = options.childResultPath {
        try Benchmark.runChild(options, resultPath: resultPath)
    } else {
        exit(try Benchmark.run(options))
    }
} catch {
    progress("Error: \(error)")
    exit(1)
}

enum Benchmark {
    /// Scenarios measured with their own counting pass limited to this many tokens.
    static let countingPassLimit = 1_000

    /// The parent: mint (or read) the sets, export them, measure each scenario in a child process
    /// (or in this one), print the table and write the JSON. Returns the exit status.
    ///
    /// With child processes, minting happens in a child of its own too: on Linux a child's ru_maxrss
    /// starts from the high-water mark of the process image it replaced, so the parent stays small.
    static func run(_ options: BenchmarkOptions) throws -> Int32 {
        if options.receipts { return try ReceiptScenarios.run(options) }
        if options.realtime { return try RealtimeScenario.run(options) }
        if options.apiHistory { return try APIHistoryScenario.run(options) }
        if options.ledgerEntitlements { return try LedgerScenario.run(options) }
        if options.setsDirectory != nil && options.exportDirectory != nil {
            throw BenchmarkError("--sets and --export-ndjson exclude each other")
        }
        if options.exportOnly, let export = options.exportDirectory {
            let (sets, root) = try mint(options)
            try SetFiles.write(sets, rootDER: root, seed: options.seed, to: URL(fileURLWithPath: export))
            let files = sets.map { $0.name + ".ndjson" }.joined(separator: ", ")
            progress("exported \(files), root.der, config.json to \(export)")
            return 0
        }
        var mintedSets: [String: TokenSet] = [:]
        var mintedRoot = Data()
        var setsDirectory = options.setsDirectory.map { URL(fileURLWithPath: $0) }
        var temporaryDirectory: URL?
        defer { if let temporaryDirectory { try? FileManager.default.removeItem(at: temporaryDirectory) } }
        // The online scenarios mint their own sets where they are measured.
        let needsSets = options.scenarios.contains { !$0.mintsOwnSet }
        if setsDirectory == nil && needsSets {
            if options.inProcess {
                let (sets, root) = try mint(options)
                for set in sets { mintedSets[set.name] = set }
                mintedRoot = root
                if let export = options.exportDirectory {
                    try SetFiles.write(sets, rootDER: root, seed: options.seed, to: URL(fileURLWithPath: export))
                }
            } else {
                let directory: URL
                if let export = options.exportDirectory {
                    directory = URL(fileURLWithPath: export)
                } else {
                    directory = FileManager.default.temporaryDirectory
                        .appendingPathComponent("jwsverify-benchmark-\(ProcessInfo.processInfo.processIdentifier)")
                    temporaryDirectory = directory
                }
                try runSelf(options.mintArguments(exportingTo: directory.path), what: "minting")
                setsDirectory = directory
            }
        }

        var results: [ScenarioResult] = []
        for scenario in options.scenarios {
            if scenario.mintsOwnSet && options.inProcess {
                results.append(try OnlineScenarios.measure(scenario, options: options))
            } else if options.inProcess {
                let set: TokenSet
                let root: Data
                if let minted = mintedSets[scenario.setName] {
                    (set, root) = (minted, mintedRoot)
                } else if let setsDirectory {
                    (set, root) = try SetFiles.read(scenario.setName, from: setsDirectory)
                } else {
                    throw BenchmarkError("no set for \(scenario.rawValue)")
                }
                results.append(try measure(scenario, set: set, rootDER: root, options: options))
            } else {
                results.append(try measureInChild(scenario, setsDirectory: setsDirectory, options: options))
            }
        }

        let report = BenchmarkReport(
            date: Date().formatted(.iso8601), cores: ProcessInfo.processInfo.activeProcessorCount,
            operatingSystem: ProcessInfo.processInfo.operatingSystemVersionString, repeats: options.repeats,
            secondsPerRepeat: options.seconds, iterations: options.iterations, seed: options.seed,
            isolation: options.inProcess
                ? "one process for all scenarios, cumulative" : "one child process per scenario",
            results: results)
        print(ReportFormatter.table(report), terminator: "")
        if let path = options.jsonPath {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try encoder.encode(report).write(to: URL(fileURLWithPath: path))
            progress("wrote \(path)")
        }
        return results.contains { !$0.problems.isEmpty } ? 1 : 0
    }

    /// A child: measure one scenario from the sets directory (or, for the online scenarios, from a
    /// set it mints itself) and write the result as JSON.
    static func runChild(_ options: BenchmarkOptions, resultPath: String) throws {
        guard options.scenarios.count == 1 else { throw BenchmarkError("a child needs exactly one --scenario") }
        let scenario = options.scenarios[0]
        let result: ScenarioResult
        if scenario.mintsOwnSet {
            result = try OnlineScenarios.measure(scenario, options: options)
        } else {
            guard let directory = options.setsDirectory else {
                throw BenchmarkError("a child measuring \(scenario.rawValue) needs --sets DIR")
            }
            let (set, root) = try SetFiles.read(scenario.setName, from: URL(fileURLWithPath: directory))
            result = try measure(scenario, set: set, rootDER: root, options: options)
        }
        try JSONEncoder().encode(result).write(to: URL(fileURLWithPath: resultPath))
    }

    static func measureInChild(
        _ scenario: ScenarioName, setsDirectory: URL?, options: BenchmarkOptions
    ) throws -> ScenarioResult {
        let resultURL = FileManager.default.temporaryDirectory
            .appendingPathComponent(
                "jwsverify-benchmark-\(ProcessInfo.processInfo.processIdentifier)-\(scenario.rawValue).json")
        defer { try? FileManager.default.removeItem(at: resultURL) }
        try runSelf(
            options.childArguments(for: scenario, setsDirectory: setsDirectory?.path, resultPath: resultURL.path),
            what: "measuring \(scenario.rawValue)")
        return try JSONDecoder().decode(ScenarioResult.self, from: Data(contentsOf: resultURL))
    }

    /// Runs this executable with `arguments` and waits for it.
    static func runSelf(_ arguments: [String], what: String) throws {
        let process = Process()
        process.executableURL = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchmarkError("the child process \(what) exited with status \(process.terminationStatus)")
        }
    }

    /// Mints the sets of the selected scenarios, in scenario order (not those that mint their own).
    static func mint(_ options: BenchmarkOptions) throws -> (sets: [TokenSet], rootDER: Data) {
        let factory = try TokenFactory(options: options)
        var sets: [TokenSet] = []
        for scenario in unique(options.scenarios.filter { !$0.mintsOwnSet }, by: \.setName) {
            let start = nanoseconds()
            let set = try factory.set(for: scenario)
            progress(
                "minted \(set.name): \(set.tokens.count) tokens,"
                    + " \(set.totalBytes / max(set.tokens.count, 1)) bytes each,"
                    + " \(ReportFormatter.format(Double(nanoseconds() - start) / 1e9, digits: 1)) s")
            sets.append(set)
        }
        return (sets, factory.rootDER)
    }

    /// Measures `scenario` in this process.
    static func measure(
        _ scenario: ScenarioName, set: TokenSet, rootDER: Data, options: BenchmarkOptions
    ) throws -> ScenarioResult {
        let rssBefore = peakRSSBytes()
        let verifier = try BenchmarkConfiguration.makeVerifier(
            rootDER: rootDER, chainCacheCapacity: scenario.chainCacheCapacity,
            enableOnlineChecks: scenario.enablesOnlineChecks)
        let runner = ScenarioRunner(scenario: scenario, set: set, verifier: verifier)
        var problems: [String] = []

        let beforePriming = OperationCount.now()
        let counting = runner.countingPass(limit: countingPassLimit)
        problems += counting.unexpected
        // Only the primer may ask OCSP responders: online, it asks about the leaf and the intermediate
        // once and fills the revocation cache; after it, no scenario may send a request.
        let primerRequests = (OperationCount.now() - beforePriming).ocspRequests - counting.counts.ocspRequests
        if scenario.enablesOnlineChecks && set.primer != nil && primerRequests != 2 {
            problems.append("the primer sent \(primerRequests) OCSP requests; expected 2 (leaf and intermediate)")
        }
        if counting.counts.ocspRequests != 0 {
            problems.append("\(counting.counts.ocspRequests) OCSP requests after priming; expected 0")
        }
        var certificateWork = counting.counts.certificateSignatureVerifications
        if scenario == .reject && counting.counts.es256Verifications != 0 {
            problems.append("\(counting.counts.es256Verifications) ES256 verifications while rejecting; expected 0")
        }
        let countingOps = counting.counts.perToken(counting.tokens)
        progress(
            "\(scenario.rawValue): \(set.tokens.count) tokens; per token: \(fmt(countingOps.es256Verifications)) ES256,"
                + " \(fmt(countingOps.certificateSignatureVerifications)) certificate signatures,"
                + " \(fmt(countingOps.certificateParses)) certificate parses"
                + (scenario.enablesOnlineChecks ? ", \(fmt(countingOps.ocspRequests)) OCSP requests" : ""))

        var measurements: [ThreadMeasurement] = []
        for threads in options.threads {
            let loadBefore = loadAverage()
            let before = OperationCount.now()
            var rates: [Double] = []
            var cpuRates: [Double] = []
            var cpuSecondsTotal = 0.0
            var wallSecondsTotal = 0.0
            let ticksBefore = machineCPUTicks()
            var histogram = LatencyHistogram()
            var tokens = 0
            var unexpected = 0
            for repeatIndex in 0..<options.repeats {
                let (runs, start) = runner.timedRepeat(
                    threads: threads, seconds: options.seconds, iterations: options.iterations)
                let end = runs.map(\.end).max() ?? start
                let count = runs.reduce(0) { $0 + $1.tokens }
                let rate = Double(count) / max(Double(end - start) / 1e9, 1e-9)
                rates.append(rate)
                let cpuSeconds = Double(runs.reduce(0) { $0 + $1.cpuNanoseconds }) / 1e9
                let cpuRate = Double(count) / max(cpuSeconds, 1e-9)
                cpuSecondsTotal += cpuSeconds
                wallSecondsTotal += Double(end - start) / 1e9
                cpuRates.append(cpuRate)
                tokens += count
                unexpected += runs.reduce(0) { $0 + $1.unexpected }
                for run in runs { histogram.merge(run.histogram) }
                progress(
                    "  \(scenario.rawValue), \(threads) thread\(threads == 1 ? "" : "s"),"
                        + " repeat \(repeatIndex + 1)/\(options.repeats): \(Int(rate.rounded())) tokens/s,"
                        + " \(Int(cpuRate.rounded())) per CPU-second")
            }
            let counts = OperationCount.now() - before
            var machineCoresBusy: Double?
            if let ticksBefore, let ticksAfter = machineCPUTicks(), ticksAfter.total > ticksBefore.total {
                machineCoresBusy =
                    Double(ticksAfter.busy - ticksBefore.busy) / Double(ticksAfter.total - ticksBefore.total)
                    * Double(ProcessInfo.processInfo.activeProcessorCount)
            }
            certificateWork += counts.certificateSignatureVerifications
            if unexpected > 0 {
                problems.append("\(unexpected) tokens had an unexpected outcome with \(threads) threads")
            }
            if counts.ocspRequests != 0 {
                problems.append(
                    "\(counts.ocspRequests) OCSP requests during the timed repeats with \(threads) threads;"
                        + " expected 0 (a warm revocation cache sends none)")
            }
            measurements.append(
                ThreadMeasurement(
                    threads: threads, tokensPerSecond: median(rates), repeatTokensPerSecond: rates,
                    tokensPerCPUSecond: median(cpuRates),
                    coresUsed: cpuSecondsTotal / max(wallSecondsTotal, 1e-9), machineCoresBusy: machineCoresBusy,
                    p50Microseconds: histogram.percentile(0.50) / 1000,
                    p99Microseconds: histogram.percentile(0.99) / 1000,
                    tokens: tokens, operationsPerToken: counts.perToken(tokens), loadAverageBefore: loadBefore,
                    loadAverageAfter: loadAverage()))
        }
        if scenario.forbidsCertificateWork && certificateWork != 0 {
            problems.append("\(certificateWork) certificate signature verifications while rejecting; expected 0")
        }
        for problem in problems { progress("PROBLEM \(scenario.rawValue): \(problem)") }
        return ScenarioResult(
            scenario: scenario.rawValue, summary: scenario.summary, onlineChecks: scenario.enablesOnlineChecks,
            tokens: set.tokens.count,
            meanTokenBytes: set.totalBytes / max(set.tokens.count, 1), operationsPerToken: countingOps,
            measurements: measurements, peakRSSBytes: peakRSSBytes(), peakRSSBeforeVerifyingBytes: rssBefore,
            rejectCategoryMicroseconds: set.categories == nil
                ? nil : counting.categoryNanoseconds.mapValues { $0 / 1000 },
            certificateSignatureVerificationsDuringRun: scenario.forbidsCertificateWork ? certificateWork : nil,
            cachedChains: verifier.chainCacheStatistics.count,
            leafKeysWithFixedBaseTable: verifier.cachedLeafKeysWithFixedBaseTable,
            cachedIntermediates: verifier.intermediateCacheStatistics.count,
            intermediateKeysWithFixedBaseTable: verifier.cachedIntermediateKeysWithFixedBaseTable, problems: problems)
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    static func fmt(_ value: Double) -> String { ReportFormatter.format(value, digits: 3) }

    static func unique<T: Hashable>(_ values: [T]) -> [T] {
        var seen: Set<T> = []
        return values.filter { seen.insert($0).inserted }
    }

    static func unique<T, K: Hashable>(_ values: [T], by key: KeyPath<T, K>) -> [T] {
        var seen: Set<K> = []
        return values.filter { seen.insert($0[keyPath: key]).inserted }
    }
}
