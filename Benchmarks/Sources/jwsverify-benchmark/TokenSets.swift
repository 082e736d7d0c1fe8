import Dispatch
import Foundation
import JWSVerify
import JWSVerifyTesting
import Synchronization

/// What every token of the benchmark carries and what the verifiers expect (also exported for peers).
enum BenchmarkConfiguration {
    static let bundleId = "com.example.jwsverify"
    static let appAppleId: Int64 = 1234
    static let environment = "Sandbox"
    /// 2026-01-01T00:00:00Z: every payload's `signedDate`, inside the test PKI's validity
    /// (2025 to 2035), so that offline verification at the signed date always succeeds.
    static let signedDate = Date(timeIntervalSince1970: 1_767_225_600)
    /// Tokens of the cold set (every cache off, so the set size hardly matters).
    static let coldTokens = 1_000
    /// Tokens of the renewal and app-transaction sets (warm chain, so the set size hardly matters).
    static let kindTokens = 2_000
    /// Tokens of the notification set (each carries two nested tokens).
    static let notificationTokens = 1_000
    /// Tokens of the reject set (four categories, a quarter each) and of the tampered set (two, half each).
    static let rejectTokens = 1_000
    /// Tokens of the 64 KiB set.
    static let largeTokens = 200
    /// The largest token the verifier accepts by default, which the large set fills.
    static let largeTokenBytes = CompactJWS.defaultMaximumBytes
    /// The chain-groups set has at least this many distinct leaves: more than the default chain cache
    /// capacity (64) in every thread's slice (2 threads), so that each chain is evicted before it comes back.
    static let minimumChainGroups = 256
    /// Tokens of the online set (one chain: the set size hardly matters).
    static let onlineTokens = 2_000

    static func payloadParameters(seed: UInt64) -> PayloadParameters {
        PayloadParameters(
            bundleId: bundleId, appAppleId: appAppleId, environment: environment, signedDate: signedDate, seed: seed)
    }

    /// A verifier for the test root; `chainCacheCapacity: 0` disables every cache. With
    /// `enableOnlineChecks`, it asks the OCSP responders named in the certificates and validates at
    /// the current time.
    static func makeVerifier(
        rootDER: Data, chainCacheCapacity: Int = 64, enableOnlineChecks: Bool = false
    ) throws -> SignedDataVerifier {
        try SignedDataVerifier(
            rootCertificates: [rootDER], bundleId: bundleId, appAppleId: appAppleId,
            environment: AppStoreEnvironment(rawValue: environment), enableOnlineChecks: enableOnlineChecks,
            chainCacheCapacity: chainCacheCapacity)
    }
}

/// One set of tokens with the outcome each must have.
struct TokenSet: Sendable {
    /// The file stem of the exported set (`warm` -> `warm.ndjson`).
    var name: String
    /// The payload kind, for peers (`transaction`, `renewal`, `app-transaction`, `notification`).
    var kind: String
    var tokens: [String]
    /// The expected error code per token; nil means the token must verify.
    var expected: [VerificationError.Code?]
    /// The reject category per token (reject set only).
    var categories: [String]?
    /// A token to verify once before measuring (fills the chain or intermediate cache).
    var primer: String?

    var totalBytes: Int { tokens.reduce(0) { $0 + $1.utf8.count } }
}

/// Mints the token sets with JWSVerifyTesting, deterministically from one seed (payloads and keys;
/// ECDSA signatures vary between runs, as they do).
struct TokenFactory: Sendable {
    let options: BenchmarkOptions
    let pki: TestHierarchy
    let minter: TokenMinter
    let parameters: PayloadParameters

    /// A factory for `pki`, or for the test PKI of the options' seed when nil.
    init(options: BenchmarkOptions, pki: TestHierarchy? = nil) throws {
        self.options = options
        if let pki {
            self.pki = pki
        } else {
            self.pki = try TestHierarchy.generate(.appStoreEC, seed: options.seed)
        }
        minter = try TokenMinter(hierarchy: self.pki)
        parameters = BenchmarkConfiguration.payloadParameters(seed: options.seed)
    }

    var rootDER: Data { pki.root.der }

    /// The set that `scenario` measures.
    func set(for scenario: ScenarioName) throws -> TokenSet {
        switch scenario {
        case .warm: return try verifiedSet("warm", .transaction, count: options.warmTokens)
        case .cold:
            return try verifiedSet(
                "cold", .transaction, count: min(BenchmarkConfiguration.coldTokens, options.warmTokens))
        case .renewal:
            return try verifiedSet(
                "renewal", .renewal, count: min(BenchmarkConfiguration.kindTokens, options.warmTokens))
        case .appTransaction:
            return try verifiedSet(
                "app-transaction", .appTransaction, count: min(BenchmarkConfiguration.kindTokens, options.warmTokens))
        case .notification, .notificationNested:
            return try verifiedSet(
                "notification", .notification, count: min(BenchmarkConfiguration.notificationTokens, options.warmTokens)
            )
        case .newLeaf: return try newLeafSet()
        case .chainGroups: return try chainGroupsSet()
        case .reject: return try rejectSet()
        case .tampered: return try tamperedSet()
        case .large: return try largeSet()
        case .onlineWarm, .onlineOffline:
            return try verifiedSet(
                "online", .transaction, count: min(BenchmarkConfiguration.onlineTokens, options.warmTokens))
        }
    }

    private func verifiedSet(_ name: String, _ kind: TestPayloadKind, count: Int) throws -> TokenSet {
        // What `minter.mint(kind, parameters:, count:)` does, on all cores.
        let minter = self.minter
        let parameters = self.parameters
        let tokens = try parallelMap(count) { index in
            try minter.sign(minter.defaultPayload(kind, parameters: parameters, index: index))
        }
        return TokenSet(
            name: name, kind: kind.rawValue, tokens: tokens, expected: Array(repeating: nil, count: tokens.count),
            primer: tokens.first)
    }

    /// The primer of sets whose tokens have new leaves: a token of the hierarchy's own leaf, so that
    /// the intermediate is verified and cached before measuring.
    private func intermediatePrimer() throws -> String {
        try minter.sign(DefaultPayloads.transaction(parameters, index: 99_999))
    }

    /// The leaf of index `index` (deterministic key and serial number).
    private func leafMinter(_ index: Int) throws -> TokenMinter {
        let leaf = try pki.makeLeaf(seed: options.seed &+ 1_000_000 &+ UInt64(index))
        return try TokenMinter(hierarchy: pki.replacing(leaf: leaf))
    }

    /// Each token from its own leaf under the one intermediate.
    private func newLeafSet() throws -> TokenSet {
        let tokens = try parallelMap(options.leaves) { index in
            try leafMinter(index).sign(DefaultPayloads.transaction(parameters, index: index))
        }
        return TokenSet(
            name: "new-leaf", kind: "transaction", tokens: tokens, expected: Array(repeating: nil, count: tokens.count),
            primer: try intermediatePrimer())
    }

    /// `tokensPerChain` consecutive tokens per leaf, over more leaves than the chain cache holds.
    private func chainGroupsSet() throws -> TokenSet {
        let perChain = options.tokensPerChain
        let groups = max(BenchmarkConfiguration.minimumChainGroups, options.leaves / perChain)
        let tokens = try parallelMap(groups) { group in
            let minter = try leafMinter(group)
            return try (0..<perChain).map { member in
                try minter.sign(DefaultPayloads.transaction(parameters, index: group * perChain + member))
            }
        }.flatMap { $0 }
        return TokenSet(
            name: "chain-groups", kind: "transaction", tokens: tokens,
            expected: Array(repeating: nil, count: tokens.count),
            primer: try intermediatePrimer())
    }

    /// Transactions padded to just under the 64 KiB limit with an extra payload member.
    private func largeSet() throws -> TokenSet {
        let limit = BenchmarkConfiguration.largeTokenBytes
        let minter = self.minter
        let parameters = self.parameters
        @Sendable func token(_ index: Int, padding: Int) throws -> String {
            var payload = DefaultPayloads.transaction(parameters, index: index)
            payload["benchmarkPadding"] = .string(String(repeating: "x", count: padding))
            return try minter.sign(payload)
        }
        // The header, signature and JSON overhead stay the same: find the padding once.
        let bare = try token(0, padding: 0).utf8.count
        var fitting = max(0, (limit - bare) * 3 / 4 - 8)
        while fitting > 0, try token(0, padding: fitting).utf8.count > limit { fitting -= 16 }
        let padding = fitting
        let tokens = try parallelMap(BenchmarkConfiguration.largeTokens) { index in
            var candidate = try token(index, padding: padding)
            var shrink = padding
            while candidate.utf8.count > limit, shrink > 0 {
                shrink -= 4
                candidate = try token(index, padding: shrink)
            }
            return candidate
        }
        return TokenSet(
            name: "large", kind: "transaction", tokens: tokens, expected: Array(repeating: nil, count: tokens.count),
            primer: tokens.first)
    }

    /// Malformed and tampered transactions, a quarter each: bad base64, wrong alg, truncated, and a
    /// tampered payload under the warm chain (rejected by the ES256 check after a chain-cache hit).
    /// Malformed and forged tokens that a verifier refuses without any signature work: bad base64,
    /// a wrong `alg`, a truncated token, a chain of the wrong length; a quarter each.
    private func rejectSet() throws -> TokenSet {
        let count = BenchmarkConfiguration.rejectTokens
        let valid = try minter.mint(.transaction, parameters: parameters, count: count)
        var tokens: [String] = []
        var expected: [VerificationError.Code?] = []
        var categories: [String] = []
        for (index, token) in valid.enumerated() {
            let segments = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            let variant = index / 4
            switch index % 4 {
            case 0:
                categories.append("bad-base64")
                expected.append(.malformedToken)
                if variant % 2 == 0 {
                    // A character outside the base64url alphabet inside the header.
                    var header = Array(segments[0])
                    header[header.count / 2] = "+"
                    tokens.append(String(header) + "." + segments[1] + "." + segments[2])
                } else {
                    // Padding, which RFC 7515 base64url forbids.
                    tokens.append(segments[0] + "." + segments[1] + "=." + segments[2])
                }
            case 1:
                categories.append("wrong-alg")
                expected.append(.unsupportedAlgorithm)
                let algorithm = ["ES384", "none", "HS256", "RS256"][variant % 4]
                tokens.append(
                    try minter.sign(
                        DefaultPayloads.transaction(parameters, index: index),
                        header: TokenMinter.Header(algorithm: algorithm)))
            case 2:
                categories.append("truncated")
                if variant % 2 == 0 {
                    // Cut inside the payload: two segments.
                    expected.append(.malformedToken)
                    tokens.append(segments[0] + "." + String(segments[1].prefix(segments[1].count / 2)))
                } else {
                    // Cut inside the signature: a short signature, refused before any ECDSA work.
                    expected.append(.invalidSignature)
                    tokens.append(segments[0] + "." + segments[1] + "." + String(segments[2].prefix(40)))
                }
            default:
                // The leaf alone, or leaf and intermediate: a chain that cannot reach the root.
                categories.append("short-chain")
                expected.append(.invalidChainLength)
                let chain = Array(pki.x5c.prefix(1 + variant % 2))
                tokens.append(
                    try minter.sign(
                        DefaultPayloads.transaction(parameters, index: index),
                        header: TokenMinter.Header(certificateChain: .custom(chain))))
            }
        }
        return TokenSet(
            name: "reject", kind: "transaction", tokens: tokens, expected: expected, categories: categories,
            primer: try minter.sign(DefaultPayloads.transaction(parameters, index: 99_998)))
    }

    /// Well-formed tokens under the trusted chain whose payload or signature was changed: only the
    /// ES256 check can refuse them (one P-256 verification each, no certificate work).
    private func tamperedSet() throws -> TokenSet {
        let count = BenchmarkConfiguration.rejectTokens
        let valid = try minter.mint(.transaction, parameters: parameters, count: count)
        var tokens: [String] = []
        var categories: [String] = []
        for (index, token) in valid.enumerated() {
            var parts = try JWSSegments(token: token)
            if index % 2 == 0 {
                categories.append("tampered-payload")
                var payload = try parts.payloadObject()
                payload["price"] = .integer(1)
                parts.payload = try JSONEncoder().encode(JSONValue.object(payload))
            } else {
                categories.append("tampered-signature")
                var signature = parts.signature
                signature[signature.count / 2] ^= 0x01
                parts.signature = signature
            }
            tokens.append(parts.token)
        }
        return TokenSet(
            name: "tampered", kind: "transaction", tokens: tokens,
            expected: Array(repeating: .invalidSignature, count: tokens.count), categories: categories,
            primer: try minter.sign(DefaultPayloads.transaction(parameters, index: 99_997)))
    }
}

/// `(0..<count).map(transform)` on all cores, in order; the first error thrown is rethrown.
func parallelMap<T: Sendable>(_ count: Int, _ transform: @Sendable (Int) throws -> T) throws -> [T] {
    let slots = Mutex<[Int: Result<T, any Error>]>([:])
    let chunk = 16
    DispatchQueue.concurrentPerform(iterations: (count + chunk - 1) / chunk) { part in
        var local: [Int: Result<T, any Error>] = [:]
        for index in part * chunk..<min(count, (part + 1) * chunk) {
            local[index] = Result { try transform(index) }
        }
        slots.withLock { $0.merge(local) { first, _ in first } }
    }
    return try slots.withLock { results in
        try (0..<count).map { index in
            guard let result = results[index] else { throw BenchmarkError("no result for item \(index)") }
            return try result.get()
        }
    }
}
