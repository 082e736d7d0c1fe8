import AppStoreServerAPI
import Foundation
import JWSVerify
import JWSVerifyTesting

/// `--api-history`: verifying one 100-item Get Transaction History page (``APIResponseVerifier``: parse the body,
/// decode the model, find the signed items in the response table, verify each, check the envelope) against
/// verifying the same 100 tokens one by one, both with a warm chain cache, no HTTP involved, on one task.
///
/// The two are measured in alternation (a page, then 100 tokens, `--iterations` times, default 200), so that both
/// see the same machine; the report gives the median time of each and their ratio (target: at most 1.2).
enum APIHistoryScenario {
    static let defaultIterations = 200
    static let pageSize = 100

    static func run(_ options: BenchmarkOptions) throws -> Int32 {
        let factory = try TokenFactory(options: options)
        let tokens = try factory.minter.mint(.transaction, parameters: factory.parameters, count: pageSize)
        let body = try JSONEncoder().encode(
            JSONValue.object([
                "revision": .string("r1"), "hasMore": .bool(false),
                "bundleId": .string(BenchmarkConfiguration.bundleId),
                "appAppleId": .integer(BenchmarkConfiguration.appAppleId),
                "environment": .string(BenchmarkConfiguration.environment),
                "signedTransactions": .array(tokens.map(JSONValue.string)),
            ]))
        let verifier = try BenchmarkConfiguration.makeVerifier(rootDER: factory.rootDER)
        let iterations = options.iterations ?? defaultIterations
        progress("a \(pageSize)-item history page of \(body.count) bytes, \(iterations) rounds")
        let result = runBlocking { () async -> (page: [UInt64], tokens: [UInt64], failures: Int) in
            let responses = APIResponseVerifier(verifier: verifier)
            var page: [UInt64] = []
            var single: [UInt64] = []
            var failures = 0
            for round in -10..<iterations {
                let pageStart = nanoseconds()
                let verified = try? await responses.verify(
                    body: body, as: HistoryResponse.self, kind: .transactionHistory)
                let pageTime = nanoseconds() - pageStart
                if verified?.allVerified != true || verified?.items.count != pageSize { failures += 1 }
                let tokensStart = nanoseconds()
                for token in tokens
                where await !verifier.verifyAndDecode(signedData: token, as: .transaction).isVerified {
                    failures += 1
                }
                let tokensTime = nanoseconds() - tokensStart
                if round >= 0 {
                    page.append(pageTime)
                    single.append(tokensTime)
                }
            }
            return (page, single, failures)
        }
        func median(_ values: [UInt64]) -> Double {
            let sorted = values.sorted()
            return sorted.isEmpty ? 0 : Double(sorted[sorted.count / 2])
        }
        let page = median(result.page) / 1e6
        let single = median(result.tokens) / 1e6
        let ratio = single > 0 ? page / single : 0
        print(
            "api history page (\(pageSize) transactions, warm chain cache, no HTTP), \(iterations) rounds\n"
                + "  verified page:      \(ReportFormatter.format(page, digits: 3)) ms (median)\n"
                + "  \(pageSize) warm tokens:    \(ReportFormatter.format(single, digits: 3)) ms (median)\n"
                + "  ratio page/tokens:  \(ReportFormatter.format(ratio, digits: 3)) (target <= 1.2)\n"
                + "  failures:           \(result.failures)")
        return result.failures == 0 ? 0 : 1
    }
}
