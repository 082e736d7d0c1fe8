import Foundation
import JWSVerify
import JWSVerifyTesting
import Testing

@Suite("Token minting")
struct TokenMinterTests {
    static let pki: TestHierarchy = {
        do {
            return try TestHierarchy.generate(.appStoreEC, seed: 1234)
        } catch {
            fatalError("cannot generate the test PKI: \(error)")
        }
    }()

    static let signedDate = Date(timeIntervalSince1970: 1_773_576_000)

    static func parameters(seed: UInt64 = 99) -> PayloadParameters {
        PayloadParameters(signedDate: signedDate, seed: seed)
    }

    @Test("A minted token has Apple's header, base64url segments without padding and a 64-byte signature")
    func shape() throws {
        let minter = try TokenMinter(hierarchy: Self.pki)
        let token = try minter.mint(.transaction, parameters: Self.parameters())[0]
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        #expect(segments.count == 3)
        for segment in segments {
            #expect(!segment.contains("=") && !segment.contains("+") && !segment.contains("/"))
        }
        let header = try #require(base64URLDecode(segments[0]))
        let x5c = Self.pki.x5c.map { "\"\($0)\"" }.joined(separator: ",")
        #expect(String(decoding: header, as: UTF8.self) == "{\"alg\":\"ES256\",\"x5c\":[\(x5c)]}")
        #expect(Self.pki.x5c[0] == Self.pki.leaf.der.base64EncodedString())
        #expect(try #require(base64URLDecode(segments[2])).count == 64)
        let parsed = try JWSSegments(token: token)
        #expect(try parsed.payloadObject()["bundleId"] == .string("com.example.jwsverify"))
    }

    @Test("openssl dgst -sha256 -verify accepts the signature once R||S is converted to DER")
    func opensslVerifiesSignature() throws {
        guard let openssl = Tools.requireOpenSSL("opensslVerifiesSignature") else { return }
        let directory = try TemporaryDirectory()
        try Self.pki.write(to: directory.url)
        let token = try TokenMinter(hierarchy: Self.pki).mint(.notification, parameters: Self.parameters())[0]
        let parts = try JWSSegments(token: token)
        try parts.signingInput.write(to: directory.file("input"))
        try derSignature(raw: parts.signature).write(to: directory.file("signature.der"))
        let publicKey = try Tools.run(
            openssl,
            [
                "x509", "-inform", "DER", "-in", directory.file("leaf.der").path,
                "-pubkey", "-noout", "-out", directory.file("leaf.pub.pem").path,
            ])
        #expect(publicKey.status == 0, "\(publicKey.text)")
        let verify = try Tools.run(
            openssl,
            [
                "dgst", "-sha256", "-verify", directory.file("leaf.pub.pem").path,
                "-signature", directory.file("signature.der").path, directory.file("input").path,
            ])
        #expect(verify.status == 0 && verify.text.contains("Verified OK"), "\(verify.text)")

        var broken = parts.signature
        broken[5] ^= 0x80
        try derSignature(raw: broken).write(to: directory.file("broken.der"))
        let rejected = try Tools.run(
            openssl,
            [
                "dgst", "-sha256", "-verify", directory.file("leaf.pub.pem").path,
                "-signature", directory.file("broken.der").path, directory.file("input").path,
            ])
        #expect(rejected.status != 0, "\(rejected.text)")
    }

    @Test(
        "Python cryptography verifies the token, and no longer does after any single-byte change of header, payload or signature"
    )
    func everySingleByteChangeBreaksTheSignature() throws {
        guard let python = Tools.requirePython("everySingleByteChangeBreaksTheSignature") else { return }
        let directory = try TemporaryDirectory()
        let token = try TokenMinter(hierarchy: Self.pki).mint(.transaction, parameters: Self.parameters())[0]
        try token.write(to: directory.file("token.jws"), atomically: true, encoding: .utf8)
        let script =
            pythonJWSHelpers + #"""

                token = open(sys.argv[1]).read()
                segments = [b64u_decode(part) for part in token.split(".")]
                if not verifies(*segments):
                    print("the original token does not verify")
                    sys.exit(1)
                checked = 0
                for which in range(3):
                    for index in range(len(segments[which])):
                        changed = list(segments)
                        data = bytearray(changed[which])
                        data[index] ^= 0x01
                        changed[which] = bytes(data)
                        if verifies(*changed):
                            print("still verifies after changing byte", index, "of segment", which)
                            sys.exit(1)
                        checked += 1
                print("checked", checked, "changes")
                """#
        let output = try Tools.python(python, script: script, [directory.file("token.jws").path])
        #expect(output.status == 0, "\(output.text)")
        #expect(output.text.contains("checked"), "\(output.text)")
    }

    @Test("A notification's nested signedTransactionInfo and signedRenewalInfo are tokens signed by the same chain")
    func nestedTokens() throws {
        let minter = try TokenMinter(hierarchy: Self.pki)
        let notification = try minter.defaultPayload(.notification, parameters: Self.parameters())
        #expect(notification["version"] == .string("2.0"))
        #expect(notification["notificationType"] == .string("SUBSCRIBED"))
        #expect(notification["subtype"] == .string("INITIAL_BUY"))
        let data = try #require(notification["data"]?.objectValue)
        let transaction = try #require(data["signedTransactionInfo"]?.stringValue)
        let renewal = try #require(data["signedRenewalInfo"]?.stringValue)
        #expect(data["appAppleId"] == .integer(1234))
        for nested in [transaction, renewal] {
            let parts = try JWSSegments(token: nested)
            #expect(try parts.headerObject()["x5c"] == .array(Self.pki.x5c.map(JSONValue.string)))
            #expect(try parts.payloadObject()["environment"] == .string("Sandbox"))
        }
        guard let python = Tools.requirePython("nestedTokens (python part)") else { return }
        let token = try minter.sign(notification)
        let script =
            pythonJWSHelpers + #"""

                def check(token):
                    segments = [b64u_decode(part) for part in token.split(".")]
                    assert verifies(*segments), "signature"
                    return json.loads(segments[1])
                payload = check(sys.argv[1])
                check(payload["data"]["signedTransactionInfo"])
                check(payload["data"]["signedRenewalInfo"])
                print("ok")
                """#
        let output = try Tools.python(python, script: script, [token])
        #expect(output.status == 0 && output.text.contains("ok"), "\(output.text)")
    }

    @Test("Default payloads carry Apple's fields with dates in milliseconds")
    func defaultPayloads() throws {
        let minter = try TokenMinter(hierarchy: Self.pki)
        let signed = JSONValue.integer(1_773_576_000_000)
        let transaction = try minter.defaultPayload(.transaction, parameters: Self.parameters())
        for key in [
            "transactionId", "originalTransactionId", "webOrderLineItemId", "bundleId", "productId",
            "subscriptionGroupIdentifier", "purchaseDate", "originalPurchaseDate", "expiresDate", "quantity",
            "type", "appAccountToken", "inAppOwnershipType", "signedDate", "environment",
            "transactionReason", "storefront", "storefrontId", "price", "currency", "offerType",
            "offerDiscountType", "offerPeriod", "appTransactionId",
        ] {
            #expect(transaction[key] != nil, "transaction.\(key)")
        }
        #expect(transaction["signedDate"] == signed)
        #expect(transaction["environment"] == .string("Sandbox"))
        let renewal = try minter.defaultPayload(.renewal, parameters: Self.parameters())
        #expect(renewal["originalTransactionId"] == transaction["originalTransactionId"])
        #expect(renewal["renewalDate"] == transaction["expiresDate"])
        let app = try minter.defaultPayload(.appTransaction, parameters: Self.parameters())
        #expect(app["receiptCreationDate"] == signed)
        #expect(app["receiptType"] == .string("Sandbox"))
        #expect(app["appAppleId"] == .integer(1234))
        let realtime = try minter.defaultPayload(.realtime, parameters: Self.parameters())
        for key in [
            "originalTransactionId", "appAppleId", "productId", "userLocale", "requestIdentifier",
            "environment", "signedDate",
        ] {
            #expect(realtime[key] != nil, "realtime.\(key)")
        }
        var summaryParameters = Self.parameters()
        summaryParameters.notificationType = "RENEWAL_EXTENSION"
        summaryParameters.notificationSubtype = "SUMMARY"
        let summary = try minter.defaultPayload(.notification, parameters: summaryParameters)
        #expect(summary["summary"]?.objectValue?["bundleId"] == .string("com.example.jwsverify"))
        #expect(summary["data"] == nil)
        var rescind = Self.parameters()
        rescind.notificationType = "RESCIND_CONSENT"
        rescind.notificationSubtype = nil
        let appData = try #require(
            try minter.defaultPayload(.notification, parameters: rescind)["appData"]?.objectValue)
        let nested = try JWSSegments(token: try #require(appData["signedAppTransactionInfo"]?.stringValue))
        #expect(try nested.payloadObject()["receiptType"] == .string("Sandbox"))
        #expect(
            try minter.defaultPayload(.transaction, parameters: Self.parameters())
                == minter.defaultPayload(.transaction, parameters: Self.parameters()))
    }

    @Test("count: N gives tokens with distinct transaction ids and notification UUIDs")
    func distinctTokens() throws {
        let minter = try TokenMinter(hierarchy: Self.pki)
        let transactions = try minter.mint(.transaction, parameters: Self.parameters(), count: 5)
        let ids = try transactions.map { try JWSSegments(token: $0).payloadObject()["transactionId"] }
        #expect(Set(ids.compactMap { $0?.stringValue }).count == 5)
        var random = Self.parameters()
        random.seed = nil
        let notifications = try minter.mint(.notification, parameters: random, count: 3)
        let uuids = try notifications.map { try JWSSegments(token: $0).payloadObject()["notificationUUID"] }
        #expect(Set(uuids.compactMap { $0?.stringValue }).count == 3)
        let requests = try minter.mint(.realtime, parameters: Self.parameters(), count: 3)
        let requestIds = try requests.map { try JWSSegments(token: $0).payloadObject()["requestIdentifier"] }
        #expect(Set(requestIds.compactMap { $0?.stringValue }).count == 3)
    }

    @Test("key=value overrides parse JSON when they can, and payload files merge deeply")
    func overrides() throws {
        #expect(try PayloadOverrides.parseAssignment("quantity=3") == ("quantity", .integer(3)))
        #expect(try PayloadOverrides.parseAssignment("isUpgraded=true").value == .bool(true))
        #expect(
            try PayloadOverrides.parseAssignment("bundleId=com.example.other").value == .string("com.example.other"))
        #expect(try PayloadOverrides.parseAssignment("transactionId=\"123\"").value == .string("123"))
        #expect(try PayloadOverrides.parseAssignment("note=a=b").value == .string("a=b"))
        #expect(try PayloadOverrides.parseAssignment("revocationDate=null").value == .null)
        #expect(try PayloadOverrides.parseAssignment("price=1.5").value == .double(1.5))
        #expect(throws: JWSTestingError.self) { try PayloadOverrides.parseAssignment("=1") }
        #expect(throws: JWSTestingError.self) { try PayloadOverrides.parseAssignment("novalue") }

        let directory = try TemporaryDirectory()
        try Data(#"{"data":{"bundleVersion":"7","extra":1},"signedDate":5}"#.utf8).write(
            to: directory.file("merge.json"))
        let overrides = try PayloadOverrides(
            assignments: ["version=\"3.0\"", "signedDate=6"],
            mergeFile: directory.file("merge.json"))
        let minter = try TokenMinter(hierarchy: Self.pki)
        let token = try minter.mint(.notification, parameters: Self.parameters(), overrides: overrides)[0]
        let payload = try JWSSegments(token: token).payloadObject()
        #expect(payload["version"] == .string("3.0"))
        #expect(payload["signedDate"] == .integer(6))
        let data = try #require(payload["data"]?.objectValue)
        #expect(data["bundleVersion"] == .string("7"))
        #expect(data["extra"] == .integer(1))
        #expect(data["signedTransactionInfo"] != nil)
        #expect(PayloadOverrides(remove: ["data"]).apply(to: payload)["data"] == nil)
    }

    @Test("Header and signature options make negative tokens")
    func negativeOptions() throws {
        let minter = try TokenMinter(hierarchy: Self.pki)
        let payload = try minter.defaultPayload(.transaction, parameters: Self.parameters())
        let none = try JWSSegments(
            token: minter.sign(payload, header: .init(algorithm: "none", certificateChain: .omitted)))
        #expect(String(decoding: none.header, as: UTF8.self) == #"{"alg":"none"}"#)
        let custom = try JWSSegments(
            token: minter.sign(
                payload,
                header: .init(
                    certificateChain: .custom(["a", "b"]), extraMembers: ["kid": .string("k"), "alg": .string("ES512")])
            ))
        #expect(String(decoding: custom.header, as: UTF8.self) == #"{"alg":"ES512","x5c":["a","b"],"kid":"k"}"#)
        let p384 = try TestPrivateKey.generate(curve: .p384)
        #expect(try JWSSegments(token: minter.sign(payload, signature: .init(key: p384))).signature.count == 96)
        #expect(
            try JWSSegments(token: minter.sign(payload, signature: .init(key: p384, digest: .sha384))).signature.count
                == 96)
        let der = try JWSSegments(token: minter.sign(payload, signature: .init(encoding: .der))).signature
        #expect(der.first == 0x30)
        #expect(throws: JWSTestingError.self) { try p384.signES256(Data("x".utf8)) }
        let raw = try JWSSegments(token: minter.sign(payloadJSON: Data("not json".utf8)))
        #expect(raw.payload == Data("not json".utf8))
    }
}
