import AppStoreServerAPI
import AppStoreServerAPIEmulator
import Foundation
import JWSSigning
import JWSVerify
import JWSVerifyTesting
import PurchaseLedger
import PurchaseLedgerReconciliation
import Testing

/// The reconciler against the project's App Store Server API emulator (which checks every request as Apple's API
/// would): pages committed with their cursors, a stopped run resumed at the page after the last committed,
/// incremental history by revision, refused items counted and never stored, and the status audit.
@Suite("Ledger reconciliation")
struct ReconcilerTests {
    static let historyPath = "/inApps/v1/notifications/history"
    static let credentials: APICredentials = {
        do {
            return try APICredentials(bundleId: LedgerWorld.bundleId, appAppleId: LedgerWorld.appAppleId)
        } catch {
            preconditionFailure("the API key cannot be generated: \(error)")
        }
    }()

    /// A reconciler of a new store of `kind` through the emulator, in Sandbox.
    static func reconciler(_ kind: StoreKind, _ emulator: APIEmulatorProcess) throws -> LedgerReconciler {
        let client = AppStoreServerAPIClient(
            signingKey: try ES256SigningKey(pemRepresentation: credentials.apiKey.pkcs8PEM()),
            keyId: credentials.keyId, issuerId: credentials.issuerId, bundleId: LedgerWorld.bundleId,
            baseURL: emulator.baseURL)
        let ledger = Ledger(store: try TestStores.make(kind), verifier: LedgerWorld.shared.verifier)
        return LedgerReconciler(ledger: ledger, client: client, environment: .sandbox)
    }

    /// A renewal notification of purchase `original` (its transaction and renewal info nested).
    static func renewal(_ number: Int, original: String = "7000") throws -> String {
        let world = LedgerWorld.shared
        let purchase = LedgerWorld.at(day: Double(30 * number))
        return try world.notification(
            "DID_RENEW", uuid: UUID().uuidString.lowercased(), signed: purchase,
            transaction: .init(
                id: "\(original)\(number)", original: original, purchase: purchase,
                expires: purchase + 30 * LedgerWorld.day, signed: purchase),
            renewal: .init(original: original, signed: purchase))
    }

    /// A Get Notification History page.
    static func historyPage(_ payloads: [String], next: String?) -> APIEmulatorProcess.Response {
        var body: [String: JSONValue] = [
            "notificationHistory": .array(
                payloads.map { .object(["signedPayload": .string($0), "sendAttempts": .array([])]) }),
            "hasMore": .bool(next != nil),
        ]
        if let next { body["paginationToken"] = .string(next) }
        return .init(json: .object(body))
    }

    /// A Get Transaction History page.
    static func transactionPage(_ tokens: [String], revision: String, hasMore: Bool) -> APIEmulatorProcess.Response {
        .init(
            json: .object([
                "revision": .string(revision), "hasMore": .bool(hasMore), "bundleId": .string(LedgerWorld.bundleId),
                "appAppleId": .integer(LedgerWorld.appAppleId), "environment": .string("Sandbox"),
                "signedTransactions": .array(tokens.map(JSONValue.string)),
            ]))
    }

    /// Input: two pages of notification history; the request for page two first answered 503. Expected: the first
    /// run commits page one and stops (retryable) with page two's token saved; the second resumes at page two with
    /// the same window and appends only its items; a third, ten minutes later, asks from the end of that window less
    /// the hour of overlap and finds only duplicates. Every request passed the emulator's checks.
    @Test("a run stopped after page one resumes at page two", arguments: StoreKind.available)
    func resumesNotificationHistory(kind: StoreKind) async throws {
        let first = try (1...3).map { try Self.renewal($0) }, second = try (4...5).map { try Self.renewal($0) }
        let emulator = try await APIEmulatorProcess(
            credentials: Self.credentials,
            routes: [
                .init(
                    "POST", Self.historyPath, query: ["paginationToken": ["page-2"]],
                    [.appleError(status: 503, code: 4_040_002, message: "down"), Self.historyPage(second, next: nil)]),
                .init("POST", Self.historyPath, query: [:], [Self.historyPage(first, next: "page-2")]),
            ])
        defer { emulator.stop() }
        let reconciler = try Self.reconciler(kind, emulator)
        let now = Timestamp(Date())
        let start = Timestamp(millisecondsSince1970: now.millisecondsSince1970 - 7_200_000)
        do {
            _ = try await reconciler.syncNotificationHistory(start: start, now: now)
            Issue.record("the 503 of page two did not stop the run")
        } catch {
            #expect(error.isRetryable)
            #expect(error.report.pages == 1 && error.report.appended == 3, "\(error.report)")
        }
        let saved = try reconciler.notificationHistoryPosition()
        #expect(saved?.paginationToken == "page-2")
        #expect(try reconciler.ledger.store.logCount() == 9)

        let resumed = try await reconciler.syncNotificationHistory(now: now)
        #expect(resumed.resumed && resumed.pages == 1 && resumed.appended == 2 && resumed.duplicates == 0)
        #expect(try reconciler.ledger.store.logCount() == 15)
        let end = try #require(try reconciler.notificationHistoryPosition()?.through)
        #expect(end == Int64(now.millisecondsSince1970.rounded()))

        let later = try await reconciler.syncNotificationHistory(now: Timestamp(Date().addingTimeInterval(600)))
        #expect(!later.resumed && later.pages == 2 && later.appended == 0 && later.duplicates == 5)
        #expect(try reconciler.ledger.store.logCount() == 15)

        let requests = try await emulator.log()
        #expect(try await emulator.violations().isEmpty)
        #expect(requests.map { $0.query["paginationToken"] ?? [] } == [[], ["page-2"], ["page-2"], [], ["page-2"]])
        let windows = try requests.map { request in
            try JSONDecoder().decode([String: Int64].self, from: Data(request.body.utf8))
        }
        #expect(windows[0] == windows[1] && windows[1] == windows[2], "a resumed page is asked with its window")
        #expect(windows[3]["startDate"] == end - LedgerReconciler.notificationOverlap)
        let entitlements = try reconciler.ledger.entitlements(
            for: .originalTransactionId("7000"), at: Timestamp(millisecondsSince1970: Double(LedgerWorld.at(day: 151))))
        #expect(entitlements.entitlements.first?.transactionId == "70005")
        #expect(entitlements.entitlements.first?.status == .active)
    }

    /// Input: a first run with nothing saved (it reaches back 30 days: Sandbox), stopped by a 503 after the first page of
    /// its oldest window; run again ten minutes later. Expected: the second run resumes that window at page two
    /// (Apple still reaches its start) and then catches up day by day: contiguous windows of at most a day, the
    /// last ending at its `now`, saved as fetched whole; five notifications appended in all, every other answer a
    /// duplicate.
    @Test("the oldest window is resumed later, then the catch-up goes day by day", arguments: StoreKind.available)
    func catchUp(kind: StoreKind) async throws {
        let first = try (1...3).map { try Self.renewal($0, original: "7200") }
        let second = try (4...5).map { try Self.renewal($0, original: "7200") }
        let emulator = try await APIEmulatorProcess(
            credentials: Self.credentials,
            routes: [
                .init(
                    "POST", Self.historyPath, query: ["paginationToken": ["p2"]],
                    [.appleError(status: 503, code: 4_040_002, message: "down"), Self.historyPage(second, next: nil)]),
                .init("POST", Self.historyPath, query: [:], [Self.historyPage(first, next: "p2")]),
            ])
        defer { emulator.stop() }
        let reconciler = try Self.reconciler(kind, emulator)
        let now = Date()
        await #expect(throws: ReconciliationError.self) {
            _ = try await reconciler.syncNotificationHistory(now: Timestamp(now))
        }
        let later = now.addingTimeInterval(600)
        let report = try await reconciler.syncNotificationHistory(now: Timestamp(later))
        #expect(report.resumed && report.appended == 2 && report.refused.isEmpty)
        #expect(try reconciler.ledger.store.logCount() == 15)
        let end = Int64((later.timeIntervalSince1970 * 1000).rounded())
        #expect(try reconciler.notificationHistoryPosition()?.through == end)
        let windows = try await emulator.log().map { request in
            try JSONDecoder().decode([String: Int64].self, from: Data(request.body.utf8))
        }
        #expect(windows[1] == windows[2], "the resumed page is asked with its window")
        let distinct = windows.dropFirst(2).reduce(into: [[String: Int64]]()) { list, window in
            if list.last != window { list.append(window) }
        }
        #expect(distinct.count >= 30 && distinct.count <= 31, "Sandbox keeps 30 days: \(distinct.count) windows")
        for (earlier, next) in zip(distinct, distinct.dropFirst()) {
            #expect(next["startDate"] == earlier["endDate"])
        }
        #expect(
            distinct.allSatisfy { ($0["endDate"] ?? 0) - ($0["startDate"] ?? 0) <= LedgerReconciler.notificationWindow }
        )
        #expect(distinct.last?["endDate"] == end)
        #expect(try await emulator.violations().isEmpty)
    }

    /// Input: a notification-history page that says more pages follow but gives no pagination token. Expected: its
    /// notifications are appended, the run stops with `malformedResponse`, and no position is saved: the window is
    /// not taken as fetched whole, so the next run asks for it again.
    @Test("a page that says more follow without a token does not pass the window", arguments: StoreKind.available)
    func moreWithoutToken(kind: StoreKind) async throws {
        var page = Self.historyPage([try Self.renewal(1)], next: nil)
        page.json = .object([
            "notificationHistory": .array([
                .object(["signedPayload": .string(try Self.renewal(2)), "sendAttempts": .array([])])
            ]),
            "hasMore": .bool(true),
        ])
        let emulator = try await APIEmulatorProcess(
            credentials: Self.credentials, routes: [.init("POST", Self.historyPath, [page])])
        defer { emulator.stop() }
        let reconciler = try Self.reconciler(kind, emulator)
        let now = Date()
        await #expect {
            _ = try await reconciler.syncNotificationHistory(
                start: Timestamp(now.addingTimeInterval(-3_600)), now: Timestamp(now))
        } throws: { error in
            guard let error = error as? ReconciliationError, case .api(let api) = error.cause else { return false }
            return api.kind == .malformedResponse && error.report.appended == 1 && error.report.pages == 1
        }
        #expect(try reconciler.notificationHistoryPosition() == nil)
        #expect(try reconciler.ledger.store.logCount() == 3)
    }

    /// Input: a purchase's transaction history in two pages (revisions r1, r2), then one new transaction after r2.
    /// Expected: the first sync appends three transactions and saves r2; the second asks from r2 and appends only
    /// the new one; each request carries the same sort, as Apple asks.
    @Test("transaction history by revision picks up only new items", arguments: StoreKind.available)
    func incrementalHistory(kind: StoreKind) async throws {
        let world = LedgerWorld.shared
        let tokens = try (1...4).map { number in
            let purchase = LedgerWorld.at(day: Double(30 * number))
            return try world.token(
                LedgerWorld.Transaction(
                    id: "800\(number)", original: "8001", purchase: purchase, expires: purchase + 30 * LedgerWorld.day,
                    signed: purchase))
        }
        let path = "/inApps/v2/history/8001"
        let emulator = try await APIEmulatorProcess(
            credentials: Self.credentials,
            routes: [
                .init(
                    "GET", path, query: ["revision": ["r2"], "sort": ["ASCENDING"]],
                    [Self.transactionPage([tokens[3]], revision: "r3", hasMore: false)]),
                .init(
                    "GET", path, query: ["revision": ["r1"], "sort": ["ASCENDING"]],
                    [Self.transactionPage([tokens[2]], revision: "r2", hasMore: false)]),
                .init(
                    "GET", path, query: ["sort": ["ASCENDING"]],
                    [Self.transactionPage(Array(tokens[0...1]), revision: "r1", hasMore: true)]),
            ])
        defer { emulator.stop() }
        let reconciler = try Self.reconciler(kind, emulator)
        let full = try await reconciler.syncTransactionHistory(originalTransactionId: "8001")
        #expect(!full.resumed && full.pages == 2 && full.appended == 3 && full.refused.isEmpty)
        let name = reconciler.transactionHistoryCursorName(originalTransactionId: "8001")
        #expect(try reconciler.ledger.store.cursor(named: name) == "r2")
        let incremental = try await reconciler.syncTransactionHistory(originalTransactionId: "8001")
        #expect(incremental.resumed && incremental.pages == 1 && incremental.appended == 1)
        #expect(incremental.duplicates == 0)
        #expect(try reconciler.ledger.store.cursor(named: name) == "r3")
        #expect(try reconciler.ledger.store.logCount() == 4)
        #expect(try await emulator.log().map { $0.query["revision"] ?? [] } == [[], ["r1"], ["r2"]])
        #expect(try await emulator.violations().isEmpty)
    }

    /// Input: a history page holding a good transaction, one signed by another PKI and one of another app.
    /// Expected: the good one appended; the two refused with their codes and paths, counted, never in the log; the
    /// run stops (not retryable) without passing the page, so that nothing it held is skipped.
    @Test("refused items are reported with their codes and never stored", arguments: StoreKind.available)
    func refusedItems(kind: StoreKind) async throws {
        let world = LedgerWorld.shared
        let stranger = try LedgerWorld(hierarchy: TestHierarchy.generate(.appStoreEC, seed: 41))
        let sample = LedgerWorld.Transaction(
            id: "9001", original: "9001", purchase: LedgerWorld.t0, expires: LedgerWorld.at(day: 30),
            signed: LedgerWorld.t0)
        let otherApp = try world.minter.sign(
            DefaultPayloads.transaction(PayloadParameters(bundleId: "com.example.other", environment: "Sandbox")))
        let emulator = try await APIEmulatorProcess(
            credentials: Self.credentials,
            routes: [
                .init(
                    "GET", "/inApps/v2/history/9001",
                    [
                        Self.transactionPage(
                            [try world.token(sample), try stranger.token(sample), otherApp], revision: "r1",
                            hasMore: false)
                    ])
            ])
        defer { emulator.stop() }
        let reconciler = try Self.reconciler(kind, emulator)
        do {
            _ = try await reconciler.syncTransactionHistory(originalTransactionId: "9001")
            Issue.record("the refused items did not stop the run")
        } catch {
            guard case .itemRefused(let first) = error.cause else { throw error }
            #expect(first.code == "untrustedChain" && !error.isRetryable)
            let report = error.report
            #expect(report.appended == 1 && report.duplicates == 0 && report.pages == 1)
            #expect(report.refused.map(\.code) == ["untrustedChain", "invalidAppIdentifier"])
            #expect(report.refused.map(\.path) == ["signedTransactions[1]", "signedTransactions[2]"])
        }
        #expect(try reconciler.ledger.store.logCount() == 1)
        let name = reconciler.transactionHistoryCursorName(originalTransactionId: "9001")
        #expect(try reconciler.ledger.store.cursor(named: name) == nil, "a page with a refused item is not passed")
    }

    /// Input: Get All Subscription Statuses naming two subscriptions the ledger does not hold: one in its grace
    /// period (Apple's status 4, the tokens agree), one whose tokens say expired while the envelope's status says
    /// active (1). Expected: both unknown to the ledger before; after the items are appended, the first agrees and
    /// the second is reported as a difference.
    @Test("the audit compares Apple's status with the ledger's, before and after", arguments: StoreKind.available)
    func audit(kind: StoreKind) async throws {
        let world = LedgerWorld.shared
        let time = LedgerWorld.at(day: 35)
        func entry(_ original: String, status: Int64, grace: Int64?) throws -> JSONValue {
            .object([
                "status": .integer(status), "originalTransactionId": .string(original),
                "signedTransactionInfo": .string(
                    try world.token(
                        LedgerWorld.Transaction(
                            id: original, original: original, purchase: LedgerWorld.t0,
                            expires: LedgerWorld.at(day: 30), signed: LedgerWorld.t0))),
                "signedRenewalInfo": .string(
                    try world.token(
                        LedgerWorld.Renewal(original: original, signed: LedgerWorld.at(day: 30), grace: grace))),
            ])
        }
        let statuses = APIEmulatorProcess.Response(
            json: .object([
                "environment": .string("Sandbox"), "bundleId": .string(LedgerWorld.bundleId),
                "appAppleId": .integer(LedgerWorld.appAppleId),
                "data": .array([
                    .object([
                        "subscriptionGroupIdentifier": .string("21000001"),
                        "lastTransactions": .array([
                            try entry("9101", status: 4, grace: LedgerWorld.at(day: 40)),
                            try entry("9102", status: 1, grace: nil),
                        ]),
                    ])
                ]),
            ]))
        let emulator = try await APIEmulatorProcess(
            credentials: Self.credentials, routes: [.init("GET", "/inApps/v1/subscriptions/9101", [statuses])])
        defer { emulator.stop() }
        let reconciler = try Self.reconciler(kind, emulator)
        let report = try await reconciler.audit(
            originalTransactionIds: ["9101"], at: Timestamp(millisecondsSince1970: Double(time)))
        #expect(report.items.appended == 4 && report.items.refused.isEmpty)
        #expect(report.findings.map(\.originalTransactionId) == ["9101", "9102"])
        #expect(report.findings.map(\.ledgerStatus) == [nil, nil])
        #expect(report.findings.map(\.ledgerStatusAfter) == [.gracePeriod, .expired])
        #expect(report.findings.map(\.differs) == [false, true])
        #expect(
            try reconciler.ledger.store.sampleSubscriptions(environment: "Sandbox", limit: 5).sorted() == [
                "9101", "9102",
            ])
        #expect(try reconciler.ledger.store.sampleSubscriptions(environment: "Production", limit: 5).isEmpty)
    }
}
