import Foundation
import JWSVerify
import JWSVerifyTesting

/// Everything a loopback test of the App Store Server API needs: an In-App Purchase key made for the test
/// (its PKCS #8 PEM for the client, its public half for the emulator), the ids the bearer token carries, and
/// a test PKI whose tokens fill the responses.
///
/// Files live in a fresh temporary ``directory``, removed by ``removeFiles()``.
public struct APICredentials: Sendable {
    /// The issuer id (`iss`).
    public var issuerId = "57246542-96fe-1a63-e053-0824d011072a"
    /// The key id (`kid`).
    public var keyId = "JWSVTEST01"
    /// The bundle id (`bid`), and every minted item's `bundleId`.
    public var bundleId: String
    /// The app's Apple id in minted items.
    public var appAppleId: Int64
    /// The In-App Purchase key that signs bearer tokens.
    public let apiKey: TestPrivateKey
    /// The test PKI whose leaf signs the items of responses.
    public let hierarchy: TestHierarchy
    /// Mints items (and, with ``apiKey``, bearer tokens) with real signatures.
    public let minter: TokenMinter
    /// The folder of every file below.
    public let directory: URL
    /// ``apiKey`` as PKCS #8 PEM (what Apple's `.p8` files hold).
    public let privateKeyFile: URL
    /// ``apiKey``'s public half, PEM SubjectPublicKeyInfo: the emulator verifies bearer tokens with it.
    public let publicKeyFile: URL
    /// The test root, DER (`--root`).
    public let rootFile: URL

    /// New keys, a new PKI and their files.
    public init(bundleId: String = "com.example.jwsverify", appAppleId: Int64 = 1234, seed: UInt64? = nil) throws {
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        apiKey = try TestPrivateKey.generate(curve: .p256)
        hierarchy = try TestHierarchy.generate(.appStoreEC, seed: seed)
        minter = try TokenMinter(hierarchy: hierarchy)
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("api-emulator-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        privateKeyFile = directory.appendingPathComponent("AuthKey_\(keyId).p8")
        publicKeyFile = directory.appendingPathComponent("AuthKey_\(keyId).pub.pem")
        rootFile = directory.appendingPathComponent("root.der")
        try apiKey.pkcs8PEM().write(to: privateKeyFile, atomically: true, encoding: .utf8)
        let base64 = apiKey.publicKeyDER.base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        try "-----BEGIN PUBLIC KEY-----\n\(base64)\n-----END PUBLIC KEY-----\n".write(
            to: publicKeyFile, atomically: true, encoding: .utf8)
        try hierarchy.rootDER.write(to: rootFile)
    }

    /// Removes ``directory``.
    public func removeFiles() {
        try? FileManager.default.removeItem(at: directory)
    }

    // MARK: Items

    /// The parameters of items that belong to this app in `environment`.
    public func parameters(environment: String = "Sandbox") -> PayloadParameters {
        PayloadParameters(bundleId: bundleId, appAppleId: appAppleId, environment: environment)
    }

    /// `count` signed transactions of this app (distinct transaction ids), with `overrides` applied.
    public func transactions(
        _ count: Int, environment: String = "Sandbox", overrides: PayloadOverrides = PayloadOverrides()
    ) throws -> [String] {
        try minter.mint(
            .transaction, parameters: parameters(environment: environment), overrides: overrides, count: count)
    }

    /// One signed item of `kind` for this app.
    public func item(
        _ kind: TestPayloadKind, environment: String = "Sandbox", overrides: PayloadOverrides = PayloadOverrides()
    ) throws -> String {
        try minter.mint(kind, parameters: parameters(environment: environment), overrides: overrides)[0]
    }

    /// A transaction of this app signed by an unrelated PKI with the same names: a forgery the verifier must
    /// reject at the chain.
    public func forgedTransaction(environment: String = "Sandbox") throws -> String {
        let forger = try TokenMinter(hierarchy: hierarchy.makeUnrelated())
        return try forger.mint(.transaction, parameters: parameters(environment: environment))[0]
    }

    // MARK: Bearer tokens

    /// A bearer token signed with ``apiKey`` (or `key`): header `{"alg","kid","typ"}` and claims
    /// `iss`, `iat`, `exp`, `aud`, `bid`, each replaceable for negative tests (nil removes a member).
    public func bearerToken(
        issuedAt: Date = Date(), lifetime: TimeInterval = 300, header: [String: JSONValue?] = [:],
        claims: [String: JSONValue?] = [:], key: TestPrivateKey? = nil
    ) throws -> String {
        let iat = Int64(issuedAt.timeIntervalSince1970)
        var headerObject: [String: JSONValue] = ["alg": .string("ES256"), "kid": .string(keyId), "typ": .string("JWT")]
        var claimsObject: [String: JSONValue] = [
            "iss": .string(issuerId), "iat": .integer(iat), "exp": .integer(iat + Int64(lifetime)),
            "aud": .string("appstoreconnect-v1"), "bid": .string(bundleId),
        ]
        for (name, value) in header { headerObject[name] = value }
        for (name, value) in claims { claimsObject[name] = value }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try minter.sign(
            headerJSON: encoder.encode(JSONValue.object(headerObject)),
            payloadJSON: encoder.encode(JSONValue.object(claimsObject)),
            signature: TokenMinter.Signature(key: key ?? apiKey))
    }

    // MARK: Responses

    /// The `subscriptionGroupIdentifier` of the minted transactions (`DefaultPayloads`).
    public static let subscriptionGroupIdentifier = "21482456"

    /// A Get All Subscription Statuses answer of this app in Sandbox: one group whose last transactions are
    /// `count` pairs of a signed transaction and a signed renewal info, each entry's `originalTransactionId` the
    /// one its two items state (as Apple's are).
    public func subscriptionStatuses(_ count: Int) throws -> APIEmulatorProcess.Response {
        let last = try (0..<count).map { index in
            let original = "200000000\(index)"
            let overrides = PayloadOverrides(set: ["originalTransactionId": .string(original)])
            return JSONValue.object([
                "status": .integer(1), "originalTransactionId": .string(original),
                "signedTransactionInfo": .string(try item(.transaction, overrides: overrides)),
                "signedRenewalInfo": .string(try item(.renewalInfo, overrides: overrides)),
            ])
        }
        return .init(
            json: .object([
                "environment": .string("Sandbox"), "bundleId": .string(bundleId), "appAppleId": .integer(appAppleId),
                "data": .array([
                    .object([
                        "subscriptionGroupIdentifier": .string(Self.subscriptionGroupIdentifier),
                        "lastTransactions": .array(last),
                    ])
                ]),
            ]))
    }
}
