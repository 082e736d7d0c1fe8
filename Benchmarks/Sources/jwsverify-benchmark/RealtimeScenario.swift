import Foundation
import JWSSigning
import JWSVerify
import JWSVerifyTesting

/// `--realtime`: one Retention Messaging realtime request answered as Docs/Retention-messaging.md answers it, on
/// the calling thread, beside `openssl speed -seconds N ecdsap256` (sign/s and verify/s) run before and after in
/// the same run. Pin the process to one core (`taskset -c 0`): the `openssl` child inherits the pinning.
///
/// One answer is: `verifyAndDecodeRealtimeRequest` of the request (minted by the test PKI of `--seed`; the chain
/// cache warm, as for every request after a server's first), a choice (the offer for the request's product), a
/// PromotionalOfferV2 signature (`PromotionalOfferV2SignatureCreator`, Apple's stand-in In-App Purchase key of
/// TestVectors/apple-library/certs), and the `RealtimeResponseBody` encoded with `jsonData()`. The synchronous
/// verification is measured: the asynchronous method runs the same pipeline and differs only in where it runs.
/// After 1,000 answers of warm-up, `--iterations` answers (default 20,000) are timed one by one; the report gives
/// p50 and p99 latency and the answers per CPU-second of the thread.
enum RealtimeScenario {
    /// Answers timed when `--iterations` is not given.
    static let defaultIterations = 20_000
    /// Answers run, untimed, before the timed ones.
    static let warmUp = 1_000

    /// Runs the scenario and prints the table; returns the exit status (1 when an answer failed).
    static func run(_ options: BenchmarkOptions) throws -> Int32 {
        let factory = try TokenFactory(options: options)
        let request = try factory.minter.sign(
            factory.minter.defaultPayload(.realtime, parameters: factory.parameters, index: 0))
        let verifier = try BenchmarkConfiguration.makeVerifier(rootDER: factory.rootDER)
        let key = try ES256SigningKey(
            pemRepresentation: String(contentsOf: signingKeyFile(), encoding: .utf8))
        let offers = PromotionalOfferV2SignatureCreator(
            signingKey: key, keyId: "BENCHKEY01", issuerId: "57246542-96fe-1a63-e053-0824d011072a",
            bundleId: BenchmarkConfiguration.bundleId)
        let message = UUID(uuidString: "A1B2C3D4-E5F6-7890-A1B2-C3D4E5F67890") ?? UUID()

        /// One answer: the body's bytes, or nil when a step failed.
        func answer() -> Data? {
            guard case .verified(let verified) = verifier.verifyAndDecodeRealtimeRequest(request),
                let productId = verified.payload.productId
            else { return nil }
            let offerIdentifier = "win-back-1"
            guard
                let signature = try? offers.createSignature(
                    productId: productId, offerIdentifier: offerIdentifier,
                    transactionId: verified.payload.originalTransactionId)
            else { return nil }
            let body = RealtimeResponseBody(
                promotionalOffer: PromotionalOffer(messageIdentifier: message, promotionalOfferSignatureV2: signature))
            return try? body.jsonData()
        }
        guard let sample = answer() else { throw BenchmarkError("the realtime request does not verify or sign") }
        progress("one answer: \(sample.count) bytes of JSON")

        let seconds = max(1, Int(options.seconds.rounded(.up)))
        progress("openssl speed -seconds \(seconds) ecdsap256 (before)")
        let before = opensslECDSAP256Rates(seconds: seconds)
        var failures = 0
        for _ in 0..<warmUp where answer() == nil { failures += 1 }
        let iterations = options.iterations ?? defaultIterations
        var histogram = LatencyHistogram()
        let startWall = nanoseconds()
        let startCPU = threadCPUNanoseconds()
        for _ in 0..<iterations {
            let start = nanoseconds()
            if answer() == nil { failures += 1 }
            histogram.record(nanoseconds() - start)
        }
        let wall = Double(nanoseconds() - startWall) / 1e9
        let cpu = Double(threadCPUNanoseconds() - startCPU) / 1e9
        progress("openssl speed -seconds \(seconds) ecdsap256 (after)")
        let after = opensslECDSAP256Rates(seconds: seconds)

        func number(_ value: Double, _ digits: Int = 0) -> String { ReportFormatter.format(value, digits: digits) }
        func rates(_ value: (sign: Double, verify: Double)?) -> String {
            value.map { "sign/s \(number($0.sign)), verify/s \(number($0.verify))" } ?? "?"
        }
        var text = "realtime answer (verify + choose + sign PromotionalOfferV2 + encode), 1 thread, "
        text += "\(iterations) answers after \(warmUp) of warm-up\n"
        let p50 = number(histogram.percentile(0.50) / 1000, 1)
        let p99 = number(histogram.percentile(0.99) / 1000, 1)
        text += "  p50 \(p50) us, p99 \(p99) us\n"
        text += "  \(number(Double(iterations) / max(wall, 1e-9))) answers/s, "
        text += "\(number(Double(iterations) / max(cpu, 1e-9))) per CPU-second\n"
        text += "openssl speed ecdsap256 before: \(rates(before))\n"
        text += "openssl speed ecdsap256 after:  \(rates(after))\n"
        text += "load average (1 min) at the end: \(number(loadAverage(), 2))\n"
        print(text, terminator: "")
        if failures > 0 { progress("PROBLEM: \(failures) answers failed") }
        return failures == 0 ? 0 : 1
    }

    /// `openssl speed -seconds N ecdsap256`'s sign/s and verify/s (the last two columns of its `256 bits ecdsa`
    /// line), nil when `openssl` is missing or prints no such line.
    static func opensslECDSAP256Rates(seconds: Int) -> (sign: Double, verify: Double)? {
        guard
            let columns = OutsideFigures.opensslSpeedColumns(
                seconds: seconds, algorithm: "ecdsap256", isResult: { $0.contains("bits ecdsa") }),
            columns.count >= 2, let sign = Double(columns[columns.count - 2]),
            let verify = Double(columns[columns.count - 1])
        else { return nil }
        return (sign, verify)
    }

    /// Apple's stand-in In-App Purchase key, `TestVectors/apple-library/certs/testSigningKey.p8` above this file.
    static func signingKeyFile() -> URL { OutsideFigures.testVector("apple-library/certs/testSigningKey.p8") }
}
