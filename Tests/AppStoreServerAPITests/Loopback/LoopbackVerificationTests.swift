import AppStoreServerAPI
import AppStoreServerAPIEmulator
import Foundation
import JWSVerify
import JWSVerifyTesting
import Testing

/// Verified responses over loopback: every signed item of a response comes back with its own verdict, none
/// dropped, the envelope checked against the verifier and against its items, and pages fetched in order by
/// their cursor. Items are minted by the test PKI with real signatures.
@Suite("App Store Server API client: verified responses on loopback")
struct LoopbackVerificationTests {
    static let id = "2000000001"
    static let history = "/inApps/v2/history/\(id)"

    /// A history page of `tokens`, stating this app in Sandbox unless told otherwise.
    static func historyPage(
        _ credentials: APICredentials, _ tokens: [String], revision: String = "r1", hasMore: Bool = false,
        bundleId: String? = nil, environment: String = "Sandbox"
    ) -> APIEmulatorProcess.Response {
        .init(
            json: .object([
                "revision": .string(revision), "hasMore": .bool(hasMore),
                "bundleId": .string(bundleId ?? credentials.bundleId), "appAppleId": .integer(credentials.appAppleId),
                "environment": .string(environment), "signedTransactions": Loopback.strings(tokens),
            ]))
    }

    /// Input: a history page of three transactions whose middle one is signed by an unrelated PKI with the same
    /// names. Expected: three items in order; the first and last verified, the middle one `untrustedChain` at
    /// the chain check; the envelope agrees.
    @Test("a forged item in the middle of a page fails alone and is not dropped")
    func forgedItemInTheMiddle() async throws {
        let loopback = try await Loopback { credentials in
            let good = try credentials.transactions(2)
            return [
                .init(
                    "GET", Self.history,
                    [Self.historyPage(credentials, [good[0], try credentials.forgedTransaction(), good[1]])])
            ]
        }
        defer { loopback.finish() }
        let response = try await loopback.verifying.getTransactionHistory(
            anyTransactionId: Self.id, revision: nil, transactionHistoryRequest: TransactionHistoryRequest())
        #expect(response.items.count == 3)
        #expect(response.items.map(\.index) == [0, 1, 2])
        #expect(response.items[0].isVerified && response.items[2].isVerified)
        #expect(response.items[1].code == .untrustedChain)
        #expect(response.items[1].check == .chain)
        #expect(response.envelopeMismatch == nil)
        #expect(!response.allVerified)
        try await loopback.expectAppleShapedRequests(count: 1)
    }

    /// Input: a page whose second item belongs to another bundle and whose third is a Production item, under an
    /// envelope that states this app in Sandbox. Expected: the second `invalidAppIdentifier` and the third
    /// `invalidEnvironment`, both at the claims check; the first verified.
    @Test("items of another bundle or environment fail at the claims check")
    func otherBundleAndEnvironment() async throws {
        let loopback = try await Loopback { credentials in
            let tokens = [
                try credentials.transactions(1)[0],
                try credentials.transactions(
                    1, overrides: PayloadOverrides(set: ["bundleId": .string("com.example.other")]))[0],
                try credentials.transactions(1, environment: "Production")[0],
            ]
            return [.init("GET", Self.history, [Self.historyPage(credentials, tokens)])]
        }
        defer { loopback.finish() }
        let response = try await loopback.verifying.getTransactionHistory(
            anyTransactionId: Self.id, revision: nil, transactionHistoryRequest: TransactionHistoryRequest())
        #expect(response.items.count == 3)
        #expect(response.items[0].isVerified)
        #expect(response.items[1].code == .invalidAppIdentifier)
        #expect(response.items[1].check == .claims)
        #expect(response.items[2].code == .invalidEnvironment)
        #expect(response.items[2].check == .claims)
    }

    /// Input: an envelope that states another bundle id over items of this app. Expected: the response's
    /// ``VerifiedResponse/envelopeMismatch`` is `envelopeMismatch` (claims), and every item disagrees with the
    /// envelope, so none counts as verified.
    @Test("an envelope of another bundle fails the response and its items")
    func envelopeOfAnotherBundle() async throws {
        let loopback = try await Loopback { credentials in
            [
                .init(
                    "GET", Self.history,
                    [Self.historyPage(credentials, try credentials.transactions(2), bundleId: "com.example.other")])
            ]
        }
        defer { loopback.finish() }
        let response = try await loopback.verifying.getTransactionHistory(
            anyTransactionId: Self.id, revision: nil, transactionHistoryRequest: TransactionHistoryRequest())
        #expect(response.envelopeMismatch?.code == .envelopeMismatch)
        #expect(response.envelopeMismatch?.check == .claims)
        #expect(response.items.count == 2)
        #expect(response.items.allSatisfy { $0.code == .envelopeMismatch && $0.check == .claims })
        #expect(!response.allVerified)
    }

    /// Input: a verifier that accepts Sandbox and Production, and a Production envelope over one Sandbox and
    /// one Production item. Expected: the envelope passes the verifier; the Sandbox item, verified on its own,
    /// disagrees with its envelope (`envelopeMismatch`, claims); the Production item is verified.
    @Test("an item that disagrees with its envelope fails even when the verifier accepts it")
    func itemDisagreesWithEnvelope() async throws {
        let loopback = try await Loopback { credentials in
            let tokens = [
                try credentials.transactions(1)[0], try credentials.transactions(1, environment: "Production")[0],
            ]
            return [.init("GET", Self.history, [Self.historyPage(credentials, tokens, environment: "Production")])]
        }
        defer { loopback.finish() }
        let verifier = try SignedDataVerifier(
            rootCertificates: [loopback.credentials.hierarchy.rootDER], bundleId: loopback.credentials.bundleId,
            appAppleId: loopback.credentials.appAppleId, environments: [.sandbox, .production])
        let response = try await loopback.client.verifying(with: verifier).getTransactionHistory(
            anyTransactionId: Self.id, revision: nil, transactionHistoryRequest: TransactionHistoryRequest())
        #expect(response.envelopeMismatch == nil)
        #expect(response.items[0].result.error == nil)
        #expect(response.items[0].code == .envelopeMismatch)
        #expect(response.items[0].check == .claims)
        #expect(response.items[1].isVerified)
    }

    /// Input: three pages of history chained by `revision` (`hasMore` true, true, false), the second page with a
    /// forged item. Expected: the sequence yields the three pages in order (pages 0, 1, 2), each request carries
    /// the previous page's revision and nothing else changes, every item keeps its page and index, and only the
    /// forged one fails.
    @Test("three pages of history are fetched by revision and verified")
    func threePagesOfHistory() async throws {
        let loopback = try await Loopback { credentials in
            let tokens = try credentials.transactions(6)
            return [
                .init(
                    "GET", Self.history, query: ["sort": ["ASCENDING"]],
                    [
                        Self.historyPage(credentials, Array(tokens[0..<2]), revision: "r1", hasMore: true)
                    ]),
                .init(
                    "GET", Self.history, query: ["sort": ["ASCENDING"], "revision": ["r1"]],
                    [
                        Self.historyPage(
                            credentials, [tokens[2], try credentials.forgedTransaction(), tokens[3]], revision: "r2",
                            hasMore: true)
                    ]),
                .init(
                    "GET", Self.history, query: ["sort": ["ASCENDING"], "revision": ["r2"]],
                    [
                        Self.historyPage(credentials, Array(tokens[4..<6]), revision: "r3", hasMore: false)
                    ]),
            ]
        }
        defer { loopback.finish() }
        var pages: [VerifiedResponse<HistoryResponse>] = []
        for try await page in loopback.verifying.transactionHistory(
            anyTransactionId: Self.id, transactionHistoryRequest: TransactionHistoryRequest(sort: .ascending))
        {
            pages.append(page)
        }
        #expect(pages.map(\.page) == [0, 1, 2])
        #expect(pages.map(\.items.count) == [2, 3, 2])
        let items = pages.flatMap(\.items)
        #expect(items.map(\.page) == [0, 0, 1, 1, 1, 2, 2])
        #expect(items.map(\.index) == [0, 1, 0, 1, 2, 0, 1])
        #expect(
            items.filter { !$0.isVerified }.map { "\($0.page).\($0.index) \($0.code?.rawValue ?? "")" } == [
                "1.1 untrustedChain"
            ])
        try await loopback.expectAppleShapedRequests(count: 3)
    }

    /// Input: two pages of notification history chained by `paginationToken` (the request body repeated), each
    /// with signed notifications of this app. Expected: both pages in order, the second request carries the
    /// first page's token, every notification verified.
    @Test("notification history is fetched by paginationToken and verified")
    func notificationHistoryPages() async throws {
        let path = "/inApps/v1/notifications/history"
        let loopback = try await Loopback { credentials in
            func page(_ token: String?, more: Bool) throws -> APIEmulatorProcess.Response {
                let items = try (0..<2).map { _ in
                    JSONValue.object([
                        "signedPayload": .string(try credentials.item(.notification)),
                        "sendAttempts": .array([
                            .object([
                                "attemptDate": .integer(1_698_148_900_000), "sendAttemptResult": .string("SUCCESS"),
                            ])
                        ]),
                    ])
                }
                var object: [String: JSONValue] = ["hasMore": .bool(more), "notificationHistory": .array(items)]
                if let token { object["paginationToken"] = .string(token) }
                return .init(json: .object(object))
            }
            return [
                .init("POST", path, query: [:], [try page("57715481-805a-4283-8499-1c19b5d6b20a", more: true)]),
                .init(
                    "POST", path, query: ["paginationToken": ["57715481-805a-4283-8499-1c19b5d6b20a"]],
                    [try page(nil, more: false)]),
            ]
        }
        defer { loopback.finish() }
        let request = NotificationHistoryRequest(
            startDate: LoopbackEndpointTests.recentStart, endDate: LoopbackEndpointTests.recentEnd)
        var pages: [VerifiedResponse<NotificationHistoryResponse>] = []
        for try await page in loopback.verifying.notificationHistory(notificationHistoryRequest: request) {
            pages.append(page)
        }
        #expect(pages.map(\.page) == [0, 1])
        #expect(pages.allSatisfy { $0.allVerified && $0.items.count == 2 })
        let log = try await loopback.emulator.log()
        #expect(log.count == 2 && log[0].body == log[1].body)
        try await loopback.expectAppleShapedRequests(count: 2)
    }

    /// Input: a subscription-status response of one group with two last transactions, each with a transaction
    /// and a renewal info. Expected: four items (two transactions, then two renewals, kinds from the kind
    /// table), all verified.
    @Test("subscription statuses verify every transaction and renewal")
    func subscriptionStatuses() async throws {
        let loopback = try await Loopback { credentials in
            [.init("GET", "/inApps/v1/subscriptions/\(Self.id)", [try credentials.subscriptionStatuses(2)])]
        }
        defer { loopback.finish() }
        let response = try await loopback.verifying.getAllSubscriptionStatuses(anyTransactionId: Self.id)
        #expect(response.items.count == 4)
        #expect(response.items.map(\.kind) == [.transaction, .transaction, .renewalInfo, .renewalInfo])
        #expect(response.allVerified, "\(response.failures.map { "\($0.code?.rawValue ?? "")" })")
        try await loopback.expectAppleShapedRequests(count: 1)
    }
}
