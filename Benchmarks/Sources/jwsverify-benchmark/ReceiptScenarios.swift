import Foundation
import JWSVerify

/// `--receipts`: StoreKit 1 app receipts through ``AppReceiptVerifier`` on the calling thread, beside
/// `openssl speed -seconds N rsa2048` run before and after in the same process's run (a receipt with a warm chain
/// costs one RSA-2048 verification, so OpenSSL's verify rate is its ceiling). Pin the process to one core
/// (`taskset -c 0`): the `openssl` child inherits the pinning.
///
/// Scenarios, each `--repeats` times for at least `--seconds` (or exactly `--iterations` receipts, without `openssl
/// speed`: for instruction counts, `Benchmarks/batch-line-cost.sh`), median reported (per wall-clock second and per
/// CPU-second of the thread):
/// - `receipt-warm`: the 2025 SHA-256 sandbox receipt (`04_*`, base64 text as a device sends it), chain cache warm;
/// - `receipt-cold`: the same with `chainCacheCapacity: 0` (OpenSSL parses the CMS, builds and verifies the chain);
/// - `receipt-decode-187`: the content of the 187-purchase receipt (`06_*`) decoded (`AppReceipt(content:)`);
/// - `receipt-verify-187`: that receipt verified in full, warm;
/// - `receipt-json`: the payload JSON of the 2025 receipt written (``AppReceipt/appendJSON(to:)``, what `batch` and
///   `receipt --json` print), into a buffer kept between receipts as `batch` keeps its output;
/// - `receipt-json-187`: the same for the 187-purchase receipt.
enum ReceiptScenarios {
    /// The scenarios in the order they run.
    static let names = [
        "receipt-warm", "receipt-cold", "receipt-decode-187", "receipt-verify-187", "receipt-json", "receipt-json-187",
    ]

    /// One scenario's figures.
    struct Figure {
        let name: String
        let perSecond: Double
        let perCPUSecond: Double
        let repeats: [Double]
    }

    /// Runs every receipt scenario and prints the table; returns the exit status (1 when a receipt did not verify
    /// or decode as expected).
    static func run(_ options: BenchmarkOptions) throws -> Int32 {
        let folder = URL(fileURLWithPath: options.receiptVectors ?? defaultVectors().path, isDirectory: true)
        func text(_ prefix: String) throws -> String {
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            guard let name = files.sorted().first(where: { $0.hasPrefix(prefix) }) else {
                throw BenchmarkError("no \(prefix)* receipt in \(folder.path)")
            }
            return try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        }
        let sandbox2025 = try text("04_")
        let large = try text("06_")
        guard
            let largeDER = Base64.decodeStandard(
                Array(large.utf8.filter { $0 != 0x0A && $0 != 0x0D && $0 != 0x20 })),
            let largeContent = ReceiptEnvelope.scan(largeDER)?.content
        else { throw BenchmarkError("the 187-purchase receipt does not scan") }

        let warm = try AppReceiptVerifier(bundleId: "dev.bonzer.weeka.app", environments: [.sandbox])
        let cold = try AppReceiptVerifier(
            bundleId: "dev.bonzer.weeka.app", environments: [.sandbox], chainCacheCapacity: 0)
        let largeVerifier = try AppReceiptVerifier(bundleId: "com.nutcall.alert", environments: [.sandbox])
        for (verifier, receipt) in [(warm, sandbox2025), (cold, sandbox2025), (largeVerifier, large)] {
            let result = verifier.verifyAndDecodeAppReceipt(receipt)
            guard result.isVerified else {
                throw BenchmarkError("a benchmark receipt does not verify: \(String(describing: result.error))")
            }
        }
        guard let largeReceipt = try? AppReceipt(content: largeContent), largeReceipt.inApp.count == 187 else {
            throw BenchmarkError("the 187-purchase receipt does not decode to 187 purchases")
        }
        guard let warmReceipt = warm.verifyAndDecodeAppReceipt(sandbox2025).payload else {
            throw BenchmarkError("the 2025 receipt does not verify")
        }
        var json: [UInt8] = []
        /// Writes `receipt`'s payload JSON after the previous one's is dropped; false when the writer refuses it.
        func writeJSON(_ receipt: AppReceipt) -> Bool {
            json.removeAll(keepingCapacity: true)
            return receipt.appendJSON(to: &json)
        }

        let seconds = max(1, Int(options.seconds.rounded(.up)))
        // With `--iterations` (a profiler's count), no child process: only the receipts run.
        let measuresOpenSSL = options.iterations == nil
        if measuresOpenSSL { progress("openssl speed -seconds \(seconds) rsa2048 (before)") }
        let before = measuresOpenSSL ? opensslRSA2048VerifyRate(seconds: seconds) : nil
        var failures = 0
        let bodies: [(String, () -> Bool)] = [
            ("receipt-warm", { warm.verifyAndDecodeAppReceipt(sandbox2025).isVerified }),
            ("receipt-cold", { cold.verifyAndDecodeAppReceipt(sandbox2025).isVerified }),
            ("receipt-decode-187", { (try? AppReceipt(content: largeContent))?.inApp.count == 187 }),
            ("receipt-verify-187", { largeVerifier.verifyAndDecodeAppReceipt(large).isVerified }),
            ("receipt-json", { writeJSON(warmReceipt) }),
            ("receipt-json-187", { writeJSON(largeReceipt) }),
        ]
        var figures: [Figure] = []
        for (name, body) in bodies where options.receiptScenarios.contains(name) {
            var rates: [Double] = []
            var cpuRates: [Double] = []
            for index in 0..<options.repeats {
                let startWall = nanoseconds()
                let startCPU = threadCPUNanoseconds()
                var count = 0
                let deadline = startWall + UInt64(options.seconds * 1e9)
                if let iterations = options.iterations {
                    for _ in 0..<iterations where !body() { failures += 1 }
                    count = iterations
                } else {
                    repeat {
                        for _ in 0..<16 where !body() { failures += 1 }
                        count += 16
                    } while nanoseconds() < deadline
                }
                let wall = Double(nanoseconds() - startWall) / 1e9
                let cpu = Double(threadCPUNanoseconds() - startCPU) / 1e9
                rates.append(Double(count) / max(wall, 1e-9))
                cpuRates.append(Double(count) / max(cpu, 1e-9))
                progress("  \(name) repeat \(index + 1)/\(options.repeats): \(Int((rates.last ?? 0).rounded()))/s")
            }
            figures.append(
                Figure(
                    name: name, perSecond: Benchmark.median(rates), perCPUSecond: Benchmark.median(cpuRates),
                    repeats: rates))
        }
        if measuresOpenSSL { progress("openssl speed -seconds \(seconds) rsa2048 (after)") }
        let after = measuresOpenSSL ? opensslRSA2048VerifyRate(seconds: seconds) : nil
        print(table(figures, before: before, after: after), terminator: "")
        if failures > 0 { progress("PROBLEM: \(failures) receipts did not verify or decode") }
        return failures == 0 ? 0 : 1
    }

    /// The table: each scenario's rates, and the warm rate against OpenSSL's RSA-2048 verify rate.
    static func table(_ figures: [Figure], before: Double?, after: Double?) -> String {
        func number(_ value: Double) -> String { ReportFormatter.format(value, digits: 0) }
        var text =
            "openssl speed rsa2048 verify/s: before \(before.map(number) ?? "?"), after \(after.map(number) ?? "?")\n"
        text += "scenario              per second   per CPU-second   repeats\n"
        for figure in figures {
            text +=
                figure.name.padding(toLength: 22, withPad: " ", startingAt: 0)
                + number(figure.perSecond).leftPadded(10) + number(figure.perCPUSecond).leftPadded(17) + "   "
                + figure.repeats.map(number).joined(separator: " ") + "\n"
        }
        // `openssl speed` divides by the user CPU time of its process (unless -elapsed): the comparable figure is
        // the receipts per CPU-second of the measuring thread, which a shared core does not lower.
        let rates = [before, after].compactMap { $0 }
        if !rates.isEmpty, let warm = figures.first(where: { $0.name == "receipt-warm" }) {
            let openssl = rates.reduce(0, +) / Double(rates.count)
            let ratio = warm.perCPUSecond / openssl
            text +=
                "receipt-warm per CPU-second / openssl rsa2048 verify/s: \(ReportFormatter.format(ratio, digits: 3))"
            text += " (target >= 0.5: \(ratio >= 0.5 ? "met" : "NOT met"))\n"
        }
        if let decode = figures.first(where: { $0.name == "receipt-decode-187" }) {
            text += "receipt-decode-187: \(number(decode.perCPUSecond)) per CPU-second, \(number(decode.perSecond))/s"
            text += " (target >= 2,000/s: \(decode.perCPUSecond >= 2_000 ? "met" : "NOT met"))\n"
        }
        return text
    }

    /// `openssl speed -seconds N rsa2048`'s verify/s (the last column of its `rsa 2048 bits` line), nil when
    /// `openssl` is missing or prints no such line.
    static func opensslRSA2048VerifyRate(seconds: Int) -> Double? {
        OutsideFigures.opensslSpeedColumns(seconds: seconds, algorithm: "rsa2048") { $0.hasPrefix("rsa 2048 bits") }?
            .last.flatMap { Double($0) }
    }

    /// `TestVectors/receipts` above this source file.
    static func defaultVectors() -> URL { OutsideFigures.testVector("receipts") }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
