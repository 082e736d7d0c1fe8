import Foundation
import JWSVerifyTesting

@testable import JWSVerify

/// Structure-aware mutation of compact JWS tokens, for libFuzzer's `LLVMFuzzerCustomMutator`.
///
/// A token is decoded into header JSON, payload JSON, signature and `x5c` DER certificates; one of
/// them is mutated, either byte by byte (with libFuzzer's own mutator, passed in as `byteMutator`)
/// or structurally (a member set to a value that matters to a check: `alg`, `crit`, `x5c` entries,
/// `bundleId`, `environment`, dates...), and the token is re-encoded as base64url. Half of the
/// tokens whose header or payload changed are then re-signed with the generated leaf key, so that
/// mutated payloads get past the signature check to the payload and claims checks.
///
/// Inputs that are not three base64url segments get a plain byte mutation.
public struct TokenMutator: Sendable {
    /// Mutates bytes in place, within a size limit (libFuzzer's `LLVMFuzzerMutate`).
    public typealias ByteMutator = @Sendable (_ bytes: inout [UInt8], _ maxSize: Int) -> Void

    let byteMutator: ByteMutator
    let signingKey: TestPrivateKey?

    /// - Parameters:
    ///   - byteMutator: libFuzzer's byte-level mutation.
    ///   - signingKey: The key that re-signs mutated tokens, or nil never to re-sign.
    public init(byteMutator: @escaping ByteMutator, signingKey: TestPrivateKey?) {
        self.byteMutator = byteMutator
        self.signingKey = signingKey
    }

    /// Mutates `input` into a new token of at most `maxSize` bytes.
    public func mutate(_ input: [UInt8], maxSize: Int, seed: UInt32) -> [UInt8] {
        var random = SplitMix(seed: UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 &+ 1)
        guard var token = Token(input) else { return byteMutated(input, maxSize: maxSize) }
        var resignable = true
        switch random.next(100) {
        case 0..<12: return byteMutated(input, maxSize: maxSize)
        case 12..<24: token.header = byteMutated(token.header, maxSize: token.header.count * 2 + 16)
        case 24..<40: token.payload = byteMutated(token.payload, maxSize: token.payload.count * 2 + 16)
        case 40..<48:
            token.signature = byteMutated(token.signature, maxSize: 80)
            resignable = false
        case 48..<62: mutateCertificate(&token, &random)
        case 62..<72: mutateHeaderMember(&token, &random)
        default: mutatePayloadMember(&token, &random)
        }
        if resignable, let signingKey, random.next(2) == 0,
            let signature = try? signingKey.signES256(Data(token.signingInput))
        {
            token.signature = Array(signature)
        }
        let output = token.encoded
        return output.count <= maxSize ? output : byteMutated(input, maxSize: maxSize)
    }

    private func byteMutated(_ bytes: [UInt8], maxSize: Int) -> [UInt8] {
        var copy = bytes
        byteMutator(&copy, max(maxSize, 1))
        return copy
    }

    // MARK: Structural mutations

    /// One `x5c` entry: its DER mutated byte by byte, or the entries dropped, duplicated, reordered,
    /// replaced by another certificate of the hierarchy, or spelled in base64url.
    private func mutateCertificate(_ token: inout Token, _ random: inout SplitMix) {
        guard var header = token.headerObject, case .array(var entries)? = header["x5c"], !entries.isEmpty else {
            token.header = byteMutated(token.header, maxSize: token.header.count * 2 + 16)
            return
        }
        let index = random.next(entries.count)
        switch random.next(10) {
        case 0: entries.remove(at: index)
        case 1: entries.insert(entries[index], at: index)
        case 2: entries.swapAt(index, random.next(entries.count))
        case 3: entries[index] = entries[random.next(entries.count)]
        case 4:
            if case .string(let text) = entries[index] {
                entries[index] = .string(
                    text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_"))
            }
        case 5: entries[index] = Self.interestingValues[random.next(Self.interestingValues.count)]
        default:
            guard case .string(let text) = entries[index], let der = Base64.decodeStandard(text) else { break }
            entries[index] = .string(Base64.encodeStandard(byteMutated(der, maxSize: der.count + 64)))
        }
        header["x5c"] = .array(entries)
        token.setHeader(header)
    }

    /// `alg`, `crit`, `kid`, `typ` or `x5c` set to a value that matters, or removed.
    private func mutateHeaderMember(_ token: inout Token, _ random: inout SplitMix) {
        guard var header = token.headerObject else { return }
        let names = ["alg", "alg", "crit", "kid", "typ", "x5c", "b64", "jwk"]
        let name = names[random.next(names.count)]
        switch random.next(4) {
        case 0: header[name] = nil
        case 1 where name == "alg":
            header[name] = .string(["ES256", "ES384", "none", "es256", "ES256 ", "HS256", "EdDSA"][random.next(7)])
        default: header[name] = Self.interestingValues[random.next(Self.interestingValues.count)]
        }
        token.setHeader(header)
    }

    /// A payload member (top level, or inside `data`, `summary`, `appData`, `externalPurchaseToken`)
    /// set to a value that matters to the payload and claims checks, or removed.
    private func mutatePayloadMember(_ token: inout Token, _ random: inout SplitMix) {
        guard var payload = token.payloadObject else { return }
        let containers = payload.keys.filter { payload[$0]?.objectValue != nil }.sorted()
        let container = !containers.isEmpty && random.next(3) == 0 ? containers[random.next(containers.count)] : nil
        var target = container.flatMap { payload[$0]?.objectValue } ?? payload
        let existing = target.keys.sorted()
        let name: String
        if !existing.isEmpty && random.next(2) == 0 {
            name = existing[random.next(existing.count)]
        } else {
            name = Self.interestingKeys[random.next(Self.interestingKeys.count)]
        }
        if random.next(5) == 0 {
            target[name] = nil
        } else {
            target[name] = Self.interestingValues[random.next(Self.interestingValues.count)]
        }
        if let container {
            payload[container] = .object(target)
        } else {
            payload = target
        }
        token.setPayload(payload)
    }

    static let interestingKeys = [
        "bundleId", "environment", "receiptType", "appAppleId", "signedDate", "receiptCreationDate",
        "transactionId", "originalTransactionId", "purchaseDate", "expiresDate", "notificationType", "subtype",
        "notificationUUID", "data", "summary", "appData", "externalPurchaseToken", "externalPurchaseId",
        "signedTransactionInfo", "signedRenewalInfo", "signedAppTransactionInfo", "userLocale", "autoRenewStatus",
        "quantity", "price", "type", "offerType", "revocationReason", "advancedCommerceInfo", "status", "exp", "nbf",
    ]

    static let interestingValues: [JSONValue] = [
        .string("com.example.jwsverify"), .string("com.example.other"), .string("Sandbox"), .string("Production"),
        .string("Xcode"), .string("LocalTesting"), .string("SANDBOX_1"), .string(""), .string("\u{0}\u{FFFD}\u{1F600}"),
        .integer(1234), .integer(0), .integer(-1), .integer(1_773_576_000_000), .integer(.max), .integer(.min),
        .double(1_773_576_000_000.5), .double(-1e300), .double(1e300), .double(0.1), .null, .bool(true), .bool(false),
        .array([]), .array([.string("b64")]), .object([:]),
        .object([
            "bundleId": .string("com.example.jwsverify"), "environment": .string("Sandbox"),
            "appAppleId": .integer(1234),
        ]),
        .string(String(repeating: "A", count: 300)),
    ]
}

/// A compact JWS decoded into its parts (strict base64url, as the verifier reads them).
struct Token {
    var header: [UInt8]
    var payload: [UInt8]
    var signature: [UInt8]

    init?(_ bytes: [UInt8]) {
        let segments = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard segments.count == 3 else { return nil }
        func decode(_ segment: ArraySlice<UInt8>) -> [UInt8]? {
            Base64.decodeURL(segment)
        }
        guard let header = decode(segments[0]), let payload = decode(segments[1]), let signature = decode(segments[2])
        else { return nil }
        self.header = header
        self.payload = payload
        self.signature = signature
    }

    var headerObject: [String: JSONValue]? { try? JSONParser.parseObject(header) }
    var payloadObject: [String: JSONValue]? { try? JSONParser.parseObject(payload) }

    mutating func setHeader(_ object: [String: JSONValue]) {
        if let data = try? JSONEncoder().encode(JSONValue.object(object)) { header = Array(data) }
    }

    mutating func setPayload(_ object: [String: JSONValue]) {
        if let data = try? JSONEncoder().encode(JSONValue.object(object)) { payload = Array(data) }
    }

    var signingInput: [UInt8] { Array((Base64.encodeURL(header) + "." + Base64.encodeURL(payload)).utf8) }

    var encoded: [UInt8] { signingInput + Array(("." + Base64.encodeURL(signature)).utf8) }
}

/// A small deterministic generator (SplitMix64), seeded by libFuzzer's seed.
struct SplitMix {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func nextValue() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0..<bound` (bound > 0).
    mutating func next(_ bound: Int) -> Int { Int(nextValue() % UInt64(bound)) }
}
