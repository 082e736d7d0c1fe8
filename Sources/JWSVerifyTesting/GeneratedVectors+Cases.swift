import Foundation
import JWSVerify

// The catalogue of cases written by `GeneratedVectors.write(to:seed:)`.
extension GeneratedVectors {
    /// Every case, in manifest order.
    static func makeCases(pki: TestHierarchy, other: TestHierarchy, seed: UInt64) throws -> [Case] {
        let minter = try TokenMinter(hierarchy: pki)
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
            configuration: rootsConfiguration([otherRootDER, TestHierarchy.FileName.rootDER]),
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
        let plainIntermediateMinter = try TokenMinter(
            hierarchy: pki.replacing(intermediate: plainIntermediate).replacing(leaf: leafUnderPlain))
        add(
            "chain-intermediate-without-marker", .transaction, .invalid("missingAppleExtension", "chain"),
            "The intermediate lacks 1.2.840.113635.100.6.2.1; otherwise the chain is valid.",
            token: try plainIntermediateMinter.sign(payload(.transaction)))

        let plainLeaf = try pki.makeLeaf(includeAppleMarker: false, seed: caseSeed("leaf-without-marker"))
        add(
            "chain-leaf-without-marker", .transaction, .invalid("missingAppleExtension", "chain"),
            "The leaf lacks 1.2.840.113635.100.6.11.1; otherwise the chain is valid.",
            token: try TokenMinter(hierarchy: pki.replacing(leaf: plainLeaf)).sign(payload(.transaction)))

        let selfSigned = try pki.makeSelfSignedLeaf(seed: caseSeed("self-signed-leaf"))
        add(
            "chain-self-signed-leaf", .transaction, .invalid("untrustedChain", "chain"),
            "x5c[0] is a self-signed P-256 certificate with the leaf marker; x5c[1] and x5c[2] are the real intermediate and root.",
            token: try TokenMinter(hierarchy: pki.replacing(leaf: selfSigned)).sign(payload(.transaction)))

        let otherMinter = try TokenMinter(hierarchy: other)
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
            issuer: TestSigningCredential(certificate: pki.intermediate, privateKey: .ec(forgerKey)),
            seed: caseSeed("forged-leaf"))
        add(
            "chain-forged-leaf", .transaction, .invalid("untrustedChain", "chain"),
            "The leaf names the real intermediate as issuer (same name and authority key identifier) but is signed by another key.",
            token: try TokenMinter(hierarchy: pki.replacing(leaf: forged)).sign(payload(.transaction)))

        let notCA = try pki.makeIntermediate(isCertificateAuthority: false, seed: caseSeed("intermediate-not-ca"))
        let leafUnderNotCA = try pki.makeLeaf(issuer: notCA, seed: caseSeed("leaf-under-not-ca"))
        add(
            "chain-intermediate-not-ca", .transaction, .invalid("untrustedChain", "chain"),
            "The intermediate has the marker but basicConstraints CA:FALSE, so it cannot issue the leaf.",
            token: try TokenMinter(hierarchy: pki.replacing(intermediate: notCA).replacing(leaf: leafUnderNotCA))
                .sign(payload(.transaction)))

        let expiredLeaf = try pki.makeLeaf(
            validity: Date(timeIntervalSince1970: 1_735_689_600)...Date(timeIntervalSince1970: 1_767_225_599),
            seed: caseSeed("expired-leaf"))
        add(
            "chain-leaf-expired", .transaction, .invalid("certificateExpired", "chain"),
            "The leaf is valid 2025-01-01 to 2025-12-31T23:59:59Z; signedDate is 2026-03-15.",
            token: try TokenMinter(hierarchy: pki.replacing(leaf: expiredLeaf)).sign(payload(.transaction)))
        let futureLeaf = try pki.makeLeaf(
            validity: Date(timeIntervalSince1970: 1_798_761_600)...Date(timeIntervalSince1970: 1_893_456_000),
            seed: caseSeed("future-leaf"))
        add(
            "chain-leaf-not-yet-valid", .transaction, .invalid("certificateExpired", "chain"),
            "The leaf is valid 2027-01-01 to 2030-01-01; signedDate is 2026-03-15.",
            token: try TokenMinter(hierarchy: pki.replacing(leaf: futureLeaf)).sign(payload(.transaction)))
        let expiredIntermediate = try pki.makeIntermediate(
            validity: Date(timeIntervalSince1970: 1_735_689_600)...Date(timeIntervalSince1970: 1_767_225_599),
            seed: caseSeed("expired-intermediate"))
        let leafUnderExpired = try pki.makeLeaf(
            validity: TestHierarchy.defaultValidity, issuer: expiredIntermediate,
            seed: caseSeed("leaf-under-expired-intermediate"))
        add(
            "chain-intermediate-expired", .transaction, .invalid("certificateExpired", "chain"),
            "The intermediate expired 2025-12-31T23:59:59Z; the leaf itself is valid at signedDate.",
            token: try TokenMinter(
                hierarchy: pki.replacing(intermediate: expiredIntermediate).replacing(leaf: leafUnderExpired)
            )
            .sign(payload(.transaction)))

        let p384Seed = caseSeed("p384-leaf")
        let p384Leaf = try pki.makeLeaf(
            key: .ec(TestPrivateKey.generate(curve: .p384, seed: p384Seed, label: "extra-leaf")), seed: p384Seed)
        add(
            "chain-p384-leaf", .transaction, .invalid("unsupportedKey", "chain"),
            "alg ES256 but the leaf key is P-384; the signature is a raw 96-byte R||S by that key over SHA-256.",
            token: try TokenMinter(hierarchy: pki.replacing(leaf: p384Leaf)).sign(payload(.transaction)))

        let expiredPlainLeaf = try pki.makeLeaf(
            validity: Date(timeIntervalSince1970: 1_735_689_600)...Date(timeIntervalSince1970: 1_767_225_599),
            includeAppleMarker: false, seed: caseSeed("expired-leaf-without-marker"))
        add(
            "chain-expired-leaf-without-marker", .transaction, .invalid("certificateExpired", "chain"),
            "The leaf is both expired and without its marker: the date check comes before the marker check.",
            token: try TokenMinter(hierarchy: pki.replacing(leaf: expiredPlainLeaf)).sign(payload(.transaction)))
        let otherExpiredLeaf = try other.makeLeaf(
            validity: Date(timeIntervalSince1970: 1_735_689_600)...Date(timeIntervalSince1970: 1_767_225_599),
            seed: caseSeed("other-expired-leaf"))
        let otherExpiredMinter = try TokenMinter(hierarchy: other.replacing(leaf: otherExpiredLeaf))
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
}
