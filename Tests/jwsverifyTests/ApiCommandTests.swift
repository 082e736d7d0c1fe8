import AppStoreServerAPIEmulator
import Foundation
import JWSVerify
import JWSVerifyTesting
import Testing

/// `jwsverify api`: the real binary against the App Store Server API emulator on loopback, whose bearer-token
/// checks (signature with the key's public half, claims) prove the token the CLI made.
@Suite("jwsverify api against the emulator", .serialized)
struct ApiCommandTests {
    static let id = "2000000001"

    /// The emulator serving `routes`, the credentials, and the arguments every call needs.
    struct Fixture {
        let credentials: APICredentials
        let emulator: APIEmulatorProcess

        init(_ routes: (APICredentials) throws -> [APIEmulatorProcess.Route]) async throws {
            credentials = try APICredentials()
            emulator = try await APIEmulatorProcess(credentials: credentials, routes: try routes(credentials))
        }

        /// `api` with the key, ids, Sandbox, the test root and the emulator's URL (but the options named in
        /// `omitting`), then `arguments`.
        func run(_ arguments: [String], omitting: Set<String> = [], timeout: Double? = nil) throws -> CLI.Run {
            try CLI.run(self.arguments(arguments, omitting: omitting), timeout: timeout)
        }

        /// The arguments of ``run(_:omitting:timeout:)``.
        func arguments(_ arguments: [String], omitting: Set<String> = []) -> [String] {
            let common = [
                ("--key", credentials.privateKeyFile.path), ("--key-id", credentials.keyId),
                ("--issuer-id", credentials.issuerId), ("--bundle-id", credentials.bundleId),
                ("--environment", "Sandbox"), ("--root", credentials.rootFile.path),
                ("--app-apple-id", String(credentials.appAppleId)), ("--base-url", emulator.baseURL.absoluteString),
            ]
            let options = common.filter { !omitting.contains($0.0) }.flatMap { [$0.0, $0.1] }
            return ["api"] + arguments + options
        }

        /// The result lines on standard output, as JSON objects.
        func lines(_ run: CLI.Run) throws -> [[String: Any]] {
            try run.stdout.split(separator: "\n").map {
                try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
        }

        func finish() {
            emulator.stop()
            credentials.removeFiles()
        }
    }

    /// A history page of `tokens` of this app in Sandbox.
    static func historyPage(
        _ credentials: APICredentials, _ tokens: [String], revision: String, hasMore: Bool
    ) -> APIEmulatorProcess.Response {
        .init(
            json: .object([
                "revision": .string(revision), "hasMore": .bool(hasMore), "bundleId": .string(credentials.bundleId),
                "appAppleId": .integer(credentials.appAppleId), "environment": .string("Sandbox"),
                "signedTransactions": .array(tokens.map(JSONValue.string)),
            ]))
    }

    /// Input: three pages of history chained by revision, the second holding a forged transaction between two good
    /// ones. Expected: exit 1; a line for each of the seven items with its page (from 1) and index, in order; the
    /// forged one `untrustedChain` at the chain check; the summary counts; the requests Apple-shaped.
    @Test("history: every page, every item's line, the forged one failed, exit 1")
    func historyWithForgedItem() async throws {
        let fixture = try await Fixture { credentials in
            let good = try credentials.transactions(6)
            let path = "/inApps/v2/history/\(Self.id)"
            return [
                .init(
                    "GET", path, query: [:],
                    [Self.historyPage(credentials, [good[0], good[1]], revision: "r1", hasMore: true)]),
                .init(
                    "GET", path, query: ["revision": ["r1"]],
                    [
                        Self.historyPage(
                            credentials, [good[2], try credentials.forgedTransaction(), good[3]], revision: "r2",
                            hasMore: true)
                    ]),
                .init(
                    "GET", path, query: ["revision": ["r2"]],
                    [Self.historyPage(credentials, [good[4], good[5]], revision: "r3", hasMore: false)]),
            ]
        }
        defer { fixture.finish() }
        let run = try fixture.run(["history", Self.id])
        #expect(run.status == 1, "\(run.stderr)")
        let lines = try fixture.lines(run)
        #expect(lines.map { $0["page"] as? Int } == [1, 1, 2, 2, 2, 3, 3])
        #expect(lines.map { $0["index"] as? Int } == [0, 1, 0, 1, 2, 0, 1])
        #expect(lines.map { $0["verified"] as? Bool } == [true, true, true, false, true, true, true])
        #expect(lines[3]["code"] as? String == "untrustedChain")
        #expect(lines[3]["check"] as? String == "chain")
        #expect(run.stdout.hasPrefix(#"{"page":1,"index":0,"#))
        #expect(run.stderr.contains("items 7, verified 6, failed 1, pages 3"), "\(run.stderr)")
        #expect(try await fixture.emulator.violations().isEmpty)
    }

    /// Input: subscription statuses of one group, a transaction and a renewal info, all good. Expected: exit 0,
    /// two verified lines on page 1 (a transaction and a renewal info), no violation.
    @Test("statuses: all verified, exit 0")
    func statuses() async throws {
        let fixture = try await Fixture { credentials in
            [.init("GET", "/inApps/v1/subscriptions/\(Self.id)", [try credentials.subscriptionStatuses(1)])]
        }
        defer { fixture.finish() }
        let run = try fixture.run(["statuses", Self.id])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try fixture.lines(run)
        #expect(lines.count == 2 && lines.allSatisfy { $0["verified"] as? Bool == true && $0["page"] as? Int == 1 })
        #expect(run.stderr.contains("items 2, verified 2, failed 0, pages 1"))
        #expect(try await fixture.emulator.violations().isEmpty)
    }

    /// Input: Get Transaction Info, Look Up Order ID and Get Notification History (--start/--end in the body).
    /// Expected: each exits 0 with its verified lines; `-q` prints no line; the emulator saw no violation.
    @Test("transaction, order lookup and notifications verify, exit 0")
    func transactionOrderNotifications() async throws {
        let fixture = try await Fixture { credentials in
            [
                .init(
                    "GET", "/inApps/v1/transactions/\(Self.id)",
                    [
                        .init(
                            json: .object([
                                "signedTransactionInfo": .string(
                                    try credentials.item(
                                        .transaction,
                                        overrides: PayloadOverrides(set: ["transactionId": .string(Self.id)])))
                            ]))
                    ]),
                .init(
                    "GET", "/inApps/v1/lookup/MK5TTTVWJH",
                    [
                        .init(
                            json: .object([
                                "status": .integer(0),
                                "signedTransactions": .array(try credentials.transactions(2).map(JSONValue.string)),
                            ]))
                    ]),
                .init(
                    "POST", "/inApps/v1/notifications/history",
                    [
                        .init(
                            json: .object([
                                "hasMore": .bool(false),
                                "notificationHistory": .array([
                                    .object(["signedPayload": .string(try credentials.item(.notification))])
                                ]),
                            ]))
                    ]),
            ]
        }
        defer { fixture.finish() }
        let transaction = try fixture.run(["transaction", Self.id])
        #expect(transaction.status == 0, "\(transaction.stderr)")
        #expect(try fixture.lines(transaction).count == 1)
        let order = try fixture.run(["order", "MK5TTTVWJH"])
        #expect(order.status == 0, "\(order.stderr)")
        #expect(try fixture.lines(order).map { $0["index"] as? Int } == [0, 1])
        // Apple's window: a start within the past 180 days.
        let end = Date().timeIntervalSince1970.rounded(.down)
        let start = end - 86_400
        let iso = ISO8601DateFormatter()
        let notifications = try fixture.run([
            "notifications", "--start", iso.string(from: Date(timeIntervalSince1970: start)), "--end",
            iso.string(from: Date(timeIntervalSince1970: end)),
        ])
        #expect(notifications.status == 0, "\(notifications.stderr)")
        #expect(try fixture.lines(notifications).first?["kind"] as? String == "notification")
        let quiet = try fixture.run(["transaction", Self.id, "-q"])
        #expect(quiet.status == 0 && quiet.stdout.isEmpty)
        let log = try await fixture.emulator.log()
        #expect(log.last(where: { $0.method == "POST" })?.body.contains(String(Int64(start) * 1000)) == true)
        #expect(try await fixture.emulator.violations().isEmpty)
    }

    /// Input: 429 with Retry-After; Apple's documented 404 error body 4040010; an empty answer `{}`; a history
    /// page holding a forged item followed by 429. Expected: exit 75 for the first; exit 1 for the second with its
    /// status, code and message on standard error; exit 1 with a malformedToken line for the third; exit 1 (not
    /// 75) for the fourth.
    @Test("429 exits 75; Apple's error body exits 1 with its code")
    func apiErrors() async throws {
        let fixture = try await Fixture { credentials in
            [
                .init("GET", "/inApps/v1/transactions/1", [.init(status: 429, headers: ["Retry-After": "1"])]),
                .init(
                    "GET", "/inApps/v1/transactions/2",
                    [.appleError(status: 404, code: 4_040_010, message: "Transaction id not found.")]),
                .init("GET", "/inApps/v1/transactions/3", [.init(json: .object([:]))]),
                .init(
                    "GET", "/inApps/v2/history/4", query: [:],
                    [
                        Self.historyPage(
                            credentials, [try credentials.forgedTransaction()], revision: "r1", hasMore: true)
                    ]),
                .init(
                    "GET", "/inApps/v2/history/4", query: ["revision": ["r1"]],
                    [.init(status: 429, headers: ["Retry-After": "1"])]),
            ]
        }
        defer { fixture.finish() }
        let limited = try fixture.run(["transaction", "1"])
        #expect(limited.status == 75, "\(limited.stderr)")
        #expect(limited.stdout.isEmpty && limited.stderr.contains("429"))
        let missing = try fixture.run(["transaction", "2"])
        #expect(missing.status == 1, "\(missing.stderr)")
        #expect(missing.stderr.contains("404 errorCode 4040010: Transaction id not found."), "\(missing.stderr)")
        // An empty answer is one failed item, never "every item verified".
        let empty = try fixture.run(["transaction", "3"])
        #expect(empty.status == 1 && empty.stdout.contains("malformedToken"), "\(empty.stdout)\(empty.stderr)")
        // A forged item on page 1, then 429: the forgery decides (1), not the retryable error (75).
        let forgedThenLimited = try fixture.run(["history", "4"])
        #expect(forgedThenLimited.status == 1, "\(forgedThenLimited.stderr)")
        #expect(forgedThenLimited.stdout.contains("untrustedChain") && forgedThenLimited.stderr.contains("429"))
    }

    /// Input: Request a Test Notification answered with a token holding control characters (ESC, a newline,
    /// DEL, C1 CSI), a quote, a backslash and U+2028. Expected: exit 0 and one line on standard output, written by
    /// the library's JSON writer: every one of them escaped (no raw control character, no raw U+2028, so the line
    /// stays one line), and the line decodes back to the same token.
    @Test("test-notification prints Apple's answer as one escaped line")
    func testNotificationIsEscaped() async throws {
        let token = "a\u{1B}[31m\n\"q\"\\\u{7F}\u{9B}b\u{2028}c"
        let fixture = try await Fixture { _ in
            [
                .init(
                    "POST", "/inApps/v1/notifications/test",
                    [.init(json: .object(["testNotificationToken": .string(token)]))])
            ]
        }
        defer { fixture.finish() }
        let run = try fixture.run(["test-notification"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasSuffix("\n") && run.stdout.split(separator: "\n").count == 1, "\(run.stdout)")
        let line = run.stdout.dropLast()
        #expect(
            !line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0x2028 })
        #expect(line.contains(#"\u2028"#) && line.contains(#"\u001b"#) && line.contains(#"\u009b"#), "\(line)")
        let decoded = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        #expect(decoded?["testNotificationToken"] as? String == token)
        #expect(try await fixture.emulator.violations().isEmpty)
    }

    /// Input: `--base-url` with plain http to a host that is not loopback, another scheme, a query, a fragment,
    /// and user info. Expected: exit 64 before any call, with the library's reason on standard error.
    @Test("--base-url refuses what is not https or http to loopback, and URLs with a query, fragment or user info")
    func baseURLIsValidated() throws {
        let cases = [
            ("http://api.example.com", "loopback"), ("ftp://127.0.0.1/", "https"),
            ("https://api.example.com/?x=1", "query"), ("https://api.example.com/#top", "fragment"),
            ("https://user:secret@api.example.com", "user info"), ("http://127.0.0.2:8080", "loopback"),
        ]
        for (url, reason) in cases {
            let run = try CLI.run([
                "api", "transaction", Self.id, "--key", "/nonexistent/AuthKey.p8", "--key-id", "K", "--issuer-id",
                "I", "--bundle-id", "com.example", "--base-url", url,
            ])
            #expect(run.status == 64, "\(url): \(run.stderr)")
            #expect(run.stderr.contains("--base-url") && run.stderr.contains(reason), "\(url): \(run.stderr)")
        }
    }

    /// Input: a --key file that does not exist; a call without --issuer-id; notifications without --start.
    /// Expected: 66 naming --key; 64 naming the missing option.
    @Test("a missing key file exits 66; a missing required option exits 64")
    func inputAndUsageErrors() throws {
        let missingKey = try CLI.run([
            "api", "transaction", Self.id, "--key", "/nonexistent/AuthKey.p8", "--key-id", "K", "--issuer-id", "I",
            "--bundle-id", "com.example", "--environment", "Sandbox",
        ])
        #expect(missingKey.status == 66 && missingKey.stderr.contains("--key"), "\(missingKey.stderr)")
        let noIssuer = try CLI.run([
            "api", "transaction", Self.id, "--key", "/nonexistent", "--key-id", "K", "--bundle-id", "com.example",
        ])
        #expect(noIssuer.status == 64 && noIssuer.stderr.contains("--issuer-id"), "\(noIssuer.stderr)")
        let noEnd = try CLI.run([
            "api", "notifications", "--end", "2023-10-24T12:00:00Z", "--key", "/k", "--key-id", "K",
            "--issuer-id", "I", "--bundle-id", "com.example",
        ])
        #expect(noEnd.status == 64 && noEnd.stderr.contains("--start"), "\(noEnd.stderr)")
    }
}
