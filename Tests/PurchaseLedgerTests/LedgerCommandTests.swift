import Foundation
import JWSVerify
import JWSVerifyTesting
import PurchaseLedger
import Testing

@testable import PurchaseLedgerPostgreSQL

/// `jwsverify ledger` through the real binary: refused lines never reach the log, each item is stored once however
/// often it is imported, an import killed with SIGKILL and run again stores everything exactly once, concurrent
/// importers into one PostgreSQL store each item once, and a store that stops mid-import is a retryable error.
@Suite("Ledger commands", .serialized)
struct LedgerCommandTests {
    /// 2,000 notification bodies of distinct subscriptions (SUBSCRIBED, a transaction and a renewal info each).
    static let bulk: [String] = {
        let world = LedgerWorld.shared
        return (0..<2_000).map { index in
            let id = String(50_000_000 + index)
            let signed = LedgerWorld.at(day: Double(index % 300) / 10)
            let transaction = LedgerWorld.Transaction(
                id: id, original: id, purchase: signed, expires: signed + 30 * LedgerWorld.day, signed: signed)
            let renewal = LedgerWorld.Renewal(original: id, signed: signed)
            let uuid = String(format: "b0000000-0000-4000-8000-%012d", index)
            // Minting fails only if the test PKI is broken, which every other test would show.
            let token =
                (try? world.notification(
                    "SUBSCRIBED", subtype: "INITIAL_BUY", uuid: uuid, signed: signed, transaction: transaction,
                    renewal: renewal)) ?? ""
            return LedgerWorld.body(token)
        }
    }()

    /// Input: three notification bodies, one of them twice, a token from another PKI, one of another app, a line
    /// that is no token and a blank line. Expected: exit 1; 3 appended, 1 duplicate, 3 refused with their codes on
    /// standard error; the log holds the three notifications and their nested tokens only; a second import of the
    /// same file appends nothing.
    @Test("refused lines never reach the log, and importing again appends nothing", arguments: StoreKind.available)
    func refusedAndDuplicates(kind: StoreKind) throws {
        let world = LedgerWorld.shared
        let good = Array(Self.bulk.prefix(3))
        let stranger = try LedgerWorld(hierarchy: TestHierarchy.generate(.appStoreEC, seed: 39))
        let forged = try stranger.token(
            LedgerWorld.Transaction(id: "77", original: "77", purchase: LedgerWorld.t0, signed: LedgerWorld.t0))
        let otherApp = try world.minter.sign(
            DefaultPayloads.transaction(PayloadParameters(bundleId: "com.example.other", environment: "Sandbox")))
        let file = try LedgerCLI.file(good + [good[1], forged, "{\"token\": \"\(otherApp)\"}", "not a token", ""])
        let store = try TestStores.location(kind)
        let run = try LedgerCLI.run(["ledger", "import", "--store", store, "--json"] + LedgerCLI.trust + [file])
        #expect(run.status == 1, "\(run.stderr)")
        let summary = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)")
        #expect(summary["appended"] as? Int == 3)
        #expect(summary["duplicate"] as? Int == 1)
        #expect(summary["refused"] as? Int == 3)
        #expect(
            summary["refusedByCode"] as? [String: Int]
                == ["untrustedChain": 1, "invalidAppIdentifier": 1, "malformedToken": 1])
        #expect(run.stderr.contains("line 5: untrustedChain"), "\(run.stderr)")
        #expect(run.stderr.contains("line 6: invalidAppIdentifier"), "\(run.stderr)")

        let opened = try LedgerCLIStores.open(store)
        let keys = Set(try opened.logItems(after: 0, limit: 100).map(\.key))
        #expect(keys.count == 9)
        let expected = Set(try world.entries(good.map { try Ledger.tokenOfBody($0) }).flatMap { $0.items.map(\.key) })
        #expect(keys == expected)

        let again = try LedgerCLI.run(["ledger", "import", "--store", store, "--json"] + LedgerCLI.trust + [file])
        #expect(again.stdout.contains("\"appended\":0"), "\(again.stdout)")
        #expect(again.stdout.contains("\"duplicate\":4"), "\(again.stdout)")
        #expect(try opened.logCount() == 9)
    }

    /// Input: the entitlements of one imported account through the binary and through the library. Expected: the
    /// same JSON document, byte for byte.
    @Test("the command prints the library's entitlements document", arguments: StoreKind.available)
    func entitlementsDocument(kind: StoreKind) throws {
        let store = try TestStores.location(kind)
        let file = try LedgerCLI.file(Array(Self.bulk.prefix(5)))
        _ = try LedgerCLI.run(["ledger", "import", "--store", store] + LedgerCLI.trust + [file])
        let at = LedgerWorld.at(day: 3)
        let run = try LedgerCLI.run([
            "ledger", "entitlements", "--store", store, "--app-account-token", "0B6B6B8E-9A5A-4C3E-8A1F-3C2E5F7A9D10",
            "--at", String(at), "--json",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let document = try Ledger.entitlements(
            in: LedgerCLIStores.open(store), for: .appAccountToken("0b6b6b8e-9a5a-4c3e-8a1f-3c2e5f7a9d10"),
            at: Timestamp(millisecondsSince1970: Double(at)))
        #expect(run.stdout == document.jsonText(pretty: false) + "\n")
        #expect(document.entitlements.count == 5)
        #expect(document.entitlements.allSatisfy { $0.status == .active })
    }

    /// Input: `ledger entitlements` and `ledger rebuild` on an SQLite path that does not exist. Expected: exit 66
    /// naming the store, and no file created (a mistyped path is not an empty ledger).
    @Test("reading a missing SQLite store is an error and creates nothing")
    func missingStore() throws {
        let path = TestStores.temporarySQLitePath()
        let entitlements = try LedgerCLI.run([
            "ledger", "entitlements", "--store", "sqlite:" + path, "--original-transaction-id", "1",
        ])
        #expect(entitlements.status == 66)
        #expect(entitlements.stderr.contains("storeNotOpened"), "\(entitlements.stderr)")
        let rebuild = try LedgerCLI.run(["ledger", "rebuild", "--store", "sqlite:" + path])
        #expect(rebuild.status == 66)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    /// Input: an import of 2,000 notifications killed with SIGKILL after its first group committed, then run again.
    /// Expected: the second run appends the rest and finds the committed ones as duplicates; the log holds every
    /// item once and the state equals that of an import never interrupted.
    @Test("an import killed with SIGKILL and run again stores every item exactly once", arguments: StoreKind.available)
    func killedImport(kind: StoreKind) throws {
        let store = try TestStores.location(kind)
        let file = try LedgerCLI.file(Self.bulk)
        let arguments = ["ledger", "import", "--store", store, "--progress", "--json"] + LedgerCLI.trust + [file]
        let (process, stderr) = try LedgerCLI.start(arguments)
        let unexpected = LedgerCLI.wait(for: "committed:", in: stderr)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(unexpected == nil, "\(unexpected ?? "")")
        #expect(process.terminationReason == .uncaughtSignal, "the import ended before it was killed")
        let before = try LedgerCLIStores.open(store).logCount()
        #expect(before > 0 && before < 6_000, "\(before) items stored before the kill")
        #expect(before % 3 == 0, "a notification was stored without its nested tokens")

        let rerun = try LedgerCLI.run(arguments)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(rerun.stdout.utf8)) as? [String: Any])
        #expect((summary["appended"] as? Int ?? 0) + (summary["duplicate"] as? Int ?? 0) == 2_000)
        #expect(summary["duplicate"] as? Int == Int(before / 3))
        let resumed = try LedgerCLIStores.open(store)
        #expect(try resumed.logCount() == 6_000)
        let clean = try TestStores.make(.sqlite)
        _ = try clean.append(LedgerWorld.shared.entries(Self.bulk.map { try Ledger.tokenOfBody($0) }))
        #expect(try resumed.state() == clean.state())
        #expect(try Ledger.rebuild(resumed, repairing: false).differences == [])
    }

    /// Input: two processes importing the same 2,000 notifications into one PostgreSQL store at once. Expected:
    /// both succeed; the log holds every item once and the state one record per transaction and subscription.
    @Test(
        "two importers of one file into one PostgreSQL store store each item once",
        .enabled(if: StoreKind.available.contains(.postgreSQL)))
    func concurrentImporters() throws {
        let store = try TestStores.location(.postgreSQL)
        let file = try LedgerCLI.file(Self.bulk)
        let arguments = ["ledger", "import", "--store", store, "--json"] + LedgerCLI.trust + [file]
        let runs = try [0, 1].map { _ in try LedgerCLI.start(arguments) }
        for (process, _) in runs {
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        let opened = try LedgerCLIStores.open(store)
        #expect(try opened.logCount() == 6_000)
        let state = try opened.state()
        #expect(state.transactions.count == 2_000 && state.renewals.count == 2_000)
    }

    /// Input: an import into a PostgreSQL server of its own, stopped after the first group committed; then the server
    /// started again and the import run again. Expected: exit 75 with a retryable error, whole notifications only in
    /// the log; the second run stores the rest exactly once.
    @Test(
        "a PostgreSQL server stopped mid-import is a retryable error with nothing half-written",
        .enabled(if: StoreKind.available.contains(.postgreSQL)))
    func serverStopped() throws {
        let server = try DedicatedServer(port: 54_400 + Int.random(in: 0..<90))
        defer { server.remove() }
        let file = try LedgerCLI.file(Self.bulk)
        let arguments = ["ledger", "import", "--store", server.url, "--progress", "--json"] + LedgerCLI.trust + [file]
        let (process, stderr) = try LedgerCLI.start(arguments)
        let unexpected = LedgerCLI.wait(for: "committed:", in: stderr)
        #expect(unexpected == nil, "\(unexpected ?? "")")
        server.stop()
        process.waitUntilExit()
        #expect(process.terminationStatus == 75)
        try server.start()
        let stored = try PostgreSQLLedgerStore(url: server.url).logCount()
        #expect(stored > 0 && stored % 3 == 0, "\(stored)")
        let rerun = try LedgerCLI.run(arguments)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(try PostgreSQLLedgerStore(url: server.url).logCount() == 6_000)
    }
}

/// Opening a `--store` location from a test, as the binary does.
enum LedgerCLIStores {
    static func open(_ location: String) throws -> any LedgerStore {
        if location.hasPrefix("sqlite:") { return try SQLiteLedgerStore(path: String(location.dropFirst(7))) }
        return try PostgreSQLLedgerStore(url: location)
    }
}

extension Ledger {
    /// The `signedPayload` of a notification body this suite wrote.
    static func tokenOfBody(_ body: String) throws -> String {
        let prefix = "{\"signedPayload\":\"", suffix = "\"}"
        guard body.hasPrefix(prefix), body.hasSuffix(suffix) else {
            throw TestStoreError("not a body: \(body.prefix(40))")
        }
        return String(body.dropFirst(prefix.count).dropLast(suffix.count))
    }
}

/// A PostgreSQL server of one test's own (Scripts/postgres-local.sh on another port), to stop and start.
struct DedicatedServer {
    let port: Int
    let url: String
    private let script: String

    init(port: Int) throws {
        self.port = port
        url = "postgresql://postgres@127.0.0.1:\(port)/postgres"
        script =
            LedgerCLI.binary.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scripts/postgres-local.sh").path
        try start()
    }

    /// Starts it (initdb on first use), through `system`: the server outlives the script, and Foundation's
    /// `Process` waits for every holder of its descriptors, so it would wait for the server too.
    func start() throws {
        guard system("LEDGER_PG_PORT=\(port) bash '\(script)' start >/dev/null 2>&1") == 0 else {
            throw TestStoreError("the dedicated PostgreSQL server did not start")
        }
    }

    /// Stops it (fast shutdown: open connections are cut); starting again keeps its data.
    func stop() {
        _ = system("LEDGER_PG_PORT=\(port) bash '\(script)' stop >/dev/null 2>&1")
    }

    /// Stops it and deletes its data.
    func remove() {
        _ = system("LEDGER_PG_PORT=\(port) bash '\(script)' remove >/dev/null 2>&1")
    }
}
