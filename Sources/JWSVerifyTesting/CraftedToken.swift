import Foundation
import JWSVerify

/// App Store-shaped tokens over arbitrary `x5c` certificates: header
/// `{"alg":"ES256","x5c":[...]}` (plus chosen members), a payload, and a signature by any key, a
/// forged one, or given bytes.
public enum CraftedToken {
    /// How the signature segment is made.
    public enum Signer: Sendable, Hashable {
        /// ES256 (raw R‖S) with this P-256 key.
        case key(TestPrivateKey)
        /// ``forgeES256ForPointAtInfinity(_:k:)``: verifies against a leaf whose key is the P-256
        /// point at infinity; `k` (nil: random) makes it deterministic.
        case forgedForPointAtInfinity(k: Data?)
        /// These bytes, as the signature.
        case bytes(Data)
    }

    /// The header JSON: `alg` ES256, then `x5c` (standard base64 of each DER), then `extraMembers`
    /// sorted by key (a member named `alg` or `x5c` there replaces the default one).
    public static func headerJSON(x5c: [Data], extraMembers: [String: JSONValue] = [:]) throws -> Data {
        var extras = extraMembers
        var members: [(String, JSONValue)] = []
        members.append(("alg", extras.removeValue(forKey: "alg") ?? .string("ES256")))
        let chain = JSONValue.array(x5c.map { .string($0.base64EncodedString()) })
        members.append(("x5c", extras.removeValue(forKey: "x5c") ?? chain))
        for (key, value) in extras.sorted(by: { $0.key < $1.key }) {
            members.append((key, value))
        }
        return JSONText.compactData(orderedMembers: members)
    }

    /// A compact JWS over `x5c` (normally `[leaf, intermediate, root]` DER) and `payload` (keys
    /// sorted), signed by `signer`.
    public static func mint(
        x5c: [Data], payload: [String: JSONValue], headerMembers: [String: JSONValue] = [:], signer: Signer
    ) throws -> String {
        let header = try headerJSON(x5c: x5c, extraMembers: headerMembers)
        let payloadJSON = try JSONText.compactData(.object(payload))
        let signingInput = Base64URL.encode(header) + "." + Base64URL.encode(payloadJSON)
        let message = Data(signingInput.utf8)
        let signature: Data
        switch signer {
        case .key(let key): signature = try key.signES256(message)
        case .forgedForPointAtInfinity(let k): signature = try forgeES256ForPointAtInfinity(message, k: k)
        case .bytes(let bytes): signature = bytes
        }
        return signingInput + "." + Base64URL.encode(signature)
    }

    /// A signed transaction (``DefaultPayloads/transaction(_:index:)``) over `x5c`.
    public static func transaction(
        x5c: [Data], parameters: PayloadParameters, index: Int = 0, headerMembers: [String: JSONValue] = [:],
        signer: Signer
    ) throws -> String {
        try mint(
            x5c: x5c, payload: DefaultPayloads.transaction(parameters, index: index), headerMembers: headerMembers,
            signer: signer)
    }

    /// `token` with the first character of its signature changed (`A` becomes `B`, anything else `A`).
    ///
    /// The first character's six bits all belong to the signature, so the token still decodes and
    /// reaches the signature check, which must refuse it; changing the last character could set its
    /// unused bits and make the token malformed instead.
    public static func alteringSignature(of token: String) -> String {
        guard let dot = token.lastIndex(of: "."), token.index(after: dot) < token.endIndex else { return token }
        let first = token.index(after: dot)
        var altered = token
        altered.replaceSubrange(first...first, with: token[first] == "A" ? "B" : "A")
        return altered
    }

    /// Forges an ES256 signature (raw 64-byte r‖s) of `signingInput` that verifies with the P-256
    /// point at infinity as public key, without any private key: r = x(kG) mod n and
    /// s = e·k⁻¹ mod n, so that u1·G + u2·O = kG. `k` (big-endian, 1...32 bytes) makes it
    /// deterministic; nil draws k at random.
    public static func forgeES256ForPointAtInfinity(_ signingInput: Data, k: Data? = nil) throws -> Data {
        try OpenSSLCrafting.forgeInfinitySignature(signingInput, k: k)
    }
}

/// What OpenSSL's `X509_verify_cert` says about leaf ← intermediate ← root at a time, with the
/// root the only trust anchor, the intermediate the only untrusted certificate, and default flags,
/// recording the first date error and the first other error as JWSVerify's cold chain check does.
public struct OpenSSLChainVerdict: Sendable, Hashable {
    /// One recorded `X509_V_ERR_*`.
    public struct Failure: Sendable, Hashable {
        /// The `X509_V_ERR_*` value.
        public var code: Int
        /// The depth of the certificate it is about (0 leaf, 1 intermediate, 2 root).
        public var depth: Int
        /// `X509_verify_cert_error_string`.
        public var reason: String

        /// A failure.
        public init(code: Int, depth: Int, reason: String) {
            self.code = code
            self.depth = depth
            self.reason = reason
        }
    }

    /// Whether the chain verified with no error at all.
    public var verified: Bool
    /// The first error that is not about validity dates.
    public var trustError: Failure?
    /// The first error about validity dates.
    public var timeError: Failure?
    /// How many certificates the chain OpenSSL built has.
    public var chainLength: Int
    /// `X509_verify_cert` returned -1 (an internal failure, such as a key it cannot decode); the
    /// failure is also in ``trustError``.
    public var couldNotRun: Bool

    /// A verdict.
    public init(verified: Bool, trustError: Failure?, timeError: Failure?, chainLength: Int, couldNotRun: Bool = false)
    {
        self.verified = verified
        self.trustError = trustError
        self.timeError = timeError
        self.chainLength = chainLength
        self.couldNotRun = couldNotRun
    }

    /// Whether OpenSSL verified the full three-certificate chain: no error, and the chain it built
    /// is leaf, intermediate, root (not, say, the leaf directly under the root).
    public var acceptsFullChain: Bool { verified && chainLength == 3 }

    /// The chain check's code in JWSVerify's terms, in the verifier's order: nil when
    /// ``acceptsFullChain``; ``VerificationError/Code/untrustedChain`` for any error not about dates
    /// and for a chain that is not the full three certificates (both win over dates); else
    /// ``VerificationError/Code/certificateExpired``.
    public var code: VerificationError.Code? {
        if acceptsFullChain { return nil }
        if trustError != nil || chainLength != 3 || timeError == nil { return .untrustedChain }
        return .certificateExpired
    }

    /// Runs `X509_verify_cert` on the three DER certificates at `time` (Unix seconds).
    public static func evaluate(
        leaf: Data, intermediate: Data, root: Data, at time: Int64
    ) throws
        -> OpenSSLChainVerdict
    {
        try OpenSSLCrafting.verifyChain(leaf: leaf, intermediate: intermediate, root: root, at: time)
    }
}
