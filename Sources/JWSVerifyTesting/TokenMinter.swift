import Foundation
import JWSVerify

/// Mints compact JWS tokens (RFC 7515) that look exactly like the App Store's: protected header
/// `{"alg":"ES256","x5c":[leaf, intermediate, root]}` (standard base64 DER certificates),
/// base64url segments without padding, and a raw 64-byte R‖S ES256 signature by the leaf key.
///
/// Options override the header and the signature so that negative tokens can be made.
public struct TokenMinter: Sendable {
    /// The hierarchy whose leaf signs and whose chain fills `x5c`: EC keys throughout (a
    /// ``TestHierarchy/Profile/appStoreEC`` hierarchy, or one assembled from EC certificates).
    public private(set) var hierarchy: TestHierarchy
    /// The EC keys of ``hierarchy`` (checked once by the initializer).
    private let keys: (root: TestPrivateKey, intermediate: TestPrivateKey, leaf: TestPrivateKey)

    /// A minter for `hierarchy`, whose leaf signs (ES256: a ``TestHierarchy/Profile/appStoreEC`` hierarchy).
    ///
    /// - Throws: ``JWSTestingError/invalidArgument(_:)`` when a key of the hierarchy is not EC.
    public init(hierarchy: TestHierarchy) throws {
        self.hierarchy = hierarchy
        self.keys = (
            try TestHierarchy.ecKey(hierarchy.rootKey, "the root"),
            try TestHierarchy.ecKey(hierarchy.intermediateKey, "the intermediate"),
            try TestHierarchy.ecKey(hierarchy.leafKey, "the leaf")
        )
    }

    /// A minter for `pki`.
    @available(*, deprecated, message: "use init(hierarchy:) with a TestHierarchy")
    public init(pki: TestPKI) {
        self.hierarchy = pki.hierarchy
        self.keys = (pki.rootKey, pki.intermediateKey, pki.leafKey)
    }

    /// ``hierarchy`` as a ``TestPKI``.
    @available(*, deprecated, message: "use hierarchy")
    public var pki: TestPKI {
        get {
            TestPKI(
                root: hierarchy.root, rootKey: keys.root, intermediate: hierarchy.intermediate,
                intermediateKey: keys.intermediate, leaf: hierarchy.leaf, leafKey: keys.leaf)
        }
        set { self = TokenMinter(pki: newValue) }
    }

    /// The protected header.
    public struct Header: Sendable, Hashable {
        /// What the `x5c` member carries.
        public enum CertificateChain: Sendable, Hashable {
            /// The minter's `[leaf, intermediate, root]`.
            case pki
            /// These entries, as written (any length, any text).
            case custom([String])
            /// No `x5c` member.
            case omitted
        }

        /// `alg`; nil leaves the member out.
        public var algorithm: String?
        /// `x5c`.
        public var certificateChain: CertificateChain
        /// More members, written after `alg` and `x5c` in key order; a member named `alg` or
        /// `x5c` here replaces the one above.
        public var extraMembers: [String: JSONValue]

        /// Apple's header unless told otherwise.
        public init(
            algorithm: String? = "ES256", certificateChain: CertificateChain = .pki,
            extraMembers: [String: JSONValue] = [:]
        ) {
            self.algorithm = algorithm
            self.certificateChain = certificateChain
            self.extraMembers = extraMembers
        }
    }

    /// How the signature segment is made.
    public struct Signature: Sendable, Hashable {
        /// The form of the signature bytes.
        public enum Encoding: Sendable, Hashable {
            /// Raw R‖S (IEEE P1363), as JWS requires.
            case raw
            /// DER ECDSA-Sig-Value, which a verifier must reject.
            case der
        }

        /// The signing key; nil means the minter's leaf key. Any P-256 or P-384 key works (a
        /// P-384 key gives a 96-byte raw signature).
        public var key: TestPrivateKey?
        /// The digest; SHA-256 for ES256.
        public var digest: TestDigest
        /// The encoding of the signature bytes.
        public var encoding: Encoding

        /// ES256 with the leaf key unless told otherwise.
        public init(key: TestPrivateKey? = nil, digest: TestDigest = .sha256, encoding: Encoding = .raw) {
            self.key = key
            self.digest = digest
            self.encoding = encoding
        }
    }

    // MARK: Signing

    /// Signs `payload` (serialized compactly with sorted keys) into a compact JWS.
    public func sign(
        _ payload: [String: JSONValue], header: Header = Header(),
        signature: Signature = Signature()
    ) throws -> String {
        try sign(payloadJSON: JSONText.compactData(.object(payload)), header: header, signature: signature)
    }

    /// Signs raw payload bytes (normally JSON, used as given) into a compact JWS.
    public func sign(
        payloadJSON: Data, header: Header = Header(),
        signature: Signature = Signature()
    ) throws -> String {
        try sign(headerJSON: headerJSON(header), payloadJSON: payloadJSON, signature: signature)
    }

    /// Signs raw header and payload bytes into a compact JWS; both are used exactly as given.
    public func sign(headerJSON: Data, payloadJSON: Data, signature: Signature = Signature()) throws -> String {
        let signingInput = Base64URL.encode(headerJSON) + "." + Base64URL.encode(payloadJSON)
        let key = signature.key ?? keys.leaf
        let message = Data(signingInput.utf8)
        let bytes: Data
        switch signature.encoding {
        case .raw: bytes = try key.signRaw(message, digest: signature.digest)
        case .der: bytes = try key.signDER(message, digest: signature.digest)
        }
        return signingInput + "." + Base64URL.encode(bytes)
    }

    /// The header JSON bytes for `header`: `alg`, then `x5c`, then the extra members by key.
    public func headerJSON(_ header: Header = Header()) throws -> Data {
        var members: [(String, JSONValue)] = []
        var extras = header.extraMembers
        if let algorithm = extras.removeValue(forKey: "alg") ?? header.algorithm.map(JSONValue.string) {
            members.append(("alg", algorithm))
        }
        let chain: [String]?
        switch header.certificateChain {
        case .pki: chain = hierarchy.x5c
        case .custom(let entries): chain = entries
        case .omitted: chain = nil
        }
        if let x5c = extras.removeValue(forKey: "x5c") ?? chain.map({ .array($0.map(JSONValue.string)) }) {
            members.append(("x5c", x5c))
        }
        for (key, value) in extras.sorted(by: { $0.key < $1.key }) {
            members.append((key, value))
        }
        return JSONText.compactData(orderedMembers: members)
    }

    // MARK: Default payloads

    /// The default payload of `kind` (see ``DefaultPayloads``). A notification's nested
    /// `signedTransactionInfo`, `signedRenewalInfo` or `signedAppTransactionInfo` tokens are
    /// minted with this minter's hierarchy.
    ///
    /// - Parameter index: distinguishes tokens of one batch (transaction ids, UUIDs).
    public func defaultPayload(
        _ kind: TestPayloadKind, parameters: PayloadParameters = PayloadParameters(),
        index: Int = 0
    ) throws -> [String: JSONValue] {
        switch kind {
        case .transaction: return DefaultPayloads.transaction(parameters, index: index)
        case .renewalInfo: return DefaultPayloads.renewal(parameters, index: index)
        case .appTransaction: return DefaultPayloads.appTransaction(parameters, index: index)
        case .realtimeRequest: return DefaultPayloads.realtime(parameters, index: index)
        case .notification:
            let type = parameters.notificationType
            var transaction: String?
            var renewal: String?
            var appTransaction: String?
            if type == "RESCIND_CONSENT" {
                appTransaction = try sign(DefaultPayloads.appTransaction(parameters, index: index))
            } else if type != "TEST", type != "EXTERNAL_PURCHASE_TOKEN",
                parameters.notificationSubtype != "SUMMARY"
            {
                transaction = try sign(DefaultPayloads.transaction(parameters, index: index))
                renewal = try sign(DefaultPayloads.renewal(parameters, index: index))
            }
            return DefaultPayloads.notification(
                parameters, index: index, signedTransactionInfo: transaction, signedRenewalInfo: renewal,
                signedAppTransactionInfo: appTransaction)
        }
    }

    /// Mints `count` tokens of `kind`: default payloads (distinct transaction ids, notification
    /// UUIDs and request identifiers per token) with `overrides` applied, signed with Apple's
    /// header.
    ///
    /// When `parameters.seed` is nil a random seed is drawn once for the whole batch.
    public func mint(
        _ kind: TestPayloadKind, parameters: PayloadParameters = PayloadParameters(),
        overrides: PayloadOverrides = PayloadOverrides(), count: Int = 1
    ) throws -> [String] {
        guard count >= 0 else { throw JWSTestingError.invalidArgument("count must not be negative") }
        var parameters = parameters
        if parameters.seed == nil { parameters.seed = randomSeed() }
        return try (0..<count).map { index in
            try sign(overrides.apply(to: defaultPayload(kind, parameters: parameters, index: index)))
        }
    }
}

/// The three segments of a compact JWS, decoded.
public struct JWSSegments: Sendable, Hashable {
    /// The protected header bytes.
    public var header: Data
    /// The payload bytes.
    public var payload: Data
    /// The signature bytes.
    public var signature: Data

    /// Segments from bytes.
    public init(header: Data, payload: Data, signature: Data) {
        self.header = header
        self.payload = payload
        self.signature = signature
    }

    /// Splits and decodes `token`; fails unless it has three base64url segments.
    public init(token: String) throws {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let header = Base64URL.decode(parts[0]),
            let payload = Base64URL.decode(parts[1]), let signature = Base64URL.decode(parts[2])
        else {
            throw JWSTestingError.invalidArgument("not a compact JWS")
        }
        self.init(header: header, payload: payload, signature: signature)
    }

    /// The compact serialization (base64url segments without padding).
    public var token: String {
        [header, payload, signature].map(Base64URL.encode).joined(separator: ".")
    }

    /// The ASCII bytes that the signature covers: `base64url(header).base64url(payload)`.
    public var signingInput: Data {
        Data((Base64URL.encode(header) + "." + Base64URL.encode(payload)).utf8)
    }

    /// The payload parsed as a JSON object.
    public func payloadObject() throws -> [String: JSONValue] {
        try JSONText.parseObject(payload)
    }

    /// The header parsed as a JSON object.
    public func headerObject() throws -> [String: JSONValue] {
        try JSONText.parseObject(header)
    }
}
