import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// One request stays cheap whatever its bytes: each pathological shape, as large as the 64 KiB token
/// limit allows, is answered in milliseconds. The shapes whose header and payload are JSON are signed
/// with the generated leaf key, so the whole path runs (parse, header, chain, signature, payload,
/// claims). The bound is on this thread's CPU time, not on the wall clock, so that other processes of a
/// loaded machine do not count; it is generous (a debug build), guards against quadratic behaviour
/// (which takes seconds on 64 KiB), and is not a benchmark.
@Suite("Pathological inputs")
struct PathologicalInputTests {
    /// The bound on the CPU time of one verification of one 64 KiB token in a debug build, times
    /// `JWSVERIFY_TIME_SCALE` under a sanitizer (Scripts/sanitizers.sh sets 10).
    static let bound =
        Duration.milliseconds(200)
        * (Int(ProcessInfo.processInfo.environment["JWSVERIFY_TIME_SCALE"] ?? "") ?? 1)
    static let limit = CompactJWS.defaultMaximumBytes

    /// The CPU time the calling thread has used so far (`CLOCK_THREAD_CPUTIME_ID`): the time other threads
    /// and processes take from it on a loaded machine does not count. A synchronous verification runs on
    /// its caller's thread from start to end.
    static func threadCPUTime() -> Duration {
        var now = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now) == 0 else {
            Issue.record("clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed")
            return .zero
        }
        return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
    }

    struct Shape: Sendable, CustomTestStringConvertible {
        let name: String
        let token: String
        /// The codes the token may be answered with ("verified" for a verified token).
        let expected: Set<String>
        var testDescription: String { name }
    }

    static let header: String = {
        // TestVectors/generated always has this case; a missing one gives an empty header and the
        // size tests below fail with a clear expectation, not a trap.
        let token = FuzzVectors.generatedTokens.first { $0.id == "transaction-valid" }?.token ?? ""
        return String(token.prefix { $0 != "." })
    }()

    /// The largest payload JSON whose signed token stays within the limit.
    static let payloadBudget = (limit - header.utf8.count - 2 - 86) / 4 * 3

    static func signed(payload: String, header: String = header) -> String {
        let input = header + "." + Base64.encodeURL(Array(payload.utf8))
        let signature = (try? FuzzVectors.leafKey.signES256(Data(input.utf8))) ?? Data()
        return input + "." + Base64.encodeURL(signature)
    }

    static func signed(headerJSON: String, payload: String) -> String {
        signed(payload: payload, header: Base64.encodeURL(Array(headerJSON.utf8)))
    }

    /// A transaction payload (so that the claims pass) with `member` added, padded to `budget` bytes.
    static func payload(adding member: String) -> String {
        "{\"bundleId\":\"com.example.jwsverify\",\"environment\":\"Sandbox\",\"signedDate\":1773576000000,"
            + "\"transactionId\":\"1\",\(member)}"
    }

    /// Repeats `unit` to fill what is left of the payload budget around `prefix` and `suffix`.
    static func fill(_ prefix: String, _ unit: String, _ suffix: String, budget: Int = payloadBudget - 160) -> String {
        prefix
            + String(repeating: unit, count: max(0, (budget - prefix.utf8.count - suffix.utf8.count) / unit.utf8.count))
            + suffix
    }

    static let shapes: [Shape] = {
        // The payload object (1) and an array (2) around `nested` (30): 32 levels, the limit.
        let depth = JSONParser.defaultMaximumDepth - 2
        let nested = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        var shapes: [Shape] = [
            Shape(
                name: "deep nesting at the limit, repeated",
                token: signed(payload: payload(adding: fill("\"deep\":[", nested + ",", nested + "]"))),
                expected: ["verified"]),
            Shape(
                name: "nesting one past the limit",
                token: signed(payload: payload(adding: "\"deep\":[[" + nested + "]]")),
                expected: ["malformedToken"]),
            Shape(
                name: "10,000 tiny objects",
                token: signed(
                    payload: payload(
                        adding: "\"objects\":[" + Array(repeating: "{}", count: 10_000).joined(separator: ",") + "]")),
                expected: ["verified"]),
            Shape(
                name: "4,000 tiny members",
                token: signed(
                    payload: payload(
                        adding: (0..<4_000).map { "\"\(String($0, radix: 36))\":0" }.joined(separator: ","))),
                expected: ["verified"]),
            Shape(
                name: "1,800 duplicate-looking escaped keys",
                token: signed(
                    payload: payload(
                        adding: (0..<1_800).map { "\"\\u0061\\u0062\\u0063\(String($0, radix: 36))\":0" }.joined(
                            separator: ","))),
                expected: ["verified"]),
            Shape(
                name: "escaped keys, the last a duplicate of the first",
                token: signed(
                    payload: payload(
                        adding: (0..<3_000).map { "\"k\\u0061\(String($0, radix: 36))\":0" }.joined(separator: ",")
                            + ",\"ka0\":1")),
                expected: ["malformedToken"]),
            Shape(
                name: "huge string of escapes",
                token: signed(payload: payload(adding: fill("\"text\":\"", "\\u00e9\\n\\\"\\\\\\ud83d\\ude00", "\""))),
                expected: ["verified"]),
            Shape(
                name: "long integer (40,000 digits)",
                token: signed(payload: payload(adding: fill("\"n\":", "9", ""))),
                expected: ["malformedToken", "verified"]),
            Shape(
                name: "long fraction (40,000 digits)",
                token: signed(payload: payload(adding: fill("\"n\":0.", "1", ""))),
                expected: ["verified"]),
            Shape(
                name: "long exponent",
                token: signed(payload: payload(adding: fill("\"n\":1e-", "0", "1"))),
                expected: ["verified", "malformedToken"]),
            Shape(
                name: "many x5c entries",
                token: signed(
                    headerJSON: fill("{\"alg\":\"ES256\",\"x5c\":[", "\"AAAA\",", "\"AAAA\"]}"),
                    payload: payload(adding: "\"a\":1")),
                expected: ["invalidChainLength"]),
            Shape(
                name: "huge x5c entry",
                token: signed(
                    headerJSON: fill("{\"alg\":\"ES256\",\"x5c\":[\"MIIB", "AAAA", "\",\"AAAA\",\"AAAA\"]}"),
                    payload: payload(adding: "\"a\":1")),
                expected: ["invalidCertificate"]),
            Shape(name: "many dots", token: String(repeating: ".", count: limit), expected: ["malformedToken"]),
            Shape(name: "all padding", token: String(repeating: "=", count: limit), expected: ["malformedToken"]),
            Shape(
                name: "base64url of one long segment", token: String(repeating: "A", count: limit - 2) + "..",
                expected: ["malformedToken"]),
            Shape(
                name: "whitespace-filled JSON",
                token: signed(payload: payload(adding: fill("\"w\":", " ", "1"))),
                expected: ["verified"]),
            Shape(
                name: "one byte over the limit", token: String(repeating: "A", count: limit + 1),
                expected: ["malformedToken"]),
        ]
        shapes = shapes.map { shape in
            Shape(name: shape.name + " (\(shape.token.utf8.count) bytes)", token: shape.token, expected: shape.expected)
        }
        return shapes
    }()

    static let verifier: SignedDataVerifier = {
        do {
            return try SignedDataVerifier(
                rootCertificates: [FuzzVectors.rootDER], bundleId: GeneratedVectors.bundleId,
                appAppleId: GeneratedVectors.appAppleId, environment: .sandbox)
        } catch {
            fatalError("\(error)")
        }
    }()

    /// Input: one pathological token of at most 64 KiB (plus one a byte over). Expected: the expected
    /// verdict, by kind and unverified decoding alike, each within ``bound`` of this thread's CPU time
    /// (best of three runs, after one warm-up that fills the chain cache).
    @Test("a pathological 64 KiB token is answered in milliseconds", arguments: shapes)
    func answeredQuickly(_ shape: Shape) {
        #expect(shape.token.utf8.count <= Self.limit + 1, "\(shape.name) is larger than the limit")
        let verifier = Self.verifier
        _ = verifier.verifyAndDecode(shape.token, as: .transaction)
        var best = Duration.seconds(3600)
        var code = ""
        for _ in 0..<3 {
            let start = Self.threadCPUTime()
            let result = verifier.verifyAndDecode(shape.token, as: .transaction)
            _ = try? SignedDataVerifier.decodeUnverified(shape.token)
            best = min(best, Self.threadCPUTime() - start)
            code = result.error?.code.rawValue ?? "verified"
        }
        print("Pathological input \(shape.name): \(code) in \(best) of CPU time")
        #expect(shape.expected.contains(code), "\(shape.name): \(code), expected one of \(shape.expected.sorted())")
        #expect(best < Self.bound, "\(shape.name) took \(best) of CPU time, more than \(Self.bound)")
    }

    /// Input: payloads nested exactly to the limit and one deeper. Expected: the first parses, the
    /// second is rejected as too deep.
    @Test("JSON nested to the limit parses and one level deeper does not")
    func nestingLimit() {
        func nested(_ depth: Int) -> [UInt8] {
            Array(
                ("{\"a\":" + String(repeating: "[", count: depth - 1) + String(repeating: "]", count: depth - 1) + "}")
                    .utf8)
        }
        #expect((try? JSONParser.parseObject(nested(JSONParser.defaultMaximumDepth))) != nil)
        #expect(throws: JSONParser.Failure.self) {
            try JSONParser.parseObject(nested(JSONParser.defaultMaximumDepth + 1))
        }
        #expect(JSONParser.defaultMaximumDepth == 32)
        #expect(CompactJWS.defaultMaximumBytes == 65_536)
    }
}
