import Foundation
import Testing

@testable import JWSVerify

/// x509-limbo's path-validation cases (C2SP, `TestVectors/x509-limbo/`) through the chain checks:
/// every case the chain validator can take (a leaf, exactly one intermediate, the trusted roots) goes
/// through the full path (a validator with no cache: `X509_verify_cert` on the whole chain), and,
/// wherever a warm verifier could hold the case's intermediate, through the fast path too (the
/// intermediate cache and the leaf check). The two must agree with each other and with OpenSSL, and
/// with the suite's expected result except where OpenSSL 3.0 itself decides otherwise (listed below).
@Suite("x509-limbo chains")
struct X509LimboTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let id: String
        let expectSuccess: Bool
        let roots: [[UInt8]]
        let intermediate: [UInt8]
        let leaf: [UInt8]
        /// The suite's validation time, or (when it has none, "now") the middle of the leaf's validity,
        /// so that the real-world chains of `online::*` are judged as when they were captured.
        let time: Int64

        var testDescription: String { id }
    }

    /// The cases where OpenSSL 3.0 (and so JWSVerify, whose full path is OpenSSL's) decides otherwise
    /// than the suite, each with the reason. Asserted both ways: each listed case does disagree.
    static let openSSLDecidesOtherwise: [String: String] = [
        // RFC 5280 §4.1.2.5 makes notAfter inclusive; OpenSSL 3.0's X509_cmp_time treats a certificate
        // as expired at exactly notAfter, and so does ValidityInterval (one rule for every path).
        "rfc5280::validity::notafter-exact": "OpenSSL 3.0: expired at exactly notAfter",
        // 5 ms after notAfter: validation times are whole seconds (rounded down), which is notAfter.
        "rfc5280::validity::notafter-fractional": "OpenSSL 3.0: expired at exactly notAfter",
        // Without X509_V_FLAG_X509_STRICT (off: Apple's own test certificates fail it) OpenSSL does not
        // require the key identifiers of an intermediate.
        "rfc5280::aki::intermediate-missing-aki": "no strict mode: AKI not required",
        "rfc5280::ski::intermediate-missing-ski": "no strict mode: SKI not required",
        // Policy constraints are only evaluated with X509_V_FLAG_POLICY_CHECK, which is off.
        "rfc5280::pc::ica-noncritical-pc": "no policy checking: a non-critical policyConstraints passes",
    ]

    /// The cases the App Store contract answers otherwise, whatever OpenSSL does: the chain must be
    /// exactly leaf ← x5c[1] ← a configured root (checks 4 and 6), and there is no depth setting.
    static let contractDecidesOtherwise: [String: String] = [
        "pathlen::max-chain-depth-0-exhausted":
            "no maximum chain depth to configure: the chain has its one intermediate",
        "pathological::multiple-chains-expired-intermediate":
            "the only valid chain skips the expired x5c[1]; the contract requires the chain through x5c[1]",
        "rfc5280::root-and-intermediate-swapped":
            "the intermediate is a trusted root here: a chain of two, not leaf ← x5c[1] ← root",
    ]

    static let cases: [Case] = {
        guard let data = try? TestVectorFiles.data("x509-limbo/limbo-chain-subset.json"),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let testcases = root["testcases"] as? [[String: Any]]
        else { return [] }
        return testcases.compactMap { testcase -> Case? in
            guard let id = testcase["id"] as? String, let expected = testcase["expected_result"] as? String,
                let trusted = testcase["trusted_certs"] as? [String],
                let intermediates = testcase["untrusted_intermediates"] as? [String], intermediates.count == 1,
                let peer = testcase["peer_certificate"] as? String,
                let leaf = Certificate(derOrPEM: Array(peer.utf8)),
                let intermediate = Certificate(derOrPEM: Array(intermediates[0].utf8))
            else { return nil }
            let roots = trusted.compactMap { Certificate(derOrPEM: Array($0.utf8))?.der }
            guard roots.count == trusted.count else { return nil }
            let time: Int64
            if let text = testcase["validation_time"] as? String {
                guard let seconds = parseTime(text) else { return nil }
                time = seconds
            } else {
                guard let validity = leaf.validity else { return nil }
                time = validity.notBefore / 2 + validity.notAfter / 2
            }
            return Case(
                id: id, expectSuccess: expected == "SUCCESS", roots: roots, intermediate: intermediate.der,
                leaf: leaf.der, time: time)
        }
    }()

    /// RFC 3339 with or without fractional seconds, to whole seconds (rounded down, as the verifier
    /// rounds a payload's milliseconds).
    static func parseTime(_ text: String) -> Int64? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let date = formatter.date(from: text) ?? ISO8601DateFormatter().date(from: text)
        return date.map { Int64($0.timeIntervalSince1970.rounded(.down)) }
    }

    static func input(_ testCase: Case) -> CertificateChainInput {
        CertificateChainInput(
            time: testCase.time, leaf: testCase.leaf, intermediate: testCase.intermediate, roots: testCase.roots)
    }

    @Test("the suite's cases that the chain validator can take are all here")
    func loaded() {
        // 39 of the subset's 103 cases have exactly one intermediate; all of them parse.
        #expect(Self.cases.count == 39)
        #expect(Self.cases.filter(\.expectSuccess).count == 23)
    }

    /// Input: each case's leaf, intermediate and roots, at the case's time. Expected: the full path's
    /// verdict is OpenSSL's on the whole chain, and it is the suite's expected result except for the
    /// listed decisions (which must disagree, so that the lists stay true).
    @Test("the full path agrees with OpenSSL and with the suite", arguments: cases)
    func fullPath(_ testCase: Case) throws {
        let roots = try testCase.roots.map { try #require(Certificate(der: $0)) }
        let store = try #require(TrustStore(roots: roots))
        let cold = TrustAnchor.appleRoots(trustStore: store, intermediates: IntermediateCache(capacity: 0))
        let x5c = [testCase.leaf, testCase.intermediate, testCase.roots[0]].map { Base64.encodeStandard($0) }
        let verdict = ChainsDifferential.chainVerdict(cold.validate(x5c, at: testCase.time))
        // OpenSSL's verdict on the whole chain is the full path's (one of the differential's properties).
        let comparison = ChainsDifferential.compare(Self.input(testCase))
        #expect(comparison.violations == [], "\(testCase.id)")
        let agrees = (verdict == "passed") == testCase.expectSuccess
        if let reason = Self.openSSLDecidesOtherwise[testCase.id] ?? Self.contractDecidesOtherwise[testCase.id] {
            #expect(!agrees, "\(testCase.id) is listed (\(reason)) but agrees with the suite")
        } else {
            #expect(
                agrees, "\(testCase.id): expected \(testCase.expectSuccess ? "SUCCESS" : "FAILURE"), got \(verdict)")
        }
    }

    /// Input: each case whose intermediate a warm verifier could hold (``ChainsDifferential/compare(_:)``
    /// says when). Expected: the warm validator's verdict is the cold one's, and the leaf check accepts
    /// only leaves OpenSSL accepts.
    @Test("the fast path agrees with the full path", arguments: cases)
    func fastPath(_ testCase: Case) {
        #expect(ChainsDifferential.compare(Self.input(testCase)).violations == [], "\(testCase.id)")
    }

    /// Input: every case. Expected: most cases reach a warm validator, and the leaf check runs on many
    /// (so that the comparison above is not empty). Every leaf of the suite names a host
    /// (subjectAltName) and extended key usages, which Apple's leaves do not carry, so the check sets
    /// each aside and the full path decides; leaves it accepts are in `LeafAllowListTests` and
    /// `OneVerdictTests`.
    @Test("the suite exercises the leaf check")
    func leafCheckIsExercised() {
        let outcomes = Self.cases.map { ChainsDifferential.compare(Self.input($0)).outcome }
        let accepted = outcomes.filter { $0 == .leafCheck(accepted: true) }.count
        let setAside = outcomes.filter { $0 == .leafCheck(accepted: false) }.count
        let primed = outcomes.filter { $0 != .notPrimed }.count
        #expect(primed >= 20, "accepted \(accepted), set aside \(setAside), primed \(primed)")
        #expect(setAside >= 15, "accepted \(accepted), set aside \(setAside), primed \(primed)")
    }
}
