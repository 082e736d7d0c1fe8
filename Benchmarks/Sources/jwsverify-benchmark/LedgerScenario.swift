import Foundation
import JWSVerify
import JWSVerifyTesting
import PurchaseLedger

/// `--ledger-entitlements`: the entitlements of one account with 20 subscriptions and 1,000 transactions, answered
/// from an SQLite store on disk, `--iterations` times (default 2,000) on one thread: the median and the 99th
/// percentile of one answer (target: p99 at most 2 ms), and SQLite's plan of each query.
enum LedgerScenario {
    static let subscriptions = 20
    static let transactionsPerSubscription = 50
    static let account = "7f1c8a2e-1b3d-4c5e-9f60-718293a4b5c6"

    static func run(_ options: BenchmarkOptions) throws -> Int32 {
        let factory = try TokenFactory(options: options)
        let verifier = try BenchmarkConfiguration.makeVerifier(rootDER: factory.rootDER)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ledger-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteLedgerStore(path: directory.appendingPathComponent("ledger.sqlite").path)
        let ledger = Ledger(store: store, verifier: verifier)
        let start = BenchmarkConfiguration.signedDate.timeIntervalSince1970 * 1000
        var entries: [LedgerEntry] = []
        for subscription in 0..<subscriptions {
            let first = 900_000 + subscription * 1_000
            let original = String(first)
            for period in 0..<transactionsPerSubscription {
                let purchase = start + Double(period) * 30 * 86_400_000
                var payload = DefaultPayloads.transaction(factory.parameters, index: subscription * 1_000 + period)
                payload["originalTransactionId"] = .string(original)
                payload["transactionId"] = .string(String(first + period))
                payload["appAccountToken"] = .string(account)
                payload["purchaseDate"] = .integer(Int64(purchase))
                payload["expiresDate"] = .integer(Int64(purchase + 30 * 86_400_000))
                entries.append(
                    try LedgerEntry(verifying: factory.minter.sign(payload), with: verifier, source: .import))
            }
            var renewal = DefaultPayloads.renewal(factory.parameters, index: subscription)
            renewal["originalTransactionId"] = .string(original)
            renewal["appAccountToken"] = .string(account)
            entries.append(try LedgerEntry(verifying: factory.minter.sign(renewal), with: verifier, source: .import))
        }
        _ = try store.append(entries)
        let iterations = options.iterations ?? 2_000
        let time = Timestamp(millisecondsSince1970: start + 40 * 30 * 86_400_000)
        var samples: [UInt64] = []
        var answered = 0
        for round in -50..<iterations {
            let begin = nanoseconds()
            let document = try ledger.entitlements(for: .appAccountToken(account), at: time)
            let elapsed = nanoseconds() - begin
            answered = document.entitlements.count
            if round >= 0 { samples.append(elapsed) }
        }
        samples.sort()
        let median = Double(samples[samples.count / 2]) / 1e6
        let p99 = Double(samples[min(samples.count - 1, samples.count * 99 / 100)]) / 1e6
        print(
            "ledger entitlements: one account, \(subscriptions) subscriptions, \(entries.count - subscriptions)"
                + " transactions, SQLite on disk, \(iterations) answers\n"
                + "  entries per answer: \(answered)\n"
                + "  median:             \(ReportFormatter.format(median, digits: 3)) ms\n"
                + "  p99:                \(ReportFormatter.format(p99, digits: 3)) ms (target <= 2)\n"
                + "  query plans:\n" + (try store.entitlementQueryPlans()).map { "    \($0)" }.joined(separator: "\n"))
        return answered == subscriptions && p99 <= 2 ? 0 : 1
    }
}
