import AppStoreServerAPI
import Foundation
import JWSSigning
import JWSVerify
import JWSVerifyTesting
import Synchronization

/// The repository's TestVectors folder, found by walking up from this file.
enum Vectors {
    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while url.path != "/" {
            let candidate = url.appendingPathComponent("TestVectors")
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            url.deleteLastPathComponent()
        }
        return url
    }()

    /// A file of `TestVectors/apple-library/api/`.
    static func api(_ name: String) throws -> Data {
        try Data(contentsOf: root.appendingPathComponent("apple-library/api/\(name)"))
    }
}

/// A transport that answers from memory and records what it was sent: for the client's logic that needs no
/// HTTP (request shapes, error mapping, retries, token reuse). Not a crypto mock: every token in its answers is
/// minted and verified for real. HTTP behaviour is tested against the loopback emulator.
final class InMemoryTransport: APITransport {
    private let state = Mutex<(requests: [APIRequest], answers: [Result<APIResponse, APIError>])>(([], []))

    init(_ answers: [Result<APIResponse, APIError>]) {
        state.withLock { $0.answers = answers }
    }

    convenience init(status: Int = 200, headers: [String: String] = [:], body: Data) {
        self.init([.success(APIResponse(status: status, headers: headers, body: body))])
    }

    var requests: [APIRequest] { state.withLock { $0.requests } }

    func send(_ request: APIRequest) async throws -> APIResponse {
        let answer = state.withLock { state -> Result<APIResponse, APIError> in
            state.requests.append(request)
            if state.answers.count > 1 { return state.answers.removeFirst() }
            return state.answers.first ?? .failure(APIError(kind: .network, message: "no answer"))
        }
        return try answer.get()
    }
}

/// The test PKI, the In-App Purchase key and the verifier the suites share.
enum Fixtures {
    static let hierarchy: TestHierarchy = {
        do {
            return try TestHierarchy.generate(.appStoreEC, seed: 2727)
        } catch {
            fatalError("cannot generate the test PKI: \(error)")
        }
    }()

    static let signedDate = Date(timeIntervalSince1970: 1_773_576_000)
    static let bundleId = "com.example.jwsverify"
    static let appAppleId: Int64 = 1_234_567_890

    static func parameters(environment: String = "Sandbox", bundleId: String = bundleId) -> PayloadParameters {
        var parameters = PayloadParameters(signedDate: signedDate, seed: 27)
        parameters.environment = environment
        parameters.bundleId = bundleId
        parameters.appAppleId = appAppleId
        return parameters
    }

    static func minter() throws -> TokenMinter { try TokenMinter(hierarchy: hierarchy) }

    static func verifier(environments: [AppStoreEnvironment] = [.sandbox]) throws -> SignedDataVerifier {
        try SignedDataVerifier(
            rootCertificates: [hierarchy.root.der], bundleId: bundleId, appAppleId: appAppleId,
            environments: environments)
    }

    /// Apple's test In-App Purchase key (PKCS #8 PEM, P-256), `TestVectors/apple-library/certs/testSigningKey.p8`.
    static var keyURL: URL { Vectors.root.appendingPathComponent("apple-library/certs/testSigningKey.p8") }

    static func keyPEM() throws -> String { try String(contentsOf: keyURL, encoding: .utf8) }

    /// The base URL of the test clients (nothing listens there: their transports answer from memory).
    static let baseURL = URL(string: "https://api.example.test") ?? URL(fileURLWithPath: "/")

    /// A client over `transport` with Apple's test key, the bundle id above and a fixed clock.
    static func client(
        _ transport: any APITransport, configuration: AppStoreServerAPIClient.Configuration = .init()
    ) throws -> AppStoreServerAPIClient {
        AppStoreServerAPIClient(
            signingKey: try ES256SigningKey(pemRepresentation: keyPEM()), keyId: "KEYID12345", issuerId: "issuer-uuid",
            bundleId: bundleId, baseURL: baseURL, transport: transport,
            configuration: configuration)
    }
}
