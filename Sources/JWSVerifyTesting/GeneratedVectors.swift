import Foundation
import JWSVerify

/// Writes JWSVerify's generated test vectors: a fixed test hierarchy, one token file per case and
/// `manifest.json`, which says for each case what a verifier must answer.
///
/// Every case uses the manifest's default configuration unless it says otherwise: trusted roots
/// `[root.der]`, bundleId `com.example.jwsverify`, appAppleId 1234, environment `Sandbox`, and
/// the validation time is the payload's `signedDate` (`receiptCreationDate` for app
/// transactions). Certificates are valid from 2025-01-01 to 2035-01-01 unless a case needs
/// otherwise; every `signedDate` is 2026-03-15T12:00:00Z.
///
/// Output is deterministic for a seed except ECDSA signatures (certificate signatures and token
/// signatures), which OpenSSL 3.0 randomizes.
public enum GeneratedVectors {
    /// The seed used for the vectors checked into `TestVectors/generated`.
    public static let defaultSeed: UInt64 = 20_260_315
    /// The manifest's file name.
    public static let manifestFileName = "manifest.json"
    /// File names of the unrelated root written next to the hierarchy (for `roots` overrides).
    public static let otherRootDER = "other-root.der"
    /// PEM form of ``otherRootDER``.
    public static let otherRootPEM = "other-root.pem"
    /// The default configuration's bundle identifier.
    public static let bundleId = "com.example.jwsverify"
    /// The default configuration's app Apple ID.
    public static let appAppleId: Int64 = 1234
    /// The default configuration's environment.
    public static let environment = "Sandbox"
    /// `signedDate` of every token: 2026-03-15T12:00:00Z.
    public static let signedDate = Date(timeIntervalSince1970: 1_773_576_000)

    /// What a verifier must answer for a case.
    public struct Expected: Sendable, Hashable {
        /// `true` for "valid".
        public var valid: Bool
        /// The error code for an invalid token (for example `invalidSignature`), nil when valid.
        public var code: String?
        /// The verification step that fails (`header`, `signature`, `chain`, `claims`, `payload`),
        /// nil when valid.
        public var check: String?

        /// A valid token.
        public static let valid = Expected(valid: true, code: nil, check: nil)

        /// An invalid token failing `check` with `code`.
        public static func invalid(_ code: String, _ check: String) -> Expected {
            Expected(valid: false, code: code, check: check)
        }
    }

    /// One test vector.
    public struct Case: Sendable, Hashable {
        /// Stable identifier; the token file is `<id>.jws`.
        public var id: String
        /// What the case is about.
        public var comment: String
        /// How the token must be verified.
        public var kind: TestPayloadKind
        /// Members of the configuration that differ from the default (`bundleId`, `appAppleId`,
        /// `environment`, `roots`).
        public var configuration: [String: JSONValue]
        /// The expected answer.
        public var expected: Expected
        /// The compact JWS.
        public var token: String

        /// The token file name.
        public var file: String { id + ".jws" }
    }

    /// Writes the hierarchy (root.der, intermediate.der, leaf.der, their PEMs, the three key PEMs
    /// with mode 0600), other-root.der/pem, one `<id>.jws` per case and `manifest.json` into
    /// `directory`, creating it when missing.
    public static func write(to directory: URL, seed: UInt64) throws {
        let pki = try TestPKI.generate(seed: seed)
        var otherSeed = SeededGenerator(seed: seed, label: "other-pki")
        let other = try TestPKI.generate(seed: otherSeed.next())
        let cases = try makeCases(pki: pki, other: other, seed: seed)

        try pki.write(to: directory)
        try FileOutput.write(other.root.der, to: directory.appendingPathComponent(otherRootDER))
        try FileOutput.write(other.root.pem, to: directory.appendingPathComponent(otherRootPEM))
        for vector in cases {
            try FileOutput.write(vector.token, to: directory.appendingPathComponent(vector.file))
        }
        try FileOutput.write(manifest(cases), to: directory.appendingPathComponent(manifestFileName))
    }

    /// The manifest for `cases`.
    static func manifest(_ cases: [Case]) throws -> String {
        let configuration: OrderedJSON = .object([
            ("roots", .array([.value(.string(TestPKI.FileName.rootDER))])),
            ("bundleId", .value(.string(bundleId))),
            ("appAppleId", .value(.integer(appAppleId))),
            ("environment", .value(.string(environment))),
        ])
        let entries: [OrderedJSON] = cases.map { vector in
            var members: [(String, OrderedJSON)] = [
                ("id", .value(.string(vector.id))),
                ("comment", .value(.string(vector.comment))),
                ("file", .value(.string(vector.file))),
                ("kind", .value(.string(vector.kind.rawValue))),
            ]
            if !vector.configuration.isEmpty {
                let order = ["roots", "bundleId", "appAppleId", "environment"]
                let keys = vector.configuration.keys.sorted {
                    (order.firstIndex(of: $0) ?? order.count, $0) < (order.firstIndex(of: $1) ?? order.count, $1)
                }
                members.append(
                    (
                        "configuration",
                        .object(
                            keys.compactMap { key in vector.configuration[key].map { (key, OrderedJSON.sorted($0)) } })
                    ))
            }
            members.append(
                (
                    "expected",
                    .object([
                        ("result", .value(.string(vector.expected.valid ? "valid" : "invalid"))),
                        ("code", .value(vector.expected.code.map(JSONValue.string) ?? .null)),
                        ("check", .value(vector.expected.check.map(JSONValue.string) ?? .null)),
                    ])
                ))
            return .object(members)
        }
        return try OrderedJSON.object([("configuration", configuration), ("cases", .array(entries))]).pretty()
    }

    // MARK: Cases

    /// Every case, in manifest order.
    static func makeCases(pki: TestPKI, other: TestPKI, seed: UInt64) throws -> [Case] {
        let minter = TokenMinter(pki: pki)
        var cases: [Case] = []
        var index = 0

        func parameters(
            environment: String = GeneratedVectors.environment, type: String = "SUBSCRIBED",
            subtype: String? = "INITIAL_BUY"
        ) -> PayloadParameters {
            PayloadParameters(
                bundleId: bundleId, appAppleId: appAppleId, environment: environment,
                signedDate: signedDate, notificationType: type, notificationSubtype: subtype,
                seed: seed)
        }
        func payload(
            _ kind: TestPayloadKind, _ custom: PayloadParameters? = nil,
            using signer: TokenMinter? = nil
        ) throws -> [String: JSONValue] {
            index += 1
            return try (signer ?? minter).defaultPayload(kind, parameters: custom ?? parameters(), index: index)
        }
        func add(
            _ id: String, _ kind: TestPayloadKind, _ expected: Expected, _ comment: String,
            configuration: [String: JSONValue] = [:], token: String
        ) {
            cases.append(
                Case(
                    id: id, comment: comment, kind: kind, configuration: configuration,
                    expected: expected, token: token))
        }
        func rootsConfiguration(_ roots: [String]) -> [String: JSONValue] {
            ["roots": .array(roots.map(JSONValue.string))]
        }
        func caseSeed(_ label: String) -> UInt64 {
            var generator = SeededGenerator(seed: seed, label: "case|" + label)
            return generator.next()
        }

        // Valid tokens.
        add(
            "transaction-valid", .transaction, .valid,
            "Signed transaction with every field Apple sends for a subscription purchase with an introductory offer.",
            token: try minter.sign(payload(.transaction)))
        add(
            "renewal-valid", .renewal, .valid, "Signed renewal info of that subscription.",
            token: try minter.sign(payload(.renewal)))
        add(
            "app-transaction-valid", .appTransaction, .valid,
            "Signed app transaction (receiptType Sandbox); validation time is receiptCreationDate.",
            token: try minter.sign(payload(.appTransaction)))
        add(
            "notification-valid", .notification, .valid,
            "SUBSCRIBED/INITIAL_BUY notification whose data carries signedTransactionInfo and signedRenewalInfo, both signed by the same chain.",
            token: try minter.sign(payload(.notification)))
        add(
            "notification-app-data-valid", .notification, .valid,
            "RESCIND_CONSENT notification whose appData carries a signed signedAppTransactionInfo.",
            token: try minter.sign(payload(.notification, parameters(type: "RESCIND_CONSENT", subtype: nil))))
        add(
            "notification-summary-valid", .notification, .valid,
            "RENEWAL_EXTENSION/SUMMARY notification carrying summary instead of data.",
            token: try minter.sign(payload(.notification, parameters(type: "RENEWAL_EXTENSION", subtype: "SUMMARY"))))
        add(
            "notification-external-purchase-token-valid", .notification, .valid,
            "EXTERNAL_PURCHASE_TOKEN/UNREPORTED notification carrying externalPurchaseToken; the SANDBOX_ prefix of externalPurchaseId marks the sandbox.",
            token: try minter.sign(
                payload(.notification, parameters(type: "EXTERNAL_PURCHASE_TOKEN", subtype: "UNREPORTED"))))
        add(
            "realtime-valid", .realtime, .valid, "Retention Messaging realtime request.",
            token: try minter.sign(payload(.realtime)))
        var unknownFields = try payload(.transaction)
        unknownFields["futureField"] = .object(["nested": .bool(true), "values": .array([.integer(1), .integer(2)])])
        unknownFields["anotherNewField"] = .string("Apple adds fields over time")
        add(
            "transaction-unknown-fields-valid", .transaction, .valid,
            "Transaction with top-level fields no model knows yet; they must be ignored (and kept), not rejected.",
            token: try minter.sign(unknownFields))
        add(
            "transaction-multiple-roots-valid", .transaction, .valid,
            "Valid chain while two roots are trusted, the matching one second.",
            configuration: rootsConfiguration([otherRootDER, TestPKI.FileName.rootDER]),
            token: try minter.sign(payload(.transaction)))

        add(
            "transaction-x5c-root-ignored-valid", .transaction, .valid,
            "x5c[2] is the unrelated other root; the chain is built from the configured roots only, so x5c[2] does not matter.",
            token: try minter.sign(
                payload(.transaction),
                header: .init(
                    certificateChain: .custom(
                        [pki.leaf.base64, pki.intermediate.base64, other.root.base64]))))
        add(
            "app-transaction-production-valid", .appTransaction, .valid,
            "Production app transaction whose appAppleId 1234 matches the Production configuration.",
            configuration: ["environment": .string("Production"), "appAppleId": .integer(appAppleId)],
            token: try minter.sign(payload(.appTransaction, parameters(environment: "Production"))))
        var highS = try JWSSegments(token: try minter.sign(payload(.transaction)))
        highS.signature = negateS(highS.signature)
        add(
            "signature-high-s-valid", .transaction, .valid,
            "The signature's S replaced by n - S (the other valid ECDSA signature); ES256 does not require low S.",
            token: highS.token)

        // Format.
        let formatToken = try minter.sign(payload(.transaction))
        add(
            "format-two-segments", .transaction, .invalid("malformedToken", "format"),
            "Only header.payload: the signature segment and its dot are missing.",
            token: formatToken.split(separator: ".").prefix(2).joined(separator: "."))
        add(
            "format-non-canonical-base64url", .transaction, .invalid("malformedToken", "format"),
            "The last character of the signature segment has a non-zero unused bit: lenient decoders get the same 64 bytes and a good signature.",
            token: try nonCanonicalLastCharacter(formatToken))
        var duplicate = try JSONText.compact(.object(payload(.transaction)))
        duplicate.removeLast()
        duplicate += #","bundleId":"com.example.someone-else"}"#
        add(
            "format-duplicate-payload-member", .transaction, .invalid("malformedToken", "format"),
            "The signed payload has bundleId twice (first the expected one, then another); parsers disagree on which wins.",
            token: try minter.sign(payloadJSON: Data(duplicate.utf8)))

        // Signature.
        let transactionToken = try minter.sign(payload(.transaction))
        add(
            "signature-tampered-payload", .transaction, .invalid("invalidSignature", "signature"),
            "One character of the payload segment changed; the payload is still valid base64url and JSON with the same claims.",
            token: try tamperPayload(transactionToken))
        let kidHeader = TokenMinter.Header(extraMembers: ["kid": .string("jwsverify-test-1")])
        let kidToken = try minter.sign(payload(.transaction), header: kidHeader)
        add(
            "signature-tampered-header", .transaction, .invalid("invalidSignature", "signature"),
            "Header member kid changed from jwsverify-test-1 to jwsverify-test-2 after signing; alg is still ES256 and x5c unchanged.",
            token: try tamperHeader(kidToken))
        var flipped = try JWSSegments(token: try minter.sign(payload(.transaction)))
        flipped.signature[flipped.signature.count - 1] ^= 0x01
        add(
            "signature-last-byte-flipped", .transaction, .invalid("invalidSignature", "signature"),
            "The last byte of the 64-byte R||S signature flipped.", token: flipped.token)
        let otherSigner = try TestPrivateKey.generate(
            curve: .p256, seed: caseSeed("other-signer"), label: "other-signer")
        add(
            "signature-other-key", .transaction, .invalid("invalidSignature", "signature"),
            "A well-formed ES256 signature by a P-256 key that is not the leaf's.",
            token: try minter.sign(payload(.transaction), signature: .init(key: otherSigner)))
        add(
            "signature-der-encoded", .transaction, .invalid("invalidSignature", "signature"),
            "The signature is a DER ECDSA-Sig-Value by the leaf key instead of raw R||S.",
            token: try minter.sign(payload(.transaction), signature: .init(encoding: .der)))

        // Header.
        let noneHeader = try minter.headerJSON(.init(algorithm: "none"))
        let nonePayload = try JSONText.compactData(.object(payload(.transaction)))
        add(
            "header-alg-none", .transaction, .invalid("unsupportedAlgorithm", "header"),
            "alg none with the real x5c and an empty signature segment.",
            token: Base64URL.encode(noneHeader) + "." + Base64URL.encode(nonePayload) + ".")
        add(
            "header-alg-es384", .transaction, .invalid("unsupportedAlgorithm", "header"),
            "alg ES384 (only ES256 is accepted), signed with the leaf key and SHA-256.",
            token: try minter.sign(payload(.transaction), header: .init(algorithm: "ES384")))
        add(
            "header-crit-member", .transaction, .invalid("unsupportedAlgorithm", "header"),
            "alg ES256 with a crit member naming an extension (jwsverify) no verifier understands.",
            token: try minter.sign(
                payload(.transaction),
                header: .init(extraMembers: [
                    "crit": .array([.string("jwsverify")]), "jwsverify": .bool(true),
                ])))
        add(
            "header-missing-x5c", .transaction, .invalid("missingCertificateChain", "header"),
            "Header without x5c.",
            token: try minter.sign(payload(.transaction), header: .init(certificateChain: .omitted)))
        add(
            "header-two-certificates", .transaction, .invalid("invalidChainLength", "header"),
            "x5c with leaf and intermediate only.",
            token: try minter.sign(
                payload(.transaction),
                header: .init(certificateChain: .custom([pki.leaf.base64, pki.intermediate.base64]))))
        add(
            "header-four-certificates", .transaction, .invalid("invalidChainLength", "header"),
            "x5c with leaf, intermediate, root and the root again.",
            token: try minter.sign(
                payload(.transaction), header: .init(certificateChain: .custom(pki.x5c + [pki.root.base64]))))

        // Chain.
        var garbageGenerator = SeededGenerator(seed: seed, label: "garbage-certificate")
        let garbage = garbageGenerator.bytes(600).base64EncodedString()
        add(
            "chain-garbage-certificate", .transaction, .invalid("invalidCertificate", "chain"),
            "x5c[1] is the base64 of 600 random bytes.",
            token: try minter.sign(
                payload(.transaction),
                header: .init(certificateChain: .custom([pki.leaf.base64, garbage, pki.root.base64]))))

        let plainIntermediate = try pki.makeIntermediate(
            includeAppleMarker: false, seed: caseSeed("intermediate-without-marker"))
        let leafUnderPlain = try pki.makeLeaf(
            issuer: plainIntermediate, seed: caseSeed("leaf-under-plain-intermediate"))
        let plainIntermediateMinter = TokenMinter(
            pki: pki.replacing(intermediate: plainIntermediate).replacing(leaf: leafUnderPlain))
        add(
            "chain-intermediate-without-marker", .transaction, .invalid("missingAppleExtension", "chain"),
            "The intermediate lacks 1.2.840.113635.100.6.2.1; otherwise the chain is valid.",
            token: try plainIntermediateMinter.sign(payload(.transaction)))

        let plainLeaf = try pki.makeLeaf(includeAppleMarker: false, seed: caseSeed("leaf-without-marker"))
        add(
            "chain-leaf-without-marker", .transaction, .invalid("missingAppleExtension", "chain"),
            "The leaf lacks 1.2.840.113635.100.6.11.1; otherwise the chain is valid.",
            token: try TokenMinter(pki: pki.replacing(leaf: plainLeaf)).sign(payload(.transaction)))

        let selfSigned = try pki.makeSelfSignedLeaf(seed: caseSeed("self-signed-leaf"))
        add(
            "chain-self-signed-leaf", .transaction, .invalid("untrustedChain", "chain"),
            "x5c[0] is a self-signed P-256 certificate with the leaf marker; x5c[1] and x5c[2] are the real intermediate and root.",
            token: try TokenMinter(pki: pki.replacing(leaf: selfSigned)).sign(payload(.transaction)))

        let otherMinter = TokenMinter(pki: other)
        add(
            "chain-wrong-root", .transaction, .invalid("untrustedChain", "chain"),
            "The whole chain comes from another root with the same names but other keys.",
            token: try otherMinter.sign(payload(.transaction, using: otherMinter)))
        add(
            "chain-root-not-configured", .transaction, .invalid("untrustedChain", "chain"),
            "The real chain, but only the unrelated other-root.der is trusted.",
            configuration: rootsConfiguration([otherRootDER]),
            token: try minter.sign(payload(.transaction)))

        let forgerKey = try TestPrivateKey.generate(curve: .p384, seed: caseSeed("forger"), label: "forger")
        let forged = try pki.makeLeaf(
            issuer: TestCredential(certificate: pki.intermediate, privateKey: forgerKey),
            seed: caseSeed("forged-leaf"))
        add(
            "chain-forged-leaf", .transaction, .invalid("untrustedChain", "chain"),
            "The leaf names the real intermediate as issuer (same name and authority key identifier) but is signed by another key.",
            token: try TokenMinter(pki: pki.replacing(leaf: forged)).sign(payload(.transaction)))

        let notCA = try pki.makeIntermediate(isCertificateAuthority: false, seed: caseSeed("intermediate-not-ca"))
        let leafUnderNotCA = try pki.makeLeaf(issuer: notCA, seed: caseSeed("leaf-under-not-ca"))
        add(
            "chain-intermediate-not-ca", .transaction, .invalid("untrustedChain", "chain"),
            "The intermediate has the marker but basicConstraints CA:FALSE, so it cannot issue the leaf.",
            token: try TokenMinter(pki: pki.replacing(intermediate: notCA).replacing(leaf: leafUnderNotCA))
                .sign(payload(.transaction)))

        let expiredLeaf = try pki.makeLeaf(
            validity: Date(timeIntervalSince1970: 1_735_689_600)...Date(timeIntervalSince1970: 1_767_225_599),
            seed: caseSeed("expired-leaf"))
        add(
            "chain-leaf-expired", .transaction, .invalid("certificateExpired", "chain"),
            "The leaf is valid 2025-01-01 to 2025-12-31T23:59:59Z; signedDate is 2026-03-15.",
            token: try TokenMinter(pki: pki.replacing(leaf: expiredLeaf)).sign(payload(.transaction)))
        let futureLeaf = try pki.makeLeaf(
            validity: Date(timeIntervalSince1970: 1_798_761_600)...Date(timeIntervalSince1970: 1_893_456_000),
            seed: caseSeed("future-leaf"))
        add(
            "chain-leaf-not-yet-valid", .transaction, .invalid("certificateExpired", "chain"),
            "The leaf is valid 2027-01-01 to 2030-01-01; signedDate is 2026-03-15.",
            token: try TokenMinter(pki: pki.replacing(leaf: futureLeaf)).sign(payload(.transaction)))
        let expiredIntermediate = try pki.makeIntermediate(
            validity: Date(timeIntervalSince1970: 1_735_689_600)...Date(timeIntervalSince1970: 1_767_225_599),
            seed: caseSeed("expired-intermediate"))
        let leafUnderExpired = try pki.makeLeaf(
            validity: TestPKI.defaultValidity, issuer: expiredIntermediate,
            seed: caseSeed("leaf-under-expired-intermediate"))
        add(
            "chain-intermediate-expired", .transaction, .invalid("certificateExpired", "chain"),
            "The intermediate expired 2025-12-31T23:59:59Z; the leaf itself is valid at signedDate.",
            token: try TokenMinter(
                pki: pki.replacing(intermediate: expiredIntermediate).replacing(leaf: leafUnderExpired)
            )
            .sign(payload(.transaction)))

        let p384Leaf = try pki.makeLeaf(curve: .p384, seed: caseSeed("p384-leaf"))
        add(
            "chain-p384-leaf", .transaction, .invalid("unsupportedKey", "chain"),
            "alg ES256 but the leaf key is P-384; the signature is a raw 96-byte R||S by that key over SHA-256.",
            token: try TokenMinter(pki: pki.replacing(leaf: p384Leaf)).sign(payload(.transaction)))

        let expiredPlainLeaf = try pki.makeLeaf(
            validity: Date(timeIntervalSince1970: 1_735_689_600)...Date(timeIntervalSince1970: 1_767_225_599),
            includeAppleMarker: false, seed: caseSeed("expired-leaf-without-marker"))
        add(
            "chain-expired-leaf-without-marker", .transaction, .invalid("certificateExpired", "chain"),
            "The leaf is both expired and without its marker: the date check comes before the marker check.",
            token: try TokenMinter(pki: pki.replacing(leaf: expiredPlainLeaf)).sign(payload(.transaction)))
        let otherExpiredLeaf = try other.makeLeaf(
            validity: Date(timeIntervalSince1970: 1_735_689_600)...Date(timeIntervalSince1970: 1_767_225_599),
            seed: caseSeed("other-expired-leaf"))
        let otherExpiredMinter = TokenMinter(pki: other.replacing(leaf: otherExpiredLeaf))
        add(
            "chain-untrusted-and-expired", .transaction, .invalid("untrustedChain", "chain"),
            "Chain from the unrelated root with an expired leaf: a trust failure is reported before a date failure.",
            token: try otherExpiredMinter.sign(payload(.transaction, using: otherExpiredMinter)))

        // Claims.
        var wrongBundle = try payload(.transaction)
        wrongBundle["bundleId"] = .string("com.example.someone-else")
        add(
            "claims-wrong-bundle-id", .transaction, .invalid("invalidAppIdentifier", "claims"),
            "bundleId com.example.someone-else while com.example.jwsverify is expected.",
            token: try minter.sign(wrongBundle))
        add(
            "claims-wrong-environment", .transaction, .invalid("invalidEnvironment", "claims"),
            "Payload environment Production while the configuration expects Sandbox.",
            token: try minter.sign(payload(.transaction, parameters(environment: "Production"))))
        var productionApp = try payload(.appTransaction, parameters(environment: "Production"))
        productionApp["appAppleId"] = nil
        add(
            "claims-app-transaction-production-missing-app-apple-id", .appTransaction,
            .invalid("invalidAppIdentifier", "claims"),
            "Production app transaction without appAppleId; in Production the app Apple ID must match.",
            configuration: ["environment": .string("Production"), "appAppleId": .integer(appAppleId)],
            token: try minter.sign(productionApp))
        var wrongAppleId = try payload(.notification, parameters(environment: "Production"))
        if case .object(var data)? = wrongAppleId["data"] {
            data["appAppleId"] = .integer(9_999)
            wrongAppleId["data"] = .object(data)
        }
        add(
            "claims-notification-production-wrong-app-apple-id", .notification,
            .invalid("invalidAppIdentifier", "claims"),
            "Production notification whose data.appAppleId is 9999 while 1234 is expected.",
            configuration: ["environment": .string("Production")],
            token: try minter.sign(wrongAppleId))
        var bodyless = try payload(.notification)
        bodyless["data"] = nil
        add(
            "claims-notification-without-body", .notification, .invalid("invalidAppIdentifier", "claims"),
            "Notification with none of data, summary, externalPurchaseToken, appData: nothing identifies the app.",
            token: try minter.sign(bodyless))

        // Payload.
        add(
            "payload-transaction-as-app-transaction", .appTransaction, .invalid("payloadDecodingFailed", "payload"),
            "A valid signed transaction verified as an app transaction.",
            token: try minter.sign(payload(.transaction)))

        return cases
    }

    /// Changes one character of the payload segment so that the payload is still valid base64url
    /// and a JSON object with the same members and the same `bundleId`, `environment` and
    /// `signedDate`; the choice is deterministic.
    static func tamperPayload(_ token: String) throws -> String {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let segment = Array(parts[1])
        guard let original = Base64URL.decode(parts[1]) else {
            throw JWSTestingError.invalidArgument("payload segment is not base64url")
        }
        let originalObject = try JSONText.parseObject(original)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let middle = segment.count / 2
        // Positions from the middle outwards, never the last (whose low bits may be padding).
        let positions = (0..<(segment.count - 1)).sorted { abs($0 - middle) < abs($1 - middle) }
        for position in positions {
            for replacement in alphabet where replacement != segment[position] {
                var changed = segment
                changed[position] = replacement
                guard let decoded = Base64URL.decode(String(changed)), decoded != original,
                    String(data: decoded, encoding: .utf8) != nil,
                    let object = try? JSONText.parseObject(decoded),
                    Set(object.keys) == Set(originalObject.keys),
                    ["bundleId", "environment", "signedDate"].allSatisfy({ object[$0] == originalObject[$0] })
                else { continue }
                return [parts[0], String(changed), parts[2]].joined(separator: ".")
            }
        }
        throw JWSTestingError.invalidArgument("no single-character payload change keeps the JSON valid")
    }

    /// The P-256 group order n, big-endian.
    static let p256Order: [UInt8] = [
        0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17, 0x9e, 0x84, 0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x51,
    ]

    /// A raw P-256 R‖S signature with S replaced by n - S, which verifies as well.
    static func negateS(_ signature: Data) -> Data {
        let bytes = [UInt8](signature)
        var negated = [UInt8](repeating: 0, count: 32)
        var borrow = 0
        for index in stride(from: 31, through: 0, by: -1) {
            var difference = Int(p256Order[index]) - Int(bytes[32 + index]) - borrow
            borrow = difference < 0 ? 1 : 0
            if difference < 0 { difference += 256 }
            negated[index] = UInt8(difference)
        }
        return Data(bytes[0..<32] + negated)
    }

    /// Sets an unused low bit in the last character of the signature segment (64 bytes leave four
    /// unused bits), so that only strict base64url decoders notice.
    static func nonCanonicalLastCharacter(_ token: String) throws -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var characters = Array(token)
        guard let last = characters.last, let index = alphabet.firstIndex(of: last) else {
            throw JWSTestingError.invalidArgument("token does not end in a base64url character")
        }
        characters[characters.count - 1] = alphabet[index | 1]
        return String(characters)
    }

    /// Replaces `jwsverify-test-1` by `jwsverify-test-2` in the header after signing.
    static func tamperHeader(_ token: String) throws -> String {
        var parts = try JWSSegments(token: token)
        let original = String(decoding: parts.header, as: UTF8.self)
        let changed = original.replacingOccurrences(of: "\"jwsverify-test-1\"", with: "\"jwsverify-test-2\"")
        guard changed != original else {
            throw JWSTestingError.invalidArgument("the header has no kid to tamper with")
        }
        parts.header = Data(changed.utf8)
        return parts.token
    }
}
