import AppStoreServerAPI
import AppStoreServerAPIEmulator
import Foundation
import JWSSigning
import Testing

/// The base URL rule: `https`, or `http` to a loopback host; no user info, query or fragment.
@Suite("The base URL of a client")
struct BaseURLTests {
    /// Input: Apple's base URLs, https with a path prefix, http to each loopback host. Expected: accepted.
    @Test(
        "https, and http to a loopback host, are accepted",
        arguments: [
            "https://api.storekit.apple.com", "https://api.storekit-sandbox.apple.com",
            "https://local-testing-base-url",
            "https://proxy.example.com/appstore/", "http://127.0.0.1:8080", "http://[::1]:8080", "http://localhost:1",
            "HTTP://LOCALHOST", "HTTPS://api.example.com",
        ])
    func accepted(text: String) throws {
        let url = try #require(URL(string: text))
        #expect(throws: Never.self) { try AppStoreServerAPIClient.validateBaseURL(url) }
    }

    /// Input: http to a host that is not loopback, other schemes, a query (even empty), a fragment, user info, no
    /// host. Expected: `invalidRequest` naming the reason.
    @Test(
        "what is not https or http to loopback, or has a query, fragment or user info, is refused",
        arguments: [
            ("http://api.storekit.apple.com", "loopback"), ("http://127.0.0.2", "loopback"),
            ("http://localhost.example.com", "loopback"), ("ftp://127.0.0.1", "https"), ("file:///tmp/x", "host"),
            ("https://api.example.com/?", "query"), ("https://api.example.com?a=b", "query"),
            ("https://api.example.com/#x", "fragment"), ("https://user@api.example.com", "user info"),
            ("https://user:pass@api.example.com", "user info"), ("https:///path", "host"),
        ])
    func refused(text: String, reason: String) throws {
        let url = try #require(URL(string: text))
        let error = #expect(throws: APIError.self) { try AppStoreServerAPIClient.validateBaseURL(url) }
        #expect(error?.kind == .invalidRequest, "\(text)")
        #expect(error?.message.contains(reason) == true, "\(text): \(error?.message ?? "")")
    }

    /// Input: a client whose base URL is the emulator's with a query added. Expected: every call throws
    /// `invalidRequest`, and the emulator received nothing (no token was sent).
    @Test("a client with a refused base URL sends nothing")
    func refusedClientSendsNothing() async throws {
        let credentials = try APICredentials()
        defer { credentials.removeFiles() }
        let emulator = try await APIEmulatorProcess(credentials: credentials, routes: [])
        defer { emulator.stop() }
        let client = AppStoreServerAPIClient(
            signingKey: try ES256SigningKey(pemRepresentation: credentials.apiKey.pkcs8PEM()),
            keyId: credentials.keyId, issuerId: credentials.issuerId, bundleId: credentials.bundleId,
            baseURL: try #require(URL(string: emulator.baseURL.absoluteString + "/?token=x")))
        let error = await apiError { () async throws(APIError) in
            _ = try await client.getTransactionInfo(transactionId: "2000000001")
        }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.message.contains("query") == true, "\(error?.message ?? "")")
        #expect(try await emulator.log().isEmpty)
    }
}
