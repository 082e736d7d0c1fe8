import Foundation
import PurchaseLedger
import Testing

@testable import PurchaseLedgerPostgreSQL

/// The stores every shared test runs against: SQLite always, PostgreSQL when `LEDGER_TEST_POSTGRESQL` names a
/// server (`.ci/run` starts one with Scripts/postgres-local.sh; under CI a missing server fails the tests instead of
/// skipping them).
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgreSQL

    var testDescription: String { rawValue }

    /// The kinds this run tests.
    static var available: [StoreKind] {
        TestStores.postgreSQLURL != nil || ProcessInfo.processInfo.environment["CI"] == "true"
            ? allCases : [.sqlite]
    }
}

enum TestStores {
    /// The server's URL, from `LEDGER_TEST_POSTGRESQL`.
    static var postgreSQLURL: String? { ProcessInfo.processInfo.environment["LEDGER_TEST_POSTGRESQL"] }

    /// A new, empty store of `kind`: a new SQLite file in a new temporary directory, or a new PostgreSQL schema.
    static func make(_ kind: StoreKind) throws -> any LedgerStore {
        switch kind {
        case .sqlite: return try SQLiteLedgerStore(path: temporarySQLitePath())
        case .postgreSQL: return try PostgreSQLLedgerStore(url: freshPostgreSQLURL())
        }
    }

    /// The location of a new store of `kind`, as the CLI's `--store` takes it.
    static func location(_ kind: StoreKind) throws -> String {
        switch kind {
        case .sqlite: return "sqlite:" + temporarySQLitePath()
        case .postgreSQL: return try freshPostgreSQLURL()
        }
    }

    /// A path in a new temporary directory.
    static func temporarySQLitePath() -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ledger-tests-" + UUID().uuidString, isDirectory: true)
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("ledger.sqlite").path
    }

    /// A URL whose connections use a new, empty schema of the test server (`search_path`), so that tests running
    /// at once never see each other's tables.
    static func freshPostgreSQLURL() throws -> String {
        guard let url = postgreSQLURL else {
            throw TestStoreError(
                "LEDGER_TEST_POSTGRESQL is not set: run eval \"$(bash Scripts/postgres-local.sh start)\"")
        }
        let schema = "ledger_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let connection = try PostgreSQLConnection(url: url)
        try connection.run("CREATE SCHEMA \(schema)", [])
        return url + (url.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema)"
    }

    /// Runs SQL on the test server (fault tests: terminating another connection).
    static func runOnServer(_ sql: String) throws {
        guard let url = postgreSQLURL else { throw TestStoreError("LEDGER_TEST_POSTGRESQL is not set") }
        try PostgreSQLConnection(url: url).run(sql, [])
    }
}

struct TestStoreError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
