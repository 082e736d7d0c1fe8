import Foundation
import JWSSigning
import JWSVerify
import Synchronization
import Testing

@testable import AppStoreServerAPI

@Suite("The bearer token")
struct BearerTokenTests {
    /// A clock a test moves.
    final class TestClock: Sendable {
        private let time = Mutex(Date(timeIntervalSince1970: 1_780_000_000))
        var now: Date { time.withLock { $0 } }
        func advance(_ seconds: TimeInterval) { time.withLock { $0 += seconds } }
    }

    static func source(clock: TestClock, lifetime: Duration = .seconds(1800)) throws -> BearerTokenSource {
        BearerTokenSource(
            signingKey: try ES256SigningKey(pemRepresentation: Fixtures.keyPEM()), keyId: "KEYID12345",
            issuerId: "issuer-uuid", bundleId: Fixtures.bundleId, lifetime: lifetime, now: { clock.now })
    }

    static func segments(_ token: String) throws -> [Data] {
        try token.split(separator: ".", omittingEmptySubsequences: false).map { segment in
            var text = segment.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while text.count % 4 != 0 { text += "=" }
            return try #require(Data(base64Encoded: text))
        }
    }

    static func object(_ data: Data) throws -> [String: JSONValue] {
        guard case .object(let members) = try JSONDecoder().decode(JSONValue.self, from: data) else {
            throw CancellationError()
        }
        return members
    }

    /// Input: a token from a fresh source. Expected: header alg ES256, kid, typ JWT; claims iss, iat (now), exp
    /// (iat + 30 min), aud appstoreconnect-v1, bid; nothing else.
    @Test("the header and claims are Apple's")
    func headerAndClaims() throws {
        let clock = TestClock()
        let token = try Self.source(clock: clock).token()
        let parts = try Self.segments(token)
        #expect(parts.count == 3 && parts[2].count == 64)
        #expect(
            try Self.object(parts[0]) == ["alg": .string("ES256"), "kid": .string("KEYID12345"), "typ": .string("JWT")])
        let iat = Int64(clock.now.timeIntervalSince1970)
        #expect(
            try Self.object(parts[1]) == [
                "iss": .string("issuer-uuid"), "iat": .integer(iat), "exp": .integer(iat + 1800),
                "aud": .string("appstoreconnect-v1"), "bid": .string(Fixtures.bundleId),
            ])
    }

    /// Input: a lifetime of two hours. Expected: exp is at most 60 minutes after iat.
    @Test("exp is never more than 60 minutes after iat")
    func lifetimeIsCapped() throws {
        let token = try Self.source(clock: TestClock(), lifetime: .seconds(7200)).token()
        let claims = try Self.object(Self.segments(token)[1])
        guard case .integer(let iat) = claims["iat"], case .integer(let exp) = claims["exp"] else {
            Issue.record("no iat or exp")
            return
        }
        #expect(exp - iat == 3600)
    }

    /// Input: tokens asked for at once, 20 minutes later, 29 minutes later. Expected: the same token until less
    /// than a minute of its life is left, then a new one with a later iat.
    @Test("a token is reused until shortly before it expires, then renewed")
    func reuseAndRenewal() throws {
        let clock = TestClock()
        let source = try Self.source(clock: clock)
        let first = try source.token()
        #expect(try source.token() == first)
        clock.advance(20 * 60)
        #expect(try source.token() == first)
        clock.advance(9 * 60 + 1)
        let renewed = try source.token()
        #expect(renewed != first)
        let claims = try Self.object(Self.segments(renewed)[1])
        #expect(claims["iat"] == .integer(Int64(clock.now.timeIntervalSince1970)))
        #expect(try source.token() == renewed)
    }

    /// Input: a token asked for at T, then at T − 120 s (the clock moved back), then again at T − 120 s.
    /// Expected: a new token at T − 120 s whose `iat` is T − 120 s (the first one's `iat` is in the future for
    /// this clock), then that one reused.
    @Test("a clock that moved back before the cached token's iat gets a new token")
    func clockMovedBack() throws {
        let clock = TestClock()
        let source = try Self.source(clock: clock)
        let first = try source.token()
        clock.advance(-120)
        let second = try source.token()
        #expect(second != first)
        let claims = try Self.object(Self.segments(second)[1])
        #expect(claims["iat"] == .integer(Int64(clock.now.timeIntervalSince1970)))
        #expect(try source.token() == second)
    }

    /// Input: a 30-minute token, asked for again 1 s before `exp − 60 s` and at `exp − 60 s`. Expected: reused
    /// before, renewed at the margin (`now < exp − margin` is strict).
    @Test("a token is reused only while now < exp minus the margin")
    func renewalMarginIsStrict() throws {
        let clock = TestClock()
        let source = try Self.source(clock: clock)
        let first = try source.token()
        clock.advance(1800 - 60 - 1)
        #expect(try source.token() == first)
        clock.advance(1)
        #expect(try source.token() != first)
    }

    /// Input: 50 concurrent requests for a token. Expected: all get a token that is one of at most a few, and the
    /// source keeps one afterwards (no crash, no race: the Mutex).
    @Test("tokens are safe to ask for concurrently")
    func concurrent() async throws {
        let source = try Self.source(clock: TestClock())
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<50 { group.addTask { try source.token() } }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(!tokens.isEmpty)
        #expect(tokens.contains(try source.token()))
    }

    /// Input: a token, the public half of Apple's test key, `openssl dgst -verify` on the signing input with the
    /// signature converted to DER. Expected: `Verified OK`.
    @Test("openssl verifies the token's signature with the key's public half")
    func opensslVerifies() throws {
        guard
            let openssl = ["/usr/bin/openssl", "/usr/local/bin/openssl"].first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else {
            Issue.record("openssl is not installed")
            return
        }
        let token = try Self.source(clock: TestClock()).token()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bearer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = token.split(separator: ".").prefix(2).joined(separator: ".")
        try Data(input.utf8).write(to: directory.appendingPathComponent("input"))
        try Self.der(Self.segments(token)[2]).write(to: directory.appendingPathComponent("signature.der"))
        let publicKey = directory.appendingPathComponent("public.pem").path
        #expect(try Self.run(openssl, ["pkey", "-in", Fixtures.keyURL.path, "-pubout", "-out", publicKey]).status == 0)
        let verify = try Self.run(
            openssl,
            [
                "dgst", "-sha256", "-verify", publicKey, "-signature",
                directory.appendingPathComponent("signature.der").path, directory.appendingPathComponent("input").path,
            ])
        #expect(verify.status == 0 && verify.output.contains("Verified OK"), "\(verify.output)")
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// r‖s (64 bytes) as a DER ECDSA-Sig-Value.
    static func der(_ raw: Data) -> Data {
        func integer(_ bytes: Data.SubSequence) -> [UInt8] {
            var value = Array(bytes.drop { $0 == 0 })
            if value.isEmpty { value = [0] }
            if value[0] & 0x80 != 0 { value.insert(0, at: 0) }
            return [0x02, UInt8(value.count)] + value
        }
        let body = integer(raw.prefix(32)) + integer(raw.suffix(32))
        return Data([0x30, UInt8(body.count)] + body)
    }
}
