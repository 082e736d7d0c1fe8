import Foundation
import JWSVerify

extension AppStoreServerAPIClient {
    /// The loopback hosts a base URL may reach over plain `http` (a local emulator, a test server).
    public static let loopbackHosts: Set<String> = ["127.0.0.1", "::1", "localhost"]

    /// The environment whose items a server at `baseURL` answers with, for a verifier that takes the environment of
    /// the server it calls: Sandbox for Apple's sandbox host, LocalTesting for the local-testing base URL's host, and
    /// Production for Apple's production host, for no URL and for any other server (a proxy, an emulator: the
    /// strictest claims, which need the app's Apple id; say so explicitly for one that answers for Sandbox).
    ///
    /// - Parameter baseURL: The base URL called, or nil for the default (production).
    /// - Returns: the environment its items must state.
    public static func environment(ofBaseURL baseURL: URL?) -> AppStoreEnvironment {
        let host = baseURL?.host?.lowercased()
        if host == sandboxURL.host?.lowercased() { return .sandbox }
        if host == localTestingURL.host?.lowercased() { return .localTesting }
        return .production
    }

    /// Checks that `url` can be a base URL: every request sends the bearer token there.
    ///
    /// A base URL is `https`, or `http` to a loopback host (``loopbackHosts``: 127.0.0.1, ::1, localhost), where
    /// local testing and emulators listen. It has a host, and no user info (credentials in a URL would be sent
    /// with, and logged beside, every request), no query and no fragment (each call adds its own path and query to
    /// the base URL). A path prefix (a proxy's) is allowed.
    ///
    /// A client made with ``init(signingKey:keyId:issuerId:bundleId:baseURL:transport:configuration:)`` and a base
    /// URL this refuses throws the same error from every call, before any token is signed or any byte is sent.
    ///
    /// - Parameter url: The base URL.
    /// - Throws: ``APIError`` of kind ``APIError/Kind-swift.struct/invalidRequest`` that names what is wrong.
    public static func validateBaseURL(_ url: URL) throws(APIError) {
        func refuse(_ reason: String) -> APIError {
            APIError(kind: .invalidRequest, message: "the base URL \(url.absoluteString) is refused: \(reason)")
        }
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            throw refuse("it is not a URL")
        }
        let scheme = components.scheme?.lowercased() ?? ""
        var host = (components.host ?? "").lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw refuse("it has no host") }
        guard components.percentEncodedUser == nil, components.percentEncodedPassword == nil else {
            throw refuse("it has user info; credentials in a URL would travel with every request")
        }
        guard components.percentEncodedQuery == nil else {
            throw refuse("it has a query; each call adds its own")
        }
        guard components.percentEncodedFragment == nil else { throw refuse("it has a fragment") }
        switch scheme {
        case "https": return
        case "http" where loopbackHosts.contains(host): return
        case "http":
            throw refuse("http is allowed only to a loopback host (127.0.0.1, ::1, localhost); use https")
        default:
            throw refuse("its scheme is not https")
        }
    }
}
