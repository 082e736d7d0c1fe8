import Dispatch
import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// One verifier, with caches small enough to evict all the time, hammered from many threads with
/// good and bad tokens of every kind, answers each token exactly as a verifier used by one thread
/// does. Run under ThreadSanitizer: `swift test --sanitize=thread --filter ConcurrencyHammer`.
@Suite("Concurrency hammer")
struct ConcurrencyHammerTests {
    /// Input: the generated vectors of every kind (valid and one per failure), Apple's mock tokens,
    /// and valid tokens re-signed under eight distinct headers (so that eight chain-cache keys compete
    /// for two slots), verified 3,000 times from `DispatchQueue.concurrentPerform`, each by kind and by
    /// recognition, plus unverified decoding. Expected: every verdict (code, and payload when verified)
    /// equals the one-thread verdict; the cache evicted and hit.
    @Test("a shared verifier with a tiny cache gives every thread the one-thread verdict")
    func hammer() throws {
        let tokens = try Self.tokens()
        let make = { (capacity: Int) in
            try SignedDataVerifier(
                rootCertificates: [FuzzVectors.rootDER], bundleId: GeneratedVectors.bundleId,
                appAppleId: GeneratedVectors.appAppleId, environment: .sandbox, chainCacheCapacity: capacity)
        }
        let reference = try make(64)
        let expected = tokens.map { Outcome(reference.verifyAndDecode($0.token, as: $0.kind)) }
        #expect(expected.contains { $0.code == "verified" } && expected.contains { $0.code != "verified" })

        let shared = try make(2)
        let iterations = 3_000
        let mismatches = ReadWriteLocked<[String]>([])  // not `Mutex`: see ConcurrencyTests
        DispatchQueue.concurrentPerform(iterations: iterations) { iteration in
            let index = (iteration &* 7919) % tokens.count
            let (token, kind) = tokens[index]
            let observed = Outcome(shared.verifyAndDecode(token, as: iteration % 5 == 0 ? nil : kind))
            // Recognition may name another kind than the manifest's; compare by kind only then.
            let reference = iteration % 5 == 0 && PayloadKind.recognize(token: token) != kind ? nil : expected[index]
            if let reference, observed != reference {
                mismatches.write { $0.append("iteration \(iteration), token \(index): \(observed) != \(reference)") }
            }
            if iteration % 7 == 0 { _ = try? SignedDataVerifier.decodeUnverified(token) }
        }
        let found = mismatches.read { $0 }
        #expect(found.isEmpty, "\(found.count) verdicts differ from one thread's: \(found.prefix(5))")
        let statistics = shared.chainCacheStatistics
        print("Concurrency hammer: \(iterations) verifications of \(tokens.count) tokens, chain cache \(statistics)")
        #expect(statistics.count <= 2, "the cache grew past its capacity")
        #expect(statistics.hits > 0, "the cache never hit")
    }

    /// A verdict: the code (or "verified") and, when verified, the payload.
    struct Outcome: Equatable, CustomStringConvertible {
        let code: String
        let payload: DecodedPayload?

        init(_ result: VerificationResult<DecodedPayload>) {
            code = result.error?.code.rawValue ?? "verified"
            payload = result.payload
        }

        var description: String { code }
    }

    /// Every generated vector, Apple's mock tokens, and eight re-signed variants of each valid
    /// generated token whose headers differ (a `kid`), so that their chains are cached apart.
    static func tokens() throws -> [(token: String, kind: PayloadKind)] {
        var tokens: [(token: String, kind: PayloadKind)] = FuzzVectors.generatedTokens.compactMap { vector in
            PayloadKind(rawValue: vector.kind).map { (vector.token, $0) }
        }
        let valid = tokens.filter { token in
            FuzzVectors.generatedTokens.contains { $0.token == token.token && $0.id.hasSuffix("-valid") }
        }
        for variant in 0..<8 {
            for (token, kind) in valid {
                let parts = token.split(separator: ".").map(String.init)
                guard parts.count == 3, let headerJSON = Base64.decodeURL(parts[0]),
                    var header = try? JSONParser.parseObject(headerJSON)
                else { continue }
                header["kid"] = .string("hammer-\(variant)")
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                let input = Base64.encodeURL(try encoder.encode(JSONValue.object(header))) + "." + parts[1]
                let signature = try FuzzVectors.leafKey.signES256(Data(input.utf8))
                tokens.append((input + "." + Base64.encodeURL(signature), kind))
                // The same token with a broken signature.
                tokens.append((input + "." + Base64.encodeURL(Data(signature.reversed())), kind))
            }
        }
        for name in [
            "transactionInfo", "renewalInfo", "testNotification", "wrongBundleId", "missingX5CHeaderClaim",
            "legacyTransaction",
        ] {
            let text = String(decoding: FuzzVectors.data("apple-library/mock_signed_data/\(name)"), as: UTF8.self)
            tokens.append(
                (
                    text.trimmingCharacters(in: .whitespacesAndNewlines),
                    name == "renewalInfo" ? .renewalInfo : .transaction
                ))
        }
        tokens.append(("not a token", .transaction))
        tokens.append(("", .notification))
        return tokens
    }
}
