import AppStoreServerAPIEmulator
import Foundation
import JWSVerify
import JWSVerifyTesting
import Testing

/// `jwsverify ledger reconcile` through the real binary against the API emulator: killed with SIGKILL while it
/// waits for page two, run again, it resumes at page two and stores every item once.
@Suite("Ledger reconcile command", .serialized)
struct ReconcileCommandTests {
    /// Input: two pages of notification history; the first answer for page two comes only after 30 seconds, and
    /// the process is killed with SIGKILL while it waits. Expected: page one is stored; the second run asks for
    /// page two (not page one again), says it resumed, and the log holds every item once. A forged notification on
    /// page two is refused with its code: exit 1, the error in the JSON, the page not passed.
    @Test("reconcile killed with SIGKILL resumes at page two", arguments: StoreKind.available)
    func killedReconcile(kind: StoreKind) async throws {
        let first = try (1...3).map { try ReconcilerTests.renewal($0, original: "7100") }
        let second = try (4...5).map { try ReconcilerTests.renewal($0, original: "7100") }
        let stranger = try LedgerWorld(hierarchy: TestHierarchy.generate(.appStoreEC, seed: 42))
        let forged = try stranger.notification("TEST", uuid: UUID().uuidString.lowercased(), signed: LedgerWorld.t0)
        let pageTwo = ReconcilerTests.historyPage(second + [forged], next: nil)
        var slow = pageTwo
        slow.delay = 30
        let emulator = try await APIEmulatorProcess(
            credentials: ReconcilerTests.credentials,
            routes: [
                .init("POST", ReconcilerTests.historyPath, query: ["paginationToken": ["p2"]], [slow, pageTwo]),
                .init(
                    "POST", ReconcilerTests.historyPath, query: [:], [ReconcilerTests.historyPage(first, next: "p2")]),
            ])
        defer { emulator.stop() }
        let credentials = ReconcilerTests.credentials
        let store = try TestStores.location(kind)
        let arguments = [
            "ledger", "reconcile", "--store", store, "--key", credentials.privateKeyFile.path, "--key-id",
            credentials.keyId, "--issuer-id", credentials.issuerId, "--bundle-id", LedgerWorld.bundleId, "--root",
            LedgerCLI.rootPath, "--environment", "Sandbox", "--base-url", emulator.baseURL.absoluteString, "--start",
            ISO8601DateFormatter().string(from: Date().addingTimeInterval(-7_200)), "--json",
        ]
        let (process, _) = try LedgerCLI.start(arguments)
        var asked = false
        for _ in 0..<200 where !asked {
            try await Task.sleep(for: .milliseconds(100))
            asked = try await emulator.log().contains { $0.query["paginationToken"] == ["p2"] }
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(asked, "page two was never asked for")
        #expect(process.terminationReason == .uncaughtSignal, "the run ended before it was killed")
        #expect(try LedgerCLIStores.open(store).logCount() == 9, "page one's notifications with their nested tokens")

        let rerun = try LedgerCLI.run(arguments)
        #expect(rerun.status == 1, "the forged notification makes the run exit 1: \(rerun.stderr)")
        #expect(rerun.stderr.contains("notificationHistory[2].signedPayload: untrustedChain"), "\(rerun.stderr)")
        let summary = try #require(
            try JSONSerialization.jsonObject(with: Data(rerun.stdout.utf8)) as? [String: Any])
        let history = try #require(summary["notificationHistory"] as? [String: Any])
        #expect(history["resumed"] as? Bool == true)
        #expect(history["pages"] as? Int == 1 && history["appended"] as? Int == 2 && history["duplicates"] as? Int == 0)
        #expect((history["refused"] as? [Any])?.count == 1)
        #expect((summary["error"] as? String)?.contains("untrustedChain") == true, "\(summary)")
        #expect(try LedgerCLIStores.open(store).logCount() == 15)
        let requests = try await emulator.log()
        #expect(requests.map { $0.query["paginationToken"] ?? [] } == [[], ["p2"], ["p2"]])
        #expect(try await emulator.violations().isEmpty)
    }

    /// Input: reconcile without --key, and with --audit 0. Expected: usage errors (exit 64) naming the option.
    @Test("reconcile refuses missing credentials and a bad audit size")
    func usage() throws {
        let missing = try LedgerCLI.run(["ledger", "reconcile", "--store", "sqlite:/tmp/x.sqlite", "--key-id", "K"])
        #expect(missing.status == 64 && missing.stderr.contains("--key"), "\(missing.stderr)")
        let audit = try LedgerCLI.run([
            "ledger", "reconcile", "--store", "sqlite:/tmp/x.sqlite", "--key", "k", "--key-id", "K", "--issuer-id", "I",
            "--bundle-id", "b", "--audit", "0",
        ])
        #expect(audit.status == 64 && audit.stderr.contains("--audit"), "\(audit.stderr)")
    }
}
