import Foundation
import JWSSigning
import Testing

/// A tiny Advanced Commerce in-app request for the tests (the real request types live beside the protocol).
struct TestInAppRequest: AdvancedCommerceInAppRequest {
    var operation = "CREATE_SUBSCRIPTION"
    var version = "1"
    var items = [["SKU": "com.example.sku/1", "displayName": "Ünïcode \u{2063} name"]]
}

@Suite("Apple's signature creators, against Apple's Python library, openssl and cryptography")
struct SignatureCreatorTests {
    static let keyId = "KEYID12345"
    static let issuerId = "5f0b1c2d-aaaa-bbbb-cccc-1234567890ab"
    static let bundleId = "com.example.app"
    static let nonce = UUID(uuidString: "20FBA8A0-2B80-4A7D-A17F-85C1854727F8")!
    static let time = Date(timeIntervalSince1970: 1_700_000_123.75)

    /// Apple's Python library signs the same inputs; `cryptography` verifies every token given (ours and its own)
    /// with the public key PEM, and the V1 signature is made with a spy that records the exact bytes signed.
    static let pythonScript = #"""
        import base64, json, sys, uuid, attr
        from appstoreserverlibrary.jws_signature_creator import (PromotionalOfferV2SignatureCreator,
            IntroductoryOfferEligibilitySignatureCreator, AdvancedCommerceAPIInAppSignatureCreator,
            AdvancedCommerceAPIInAppRequest)
        from appstoreserverlibrary.promotional_offer import PromotionalOfferSignatureCreator
        from cryptography.hazmat.primitives.serialization import load_pem_public_key
        from cryptography.hazmat.primitives.asymmetric.ec import ECDSA
        from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
        from cryptography.hazmat.primitives.hashes import SHA256

        @attr.define
        class Request(AdvancedCommerceAPIInAppRequest):
            operation: str
            version: str
            items: list

        a = json.load(sys.stdin)
        key = open(a["key"], "rb").read()
        ids = dict(signing_key=key, key_id=a["keyId"], issuer_id=a["issuerId"], bundle_id=a["bundleId"])
        out = {}
        out["offerV2"] = PromotionalOfferV2SignatureCreator(**ids).create_signature("product.1", "offer.1", "txn.1")
        offers = PromotionalOfferV2SignatureCreator(**ids)
        out["offerV2NoTransaction"] = offers.create_signature("product.1", "offer.1", None)
        out["intro"] = IntroductoryOfferEligibilitySignatureCreator(**ids).create_signature("product.1", False, "txn.2")
        r = a["request"]
        out["advanced"] = AdvancedCommerceAPIInAppSignatureCreator(**ids).create_signature(
            Request(r["operation"], r["version"], r["items"]))

        v1 = PromotionalOfferSignatureCreator(key, a["keyId"], a["bundleId"])
        real = v1._signing_key
        seen = {}
        class Spy:
            def sign(self, data, algorithm):
                seen["message"] = data
                return real.sign(data, algorithm)
        v1._signing_key = Spy()
        out["v1"] = v1.create_signature("product.1", "offer.1", a["username"], uuid.UUID(a["nonce"]), a["timestamp"])
        out["v1Message"] = base64.b64encode(seen["message"]).decode()

        public = load_pem_public_key(open(a["public"], "rb").read())
        def pad(s): return s + "=" * (-len(s) % 4)
        verdicts = {}
        for name, token in a["tokens"].items():
            h, p, s = token.split(".")
            raw = base64.urlsafe_b64decode(pad(s))
            der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
            try:
                public.verify(der, (h + "." + p).encode(), ECDSA(SHA256())); verdicts[name] = len(raw) == 64
            except Exception:
                verdicts[name] = False
        try:
            public.verify(base64.b64decode(a["v1"]), seen["message"], ECDSA(SHA256())); verdicts["v1"] = True
        except Exception:
            verdicts["v1"] = False
        out["verdicts"] = verdicts
        print(json.dumps(out))
        """#

    /// Input: Apple's test key; each creator with a fixed nonce and time, and Apple's Python library with the same
    /// key and inputs. Expected: header and claims equal to Python's but for `nonce` and `iat` (which are ours:
    /// the fixed UUID lower-cased, whole seconds); every signature verifies with `openssl dgst` and with Python's
    /// `cryptography`; the V1 message is byte for byte Python's (our signature verifies over Python's message with
    /// `cryptography`, Python's over ours with `openssl`).
    @Test("header, claims and V1 message equal Apple's Python library's; openssl and cryptography verify")
    func matchesApplePython() throws {
        guard let python = try SigningFixtures.applePython("the signature creators against Apple's Python library")
        else { return }
        let scratch = try ScratchDirectory()
        let publicKey = scratch.path("public.pem")
        try SigningFixtures.openssl(["pkey", "-in", SigningFixtures.appleKeyPath, "-pubout", "-out", publicKey])
        let pem = try SigningFixtures.appleKeyPEM()
        let fixed = SignatureInputs.fixed(nonce: Self.nonce, now: Self.time)
        let ids = (keyId: Self.keyId, issuerId: Self.issuerId, bundleId: Self.bundleId)
        let offer = try PromotionalOfferV2SignatureCreator(
            signingKey: pem, keyId: ids.keyId, issuerId: ids.issuerId, bundleId: ids.bundleId
        ).with(fixed)
        let intro = try IntroductoryOfferEligibilitySignatureCreator(
            signingKey: pem, keyId: ids.keyId, issuerId: ids.issuerId, bundleId: ids.bundleId
        ).with(fixed)
        let advanced = try AdvancedCommerceInAppSignatureCreator(
            signingKey: pem, keyId: ids.keyId, issuerId: ids.issuerId, bundleId: ids.bundleId
        ).with(fixed)
        let request = TestInAppRequest()
        let ours: [String: String] = [
            "offerV2": try offer.createSignature(
                productId: "product.1", offerIdentifier: "offer.1", transactionId: "txn.1"),
            "offerV2NoTransaction": try offer.createSignature(productId: "product.1", offerIdentifier: "offer.1"),
            "intro": try intro.createSignature(
                productId: "product.1", allowIntroductoryOffer: false, transactionId: "txn.2"),
            "advanced": try advanced.createSignature(advancedCommerceInAppRequest: request),
        ]
        let username = "7E3FB20B-4CDB-47CC-936D-99D65F608138"
        let timestamp: Int64 = 1_698_148_900_000
        let v1 = try PromotionalOfferSignatureCreator(privateKey: pem, keyId: ids.keyId, bundleId: ids.bundleId)
            .createSignature(
                productIdentifier: "product.1", subscriptionOfferID: "offer.1", applicationUsername: username,
                nonce: Self.nonce, timestamp: timestamp)

        let answer = try SigningFixtures.python(
            python, Self.pythonScript,
            input: [
                "key": SigningFixtures.appleKeyPath, "public": publicKey, "keyId": ids.keyId, "issuerId": ids.issuerId,
                "bundleId": ids.bundleId, "tokens": ours, "v1": v1, "username": username,
                "nonce": Self.nonce.uuidString, "timestamp": timestamp,
                "request": ["operation": request.operation, "version": request.version, "items": request.items],
            ])
        let verdicts = try #require(answer["verdicts"] as? [String: Bool])
        #expect(verdicts.count == 5 && verdicts.values.allSatisfy { $0 }, "\(verdicts)")

        for (name, token) in ours {
            let mine = try DecodedJWS(token)
            let apple = try DecodedJWS(try #require(answer[name] as? String))
            #expect(mine.header as NSDictionary == apple.header as NSDictionary, "\(name)")
            #expect(mine.header as NSDictionary == ["typ": "JWT", "alg": "ES256", "kid": Self.keyId] as NSDictionary)
            if name == "advanced" {
                // Python writes the request's JSON with its own spacing; the JSON values must be equal.
                let decode = { (claims: [String: Any]) throws -> NSDictionary in
                    let text = try #require(claims["request"] as? String)
                    let data = try #require(Data(base64Encoded: text))
                    return try #require(try JSONSerialization.jsonObject(with: data) as? NSDictionary)
                }
                #expect(try decode(mine.claims) == decode(apple.claims))
                var mineRest = mine.claims, appleRest = apple.claims
                mineRest["request"] = nil
                appleRest["request"] = nil
                mineRest["nonce"] = nil; mineRest["iat"] = nil; appleRest["nonce"] = nil; appleRest["iat"] = nil
                #expect(mineRest as NSDictionary == appleRest as NSDictionary)
            } else {
                #expect(mine.claimsWithoutNonceAndTime == apple.claimsWithoutNonceAndTime, "\(name)")
            }
            #expect(Set(mine.claims.keys) == Set(apple.claims.keys), "\(name)")
            #expect(mine.claims["nonce"] as? String == Self.nonce.uuidString.lowercased())
            #expect((mine.claims["iat"] as? NSNumber)?.int64Value == 1_700_000_123)
            #expect(
                try opensslVerifies(derFromRaw(mine.signature), mine.signingInput, publicKey: publicKey, in: scratch))
        }
        #expect(try DecodedJWS(try #require(ours["offerV2NoTransaction"])).claims["transactionId"] == nil)

        // V1: the same bytes signed, each side's signature verified over the other's message.
        let pythonMessageText = try #require(answer["v1Message"] as? String)
        let pythonMessage = try #require(Data(base64Encoded: pythonMessageText))
        let expected = [
            ids.bundleId, ids.keyId, "product.1", "offer.1", username.lowercased(), Self.nonce.uuidString.lowercased(),
            String(timestamp),
        ].joined(separator: "\u{2063}")
        #expect(pythonMessage == Data(expected.utf8))
        let pythonV1Text = try #require(answer["v1"] as? String)
        let pythonV1 = try #require(Data(base64Encoded: pythonV1Text))
        #expect(try opensslVerifies(pythonV1, Data(expected.utf8), publicKey: publicKey, in: scratch))
        let ourV1 = try #require(Data(base64Encoded: v1))
        #expect(try opensslVerifies(ourV1, Data(expected.utf8), publicKey: publicKey, in: scratch))
    }

    /// Input: the `async` methods with Apple's labels and no fixed inputs. Expected: tokens that openssl verifies,
    /// a fresh lower-case UUID nonce each time, `iat` within a few seconds of now.
    @Test("the async methods with Apple's labels sign with a fresh nonce and the current time")
    func asyncMethods() async throws {
        let scratch = try ScratchDirectory()
        let publicKey = scratch.path("public.pem")
        try SigningFixtures.openssl(["pkey", "-in", SigningFixtures.appleKeyPath, "-pubout", "-out", publicKey])
        let pem = try SigningFixtures.appleKeyPEM()
        let offer = try PromotionalOfferV2SignatureCreator(signingKey: pem, keyId: "k", issuerId: "i", bundleId: "b")
        let intro = try IntroductoryOfferEligibilitySignatureCreator(
            signingKey: pem, keyId: "k", issuerId: "i", bundleId: "b")
        let advanced = try AdvancedCommerceInAppSignatureCreator(
            signingKey: pem, keyId: "k", issuerId: "i", bundleId: "b")
        let tokens = [
            try await offer.createSignature(productId: "p", offerIdentifier: "o", transactionId: nil),
            try await offer.createSignature(productId: "p", offerIdentifier: "o"),
            try await intro.createSignature(productId: "p", allowIntroductoryOffer: true, transactionId: "t"),
            try await advanced.createSignature(advancedCommerceInAppRequest: TestInAppRequest()),
        ]
        var nonces: Set<String> = []
        for token in tokens {
            let decoded = try DecodedJWS(token)
            let nonce = try #require(decoded.claims["nonce"] as? String)
            #expect(UUID(uuidString: nonce) != nil && nonce == nonce.lowercased())
            nonces.insert(nonce)
            let iat = try #require((decoded.claims["iat"] as? NSNumber)?.doubleValue)
            #expect(abs(iat - Date().timeIntervalSince1970) < 60)
            #expect(
                try opensslVerifies(
                    derFromRaw(decoded.signature), decoded.signingInput, publicKey: publicKey, in: scratch))
        }
        #expect(nonces.count == tokens.count)
        #expect(try DecodedJWS(tokens[2]).claims["allowIntroductoryOffer"] as? Bool == true)
    }

    /// Input: the V1 creator's two forms (Apple's `applicationUsername:` and `appAccountToken:`), one nonce and
    /// time. Expected: both sign the same message (upper-case inputs lower-cased), which openssl verifies.
    @Test("V1: the app account token form signs the same message as Apple's application username form")
    func v1Forms() throws {
        let scratch = try ScratchDirectory()
        let publicKey = scratch.path("public.pem")
        try SigningFixtures.openssl(["pkey", "-in", SigningFixtures.appleKeyPath, "-pubout", "-out", publicKey])
        let creator = try PromotionalOfferSignatureCreator(
            privateKey: SigningFixtures.appleKeyPEM(), keyId: "KEY", bundleId: "com.example")
        let token = UUID()
        let message = Data(
            ["com.example", "KEY", "P", "O", token.uuidString.lowercased(), Self.nonce.uuidString.lowercased(), "42"]
                .joined(separator: "\u{2063}").utf8)
        let signatures = [
            try creator.createSignature(
                productIdentifier: "P", subscriptionOfferID: "O", applicationUsername: token.uuidString,
                nonce: Self.nonce,
                timestamp: 42),
            try creator.createSignature(
                productIdentifier: "P", subscriptionOfferID: "O", appAccountToken: token, nonce: Self.nonce,
                timestamp: 42),
        ]
        for signature in signatures {
            #expect(
                try opensslVerifies(
                    try #require(Data(base64Encoded: signature)), message, publicKey: publicKey, in: scratch))
        }
    }

    /// Input: a creator given a wrong key. Expected: its initializer throws the key's code, as the key type does.
    @Test("a creator given a wrong key throws the key's code")
    func creatorRefusesWrongKey() throws {
        #expect(throws: SigningError(code: .emptyKey, message: "")) {
            try PromotionalOfferV2SignatureCreator(signingKey: "", keyId: "k", issuerId: "i", bundleId: "b")
        }
        #expect(throws: SigningError(code: .unreadableKey, message: "")) {
            try PromotionalOfferSignatureCreator(privateKey: "not a key", keyId: "k", bundleId: "b")
        }
    }
}
