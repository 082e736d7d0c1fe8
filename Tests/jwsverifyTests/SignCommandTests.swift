import Foundation
import Testing

@testable import jwsverify

/// `jwsverify sign`, run as a process: signatures that openssl verifies with the key's public half, the header and
/// claims each kind must carry, and the refusals.
@Suite("jwsverify sign")
struct SignCommandTests {
    static let key = CLI.vector("apple-library/certs/testSigningKey.p8")
    static let common = ["--key", key, "--key-id", "KEY1", "--bundle-id", "com.example"]

    /// The public half of the test key, PEM, written by `openssl pkey -pubout` into `directory`.
    static func publicKey(in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("public.pem").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl", "pkey", "-in", key, "-pubout", "-out", path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return path
    }

    /// `openssl dgst -sha256 -verify` of a DER signature over `message`.
    static func verifies(_ der: Data, _ message: Data, publicKey: String, in directory: URL) throws -> Bool {
        let name = UUID().uuidString
        let signature = directory.appendingPathComponent(name + ".sig")
        let file = directory.appendingPathComponent(name + ".msg")
        try der.write(to: signature)
        try message.write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "openssl", "dgst", "-sha256", "-verify", publicKey, "-signature", signature.path, file.path,
        ]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// Input: each JWS kind with its flags. Expected: exit 0, one token line that openssl verifies (r‖s converted
    /// to DER here), header `{"alg":"ES256","kid":"KEY1","typ":"JWT"}` and the kind's claims; `--json` shows the same
    /// header and claims.
    @Test("offer-v2, intro-eligibility and advanced-commerce print a JWS that openssl verifies, with its claims")
    func jwsKinds() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("jwsverify-sign-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let publicKey = try Self.publicKey(in: directory)
        let requestFile = directory.appendingPathComponent("request.json")
        try Data(#"{"operation":"CREATE_SUBSCRIPTION","version":"1"}"#.utf8).write(to: requestFile)
        let nonce = "3F2504E0-4F89-11D3-9A0C-0305E82C3301"
        let cases: [(arguments: [String], audience: String, claims: [String: Any])] = [
            (
                ["offer-v2", "--product-id", "p1", "--offer-id", "o1", "--transaction-id", "t1"], "promotional-offer",
                ["productId": "p1", "offerIdentifier": "o1", "transactionId": "t1"]
            ),
            (
                ["intro-eligibility", "--product-id", "p1", "--allow-intro-offer", "false", "--transaction-id", "t2"],
                "introductory-offer-eligibility",
                ["productId": "p1", "allowIntroductoryOffer": false, "transactionId": "t2"]
            ),
            (
                ["advanced-commerce", "--request", requestFile.path], "advanced-commerce-api",
                ["request": Data(#"{"operation":"CREATE_SUBSCRIPTION","version":"1"}"#.utf8).base64EncodedString()]
            ),
        ]
        for (arguments, audience, claims) in cases {
            let run = try CLI.run(
                ["sign"] + arguments + Self.common
                    + ["--issuer-id", "ISSUER", "--nonce", nonce, "--timestamp", "1698148900123"])
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            let token = run.stdout.trimmingCharacters(in: .newlines)
            #expect(run.stdout == token + "\n")
            let parts = token.split(separator: ".").map(String.init)
            try #require(parts.count == 3)
            let signature = try #require(base64URLDecode(Substring(parts[2])))
            #expect(
                try Self.verifies(
                    derFromRawSignature(signature), Data((parts[0] + "." + parts[1]).utf8), publicKey: publicKey,
                    in: directory))
            let headerBytes = try #require(base64URLDecode(Substring(parts[0])))
            let header = try #require(try JSONSerialization.jsonObject(with: headerBytes) as? NSDictionary)
            #expect(header == ["alg": "ES256", "kid": "KEY1", "typ": "JWT"] as NSDictionary)
            let payloadBytes = try #require(base64URLDecode(Substring(parts[1])))
            let payload = try #require(try JSONSerialization.jsonObject(with: payloadBytes) as? [String: Any])
            var expected = claims
            expected["iss"] = "ISSUER"
            expected["bid"] = "com.example"
            expected["aud"] = audience
            expected["iat"] = 1_698_148_900
            expected["nonce"] = nonce.lowercased()
            #expect(payload as NSDictionary == expected as NSDictionary)

            let json = try CLI.run(
                ["sign"] + arguments + Self.common + ["--issuer-id", "ISSUER", "--nonce", nonce, "--json"]
            ).json()
            #expect(json["header"] as? NSDictionary == header)
            #expect((json["claims"] as? [String: Any])?["aud"] as? String == audience)
        }
    }

    /// Input: `sign offer-v1` with a fixed nonce and timestamp, plain and `--json`. Expected: the base64 DER
    /// signature verifies with openssl over the U+2063-joined message; `--json` gives the Retention Messaging
    /// promotionalOfferSignatureV1 fields.
    @Test("offer-v1 prints the base64 DER signature of Apple's V1 message; --json its Retention Messaging fields")
    func offerV1() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("jwsverify-sign-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let publicKey = try Self.publicKey(in: directory)
        let arguments =
            [
                "sign", "offer-v1", "--product-id", "p1", "--offer-id", "o1", "--app-account-token",
                "7E3FB20B-4CDB-47CC-936D-99D65F608138", "--nonce", "3F2504E0-4F89-11D3-9A0C-0305E82C3301",
                "--timestamp", "1698148900000",
            ] + Self.common
        let run = try CLI.run(arguments)
        #expect(run.status == 0, "\(run.stderr)")
        let signature = try #require(Data(base64Encoded: run.stdout.trimmingCharacters(in: .newlines)))
        let message = [
            "com.example", "KEY1", "p1", "o1", "7e3fb20b-4cdb-47cc-936d-99d65f608138",
            "3f2504e0-4f89-11d3-9a0c-0305e82c3301", "1698148900000",
        ].joined(separator: "\u{2063}")
        #expect(try Self.verifies(signature, Data(message.utf8), publicKey: publicKey, in: directory))
        let json = try CLI.run(arguments + ["--json"]).json()
        #expect(
            Set(json.keys) == [
                "encodedSignature", "productId", "nonce", "timestamp", "keyId", "offerIdentifier", "appAccountToken",
            ])
        #expect(json["timestamp"] as? Int == 1_698_148_900_000)
        // Issue #39: the token as signed, lower-cased (it was printed as given).
        #expect(json["appAccountToken"] as? String == "7e3fb20b-4cdb-47cc-936d-99d65f608138")
    }

    /// Input (issue #39): `--timestamp` at its largest (9999-12-31T23:59:59.999Z), one past it, `Int64.max`, a
    /// fraction and a negative value. Expected: the largest signs with `iat` exactly its whole seconds,
    /// 253402300799 (before: through `Double`, with no upper bound); the others exit 64 naming the range.
    @Test("--timestamp is whole milliseconds from 0 to 9999-12-31T23:59:59.999Z, iat exact")
    func timestampRange() throws {
        let offer = ["sign", "offer-v2", "--issuer-id", "i", "--product-id", "p", "--offer-id", "o"] + Self.common
        let largest = try CLI.run(offer + ["--timestamp", "253402300799999", "--json"])
        #expect(largest.status == 0, "\(largest.stderr)")
        let claims = try #require(try largest.json()["claims"] as? [String: Any])
        #expect(claims["iat"] as? Int == 253_402_300_799)
        for value in ["253402300800000", "9223372036854775807", "1698148900000.5", "-1"] {
            let run = try CLI.run(offer + ["--timestamp=\(value)"])
            #expect(run.status == 64, "\(value): \(run.stderr)")
            #expect(run.stderr.contains("from 0 to 253402300799999"), "\(value): \(run.stderr)")
        }
    }

    /// Input: wrong keys, missing or foreign flags, an unknown kind. Expected: exit 1 with the key's code and no key
    /// bytes; exit 64 for usage; exit 66 for a missing file.
    @Test("refuses wrong keys (exit 1, with the code), bad flags (exit 64) and missing files (exit 66)")
    func refusals() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("jwsverify-sign-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let certificate = CLI.vector("apple-library/certs/testLeaf.pem")
        let sec1 = CLI.vector("apple-library/certs/testLeaf.key")
        let offer = ["sign", "offer-v1", "--product-id", "p", "--offer-id", "o", "--key-id", "K", "--bundle-id", "b"]
        for (file, code) in [(certificate, "certificateNotKey"), (sec1, "notPKCS8")] {
            let run = try CLI.run(offer + ["--key", file])
            #expect(run.status == 1 && run.stderr.contains(code), "\(run.stderr)")
            let keyText = try String(contentsOfFile: file, encoding: .utf8)
            for line in keyText.split(separator: "\n") where line.count > 40 && !line.hasPrefix("-----") {
                #expect(!run.stderr.contains(line.prefix(20)))
            }
        }
        #expect(try CLI.run(offer + ["--key", directory.appendingPathComponent("absent.p8").path]).status == 66)
        #expect(try CLI.run(["sign", "offer-v3"] + Self.common).status == 64)
        #expect(try CLI.run(["sign", "offer-v2", "--product-id", "p"] + Self.common).status == 64)
        #expect(
            try CLI.run(["sign", "offer-v1", "--product-id", "p", "--offer-id", "o", "--issuer-id", "i"] + Self.common)
                .status == 64)
        #expect(try CLI.run(["sign"] + Self.common).status == 64)
    }
}

/// The DER ECDSA-Sig-Value of a raw r‖s signature, written here for openssl.
func derFromRawSignature(_ raw: Data) -> Data {
    func integer(_ bytes: Data) -> [UInt8] {
        var value = Array(bytes.drop { $0 == 0 })
        if value.isEmpty || value[0] & 0x80 != 0 { value.insert(0, at: 0) }
        return [0x02, UInt8(value.count)] + value
    }
    let body = integer(raw.prefix(32)) + integer(raw.suffix(32))
    return Data([0x30, UInt8(body.count)] + body)
}

/// Decodes base64url without padding.
private func base64URLDecode(_ text: Substring) -> Data? {
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while base64.count % 4 != 0 { base64 += "=" }
    return Data(base64Encoded: base64)
}

/// Issue #39: the CLI reads a private key's bytes into one buffer, which it zeroes after use.
@Suite("key bytes in one buffer")
struct KeyBufferTests {
    /// Input: the test key file read as `sign` reads a key. Expected: its bytes, the same as the file's, in the one
    /// buffer allocated for the limit and one byte (no copy was left behind by growing it).
    @Test("a key file is read into one buffer, the same bytes")
    func keyReadOnce() throws {
        let expected = try [UInt8](Data(contentsOf: URL(fileURLWithPath: SignCommandTests.key)))
        guard
            case .success(let bytes) = ByteSource.open(path: SignCommandTests.key, option: "--key").flatMap({
                $0.readWhole(limit: 65_536)
            })
        else {
            Issue.record("the key file was not read")
            return
        }
        #expect(bytes == expected)
        #expect(bytes.capacity >= 65_537)
    }
}
