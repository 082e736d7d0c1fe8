import AppStoreServerAPI
import AppStoreServerAPIEmulator
import Foundation
import JWSSigning
import JWSVerify
import JWSVerifyTesting
import Testing

/// A client of the emulator: fresh credentials, the emulator serving `routes`, a client with the test's key
/// pointed at it and a verifier that trusts the test PKI for the app in Sandbox.
struct Loopback {
    let credentials: APICredentials
    let emulator: APIEmulatorProcess
    let client: AppStoreServerAPIClient
    let verifier: SignedDataVerifier

    /// Starts the emulator with `routes`; `configure` adjusts the client's configuration.
    init(
        routes: (APICredentials) throws -> [APIEmulatorProcess.Route],
        configure: (inout AppStoreServerAPIClient.Configuration) -> Void = { _ in }
    ) async throws {
        let credentials = try APICredentials()
        do {
            emulator = try await APIEmulatorProcess(credentials: credentials, routes: routes(credentials))
        } catch {
            credentials.removeFiles()
            throw error
        }
        self.credentials = credentials
        var configuration = AppStoreServerAPIClient.Configuration(timeout: .seconds(10))
        configure(&configuration)
        client = AppStoreServerAPIClient(
            signingKey: try ES256SigningKey(pemRepresentation: credentials.apiKey.pkcs8PEM()),
            keyId: credentials.keyId, issuerId: credentials.issuerId, bundleId: credentials.bundleId,
            baseURL: emulator.baseURL, configuration: configuration)
        verifier = try SignedDataVerifier(
            rootCertificates: [credentials.hierarchy.rootDER], bundleId: credentials.bundleId,
            appAppleId: credentials.appAppleId, environment: .sandbox)
    }

    /// The client that verifies every signed item.
    var verifying: VerifyingAPIClient { client.verifying(with: verifier) }

    /// Stops the emulator and removes the files.
    func finish() {
        emulator.stop()
        credentials.removeFiles()
    }

    /// Expects that the emulator found nothing wrong with any request, and saw `count` of them.
    func expectAppleShapedRequests(count: Int? = nil, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        #expect(try await emulator.violations() == [], sourceLocation: sourceLocation)
        if let count { #expect(try await emulator.log().count == count, sourceLocation: sourceLocation) }
    }

    /// `{"member": [tokens]}`-style JSON values.
    static func strings(_ values: [String]) -> JSONValue { .array(values.map(JSONValue.string)) }
}

/// Runs `body` and returns the ``APIError`` it throws; records an issue when it throws none.
func apiError(
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws(APIError) -> Void
) async -> APIError? {
    do {
        try await body()
        Issue.record("expected an APIError", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}
