import Foundation

/// The command line of `jwsverify-benchmark`.
struct BenchmarkOptions: Sendable {
    /// Scenarios to run, in order.
    var scenarios: [ScenarioName] = ScenarioName.allCases
    /// Thread counts to measure each scenario with (one shared verifier, each thread its own slice).
    var threads: [Int] = BenchmarkOptions.defaultThreads
    /// Timed repeats per scenario and thread count; the reported rate is their median.
    var repeats = 5
    /// Least duration of one repeat, in seconds.
    var seconds = 2.0
    /// When set, each repeat verifies exactly this many tokens per thread instead of running for `seconds`.
    var iterations: Int?
    /// Size of the warm set.
    var warmTokens = 10_000
    /// Distinct leaves of the new-leaf set.
    var leaves = 2_000
    /// Tokens signed by each leaf of the chain-groups set.
    var tokensPerChain = 10
    /// Seed of the test PKI and of every payload.
    var seed: UInt64 = 20_260_101
    /// Machine-readable results.
    var jsonPath: String?
    /// Directory for the exported token sets, root and configuration.
    var exportDirectory: String?
    /// Run every scenario in this process instead of one child process per scenario.
    var inProcess = false
    /// Internal: this process is a child that runs one scenario and writes its result here.
    var childResultPath: String?
    /// Measure the sets in this directory (written by `--export-ndjson`) instead of minting.
    var setsDirectory: String?
    /// Only export (with `--export-ndjson`), do not measure.
    var exportOnly = false
    /// Smaller sets and shorter repeats, for a quick look.
    var quick = false
    /// Measure app receipts (``ReceiptScenarios``) instead of tokens.
    var receipts = false
    /// The folder of the receipt vectors (default: `TestVectors/receipts` above the benchmark's source).
    var receiptVectors: String?
    /// The receipt scenarios to run (default: all of ``ReceiptScenarios/names``).
    var receiptScenarios: [String] = ReceiptScenarios.names
    /// Measure the answer to a Retention Messaging realtime request (``RealtimeScenario``) instead of tokens.
    var realtime = false
    /// Measure a verified 100-item history page against 100 warm tokens (``APIHistoryScenario``).
    var apiHistory = false
    /// `--ledger-entitlements`: ``LedgerScenario``.
    var ledgerEntitlements = false

    static var defaultThreads: [Int] {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        return cores > 1 ? [1, cores] : [1]
    }

    static let usage = """
        USAGE: jwsverify-benchmark [options]

        Mints App Store-shaped token sets with JWSVerifyTesting (fixed seed) and measures
        SignedDataVerifier: tokens/s (median of the repeats), p50/p99 latency, peak RSS and the
        ECDSA verifications and certificate parses per token.

        OPTIONS:
          --scenario LIST         Comma-separated scenarios (default: all):
                                  \(ScenarioName.allCases.map(\.rawValue).joined(separator: ","))
                                  (online-warm and online-offline mint their own set and start
                                  two `openssl ocsp` responders on 127.0.0.1; skipped without
                                  openssl; never exported)
          --threads LIST          Thread counts, e.g. 1,2 (default: 1 and all cores)
          --repeats N             Timed repeats per measurement (default 5)
          --seconds S             Least duration of one repeat (default 2)
          --iterations N          Instead of --seconds: tokens per thread per repeat (profiling;
                                  with --receipts, receipts per repeat and no openssl speed)
          --tokens N              Warm set size (default 10000)
          --leaves N              Distinct leaves of the new-leaf set (default 2000)
          --tokens-per-chain K    Tokens per leaf in the chain-groups set (default 10)
          --seed N                Seed of the PKI and payloads (default 20260101)
          --quick                 --repeats 3 --seconds 0.5, 2000 warm tokens, 300 leaves
          --json FILE             Write the results as JSON
          --export-ndjson DIR     Write the token sets (NDJSON, one token per line), root.der and
                                  config.json for peer comparisons
          --export-only           With --export-ndjson: export and exit without measuring
          --sets DIR              Measure the sets exported earlier to DIR instead of minting
          --in-process            Run all scenarios in this process (peak RSS is then cumulative)
          --receipts              Measure app receipts instead (one thread; pin it: taskset -c 0):
                                  \(ReceiptScenarios.names.joined(separator: ","))
                                  beside `openssl speed -seconds S rsa2048` run before and after
          --receipt-vectors DIR   The receipts' folder (default: TestVectors/receipts)
          --receipt-scenario LIST With --receipts: comma-separated receipt scenarios (default: all)
          --realtime              Measure one realtime request's answer instead (verify, choose, sign
                                  a PromotionalOfferV2 signature, encode; one thread; pin it:
                                  taskset -c 0): p50/p99 over --iterations answers (default 20000)
                                  beside `openssl speed -seconds S ecdsap256` run before and after
          --api-history           Measure verifying a 100-item Get Transaction History page against
                                  100 warm tokens, no HTTP (--iterations rounds, default 200)
          --ledger-entitlements   Measure one account's entitlements (20 subscriptions, 1,000
                                  transactions) from SQLite: median and p99 over --iterations
                                  answers (default 2000), and the queries' plans
          -h, --help              Show this help
        """

    enum ParseError: Error, CustomStringConvertible {
        case usage(String)
        var description: String {
            switch self {
            case .usage(let message): return message
            }
        }
    }

    /// Parses `arguments` (without the program name).
    static func parse(_ arguments: [String]) throws(ParseError) -> BenchmarkOptions {
        var options = BenchmarkOptions()
        var explicit: Set<String> = []
        var index = 0
        func value(_ name: String) throws(ParseError) -> String {
            index += 1
            guard index < arguments.count else { throw .usage("\(name) needs a value") }
            return arguments[index]
        }
        func integer(_ name: String, minimum: Int) throws(ParseError) -> Int {
            let text = try value(name)
            guard let number = Int(text), number >= minimum else {
                throw .usage("\(name) needs an integer of at least \(minimum), not '\(text)'")
            }
            return number
        }
        while index < arguments.count {
            let argument = arguments[index]
            if argument.hasPrefix("-") { explicit.insert(argument) }
            switch argument {
            case "--scenario", "--scenarios":
                var names: [ScenarioName] = []
                for part in try value(argument).split(separator: ",") {
                    let name = part.trimmingCharacters(in: .whitespaces)
                    if name == "all" {
                        names += ScenarioName.allCases
                        continue
                    }
                    guard let scenario = ScenarioName(rawValue: name) else {
                        throw .usage(
                            "unknown scenario '\(name)'; known: "
                                + ScenarioName.allCases.map(\.rawValue).joined(separator: ", ")
                        )
                    }
                    names.append(scenario)
                }
                guard !names.isEmpty else { throw .usage("--scenario needs at least one name") }
                options.scenarios = names
            case "--threads":
                var counts: [Int] = []
                for part in try value(argument).split(separator: ",") {
                    guard let count = Int(part.trimmingCharacters(in: .whitespaces)), count >= 1, count <= 512 else {
                        throw .usage("--threads needs thread counts from 1 to 512, like 1,2")
                    }
                    counts.append(count)
                }
                guard !counts.isEmpty else { throw .usage("--threads needs at least one count") }
                options.threads = counts
            case "--repeats": options.repeats = try integer(argument, minimum: 1)
            case "--seconds":
                let text = try value(argument)
                guard let seconds = Double(text), seconds >= 0, seconds.isFinite else {
                    throw .usage("--seconds needs a non-negative number, not '\(text)'")
                }
                options.seconds = seconds
            case "--iterations": options.iterations = try integer(argument, minimum: 1)
            case "--tokens": options.warmTokens = try integer(argument, minimum: 1)
            case "--leaves": options.leaves = try integer(argument, minimum: 1)
            case "--tokens-per-chain": options.tokensPerChain = try integer(argument, minimum: 1)
            case "--seed":
                let text = try value(argument)
                guard let seed = UInt64(text) else { throw .usage("--seed needs an unsigned integer, not '\(text)'") }
                options.seed = seed
            case "--json": options.jsonPath = try value(argument)
            case "--export-ndjson": options.exportDirectory = try value(argument)
            case "--export-only": options.exportOnly = true
            case "--sets": options.setsDirectory = try value(argument)
            case "--in-process": options.inProcess = true
            case "--child-result": options.childResultPath = try value(argument)
            case "--quick": options.quick = true
            case "--receipts": options.receipts = true
            case "--realtime": options.realtime = true
            case "--api-history": options.apiHistory = true
            case "--ledger-entitlements": options.ledgerEntitlements = true
            case "--receipt-vectors": options.receiptVectors = try value(argument)
            case "--receipt-scenario":
                let names = try value(argument).split(separator: ",").map(String.init)
                guard !names.isEmpty, names.allSatisfy(ReceiptScenarios.names.contains) else {
                    throw .usage(
                        "--receipt-scenario needs names from " + ReceiptScenarios.names.joined(separator: ", "))
                }
                options.receiptScenarios = names
            case "-h", "--help": throw .usage(usage)
            default: throw .usage("unknown argument '\(argument)'")
            }
            index += 1
        }
        if options.quick {
            if !explicit.contains("--repeats") { options.repeats = 3 }
            if !explicit.contains("--seconds") { options.seconds = 0.5 }
            if !explicit.contains("--tokens") { options.warmTokens = 2_000 }
            if !explicit.contains("--leaves") { options.leaves = 300 }
        }
        if options.exportOnly && options.exportDirectory == nil {
            throw .usage("--export-only needs --export-ndjson DIR")
        }
        return options
    }

    /// The arguments that make a child process mint and export the sets this process would measure.
    func mintArguments(exportingTo directory: String) -> [String] {
        [
            "--scenario", scenarios.map(\.rawValue).joined(separator: ","),
            "--tokens", String(warmTokens),
            "--leaves", String(leaves),
            "--tokens-per-chain", String(tokensPerChain),
            "--seed", String(seed),
            "--export-ndjson", directory,
            "--export-only",
        ]
    }

    /// The arguments that make a child process measure `scenario` exactly as this process would.
    /// `setsDirectory` is nil for a scenario that mints its own set.
    func childArguments(for scenario: ScenarioName, setsDirectory: String?, resultPath: String) -> [String] {
        var arguments = [
            "--scenario", scenario.rawValue,
            "--threads", threads.map(String.init).joined(separator: ","),
            "--repeats", String(repeats),
            "--seconds", String(seconds),
            "--tokens", String(warmTokens),
            "--leaves", String(leaves),
            "--tokens-per-chain", String(tokensPerChain),
            "--seed", String(seed),
            "--child-result", resultPath,
        ]
        if let setsDirectory { arguments += ["--sets", setsDirectory] }
        if let iterations { arguments += ["--iterations", String(iterations)] }
        return arguments
    }
}
