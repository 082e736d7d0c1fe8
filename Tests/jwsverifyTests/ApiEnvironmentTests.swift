import AppStoreServerAPI
import AppStoreServerAPIEmulator
import Foundation
import JWSVerify
import Testing

@testable import jwsverify

/// Issue #39: `jwsverify api` without `--environment` verifies items as the environment of the server it calls, with
/// `verify`'s claims rules (Production needs `--app-apple-id`); `--environment` says otherwise.
@Suite("jwsverify api: the environment of the server called", .serialized)
struct ApiEnvironmentTests {
    static let required = [
        "api", "transaction", "1", "--key", "/k.p8", "--key-id", "K", "--issuer-id", "I", "--bundle-id", "com.example",
    ]

    /// The parsed options of `api` with `arguments` after the required ones.
    private func options(_ arguments: [String]) throws -> ApiOptions {
        guard case .success(.api(let options)) = Arguments.parse(Self.required + arguments) else {
            Issue.record("\(arguments) did not parse as api: \(Arguments.parse(Self.required + arguments))")
            throw CancellationError()
        }
        return options
    }

    /// Input: no `--environment`, with Apple's sandbox URL, the production URL, a loopback server or none as
    /// `--base-url`; then `--environment` against the server's. Expected: the verifier's environment is Sandbox
    /// for Apple's sandbox URL (any letter case of its host), Production for the others; `--environment` wins.
    @Test("without --environment the verifier takes the environment of the server called")
    func environmentOfServer() throws {
        for url in ["https://api.storekit-sandbox.apple.com", "https://API.storekit-sandbox.apple.com/"] {
            #expect(try options(["--base-url", url]).trust.environments == [.sandbox], "\(url)")
        }
        let production = ["--app-apple-id", "1234"]
        #expect(try options(production).trust.environments == [.production])
        #expect(
            try options(production + ["--base-url", "https://api.storekit.apple.com"]).trust.environments
                == [.production])
        #expect(try options(production + ["--base-url", "http://127.0.0.1:8080"]).trust.environments == [.production])
        #expect(
            try options(["--environment", "Sandbox", "--base-url", "https://api.storekit.apple.com"]).trust.environments
                == [.sandbox])
    }

    /// Input: no `--environment` and no `--app-apple-id`, with a readable key, calling a loopback server (taken for
    /// Production, as the default server and Apple's production URL are: `environmentOfServer`) where nothing
    /// listens. Expected: exit 64 before any call, `verify`'s refusal naming `--app-apple-id` (before: the call was
    /// made, here a network error, and no environment or app Apple id would have been checked).
    @Test("a Production call without --app-apple-id is a usage error")
    func productionNeedsAppAppleId() throws {
        var required = Self.required
        required[required.firstIndex(of: "/k.p8")!] = SignCommandTests.key
        let run = try CLI.run(required + ["--base-url", "http://127.0.0.1:1"])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(
            run.stderr.hasPrefix("Error: '--environment Production' requires '--app-apple-id'"), "\(run.stderr)")
    }

    /// Input: the emulator on loopback answers Get Transaction History with a page of two Sandbox items; `api` runs
    /// without `--environment`, with `--app-apple-id`. Expected: exit 1, each item `invalidEnvironment` at the
    /// claims check and the page's envelope refused (before: exit 0, "every check passed").
    @Test("Sandbox items from a server taken for Production are not verified")
    func sandboxItemsFromProductionServer() async throws {
        let fixture = try await ApiCommandTests.Fixture { credentials in
            [
                .init(
                    "GET", "/inApps/v2/history/\(ApiCommandTests.id)", query: [:],
                    [
                        ApiCommandTests.historyPage(
                            credentials, try credentials.transactions(2), revision: "r1", hasMore: false)
                    ])
            ]
        }
        defer { fixture.finish() }
        let run = try fixture.run(["history", ApiCommandTests.id], omitting: ["--environment"])
        #expect(run.status == 1, "\(run.stderr)")
        let lines = try fixture.lines(run)
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0["verified"] as? Bool == false }, "\(run.stdout)")
        #expect(lines.allSatisfy { $0["code"] as? String == "invalidEnvironment" }, "\(run.stdout)")
        #expect(lines.allSatisfy { $0["check"] as? String == "claims" }, "\(run.stdout)")
        #expect(run.stderr.contains("environment \"Sandbox\""), "\(run.stderr)")
    }
}
