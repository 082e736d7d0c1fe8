import AppStoreServerAPI
import Foundation
import JWSVerify
import JWSVerifyTesting
import Testing

@Suite("Verified responses: every signed item with its own verdict")
struct VerifiedResponseTests {
    /// Sandbox transactions minted by the test PKI.
    static func transactions(
        _ count: Int, bundleId: String = Fixtures.bundleId, environment: String = "Sandbox"
    )
        throws -> [String]
    {
        try Fixtures.minter().mint(
            .transaction, parameters: Fixtures.parameters(environment: environment, bundleId: bundleId), count: count)
    }

    /// `token` with the signature of `other`: well formed, signed by the right chain, the wrong signature.
    static func forged(_ token: String, signatureOf other: String) -> String {
        let parts = token.split(separator: ".")
        return parts[0] + "." + parts[1] + "." + (other.split(separator: ".").last ?? "")
    }

    static func historyBody(
        _ tokens: [JSONValue], environment: String = "Sandbox", bundleId: String = Fixtures.bundleId,
        revision: String? = "r1", hasMore: Bool = false
    ) throws -> Data {
        var object: [String: JSONValue] = [
            "bundleId": .string(bundleId), "appAppleId": .integer(Fixtures.appAppleId),
            "environment": .string(environment), "hasMore": .bool(hasMore), "signedTransactions": .array(tokens),
        ]
        if let revision { object["revision"] = .string(revision) }
        return try JSONEncoder().encode(JSONValue.object(object))
    }

    /// Input: a history page of six items: three good transactions, one forged in the middle, one of another
    /// bundle, one that is not a JWS. Expected: six items in order, each with its own verdict (code and check);
    /// none dropped.
    @Test("a page with a forged item, another bundle's item and a non-token keeps all six with their verdicts")
    func mixedPage() async throws {
        let good = try Self.transactions(4)
        let other = try Self.transactions(1, bundleId: "com.example.other")[0]
        let tokens: [JSONValue] = [
            .string(good[0]), .string(good[1]), .string(Self.forged(good[2], signatureOf: good[3])), .string(other),
            .string("not-a-token"), .string(good[3]),
        ]
        let verified = try await APIResponseVerifier(verifier: Fixtures.verifier()).verify(
            body: Self.historyBody(tokens), as: HistoryResponse.self, kind: .transactionHistory)
        #expect(verified.items.count == 6)
        #expect(verified.items.map(\.index) == Array(0..<6))
        #expect(verified.items.map(\.path) == (0..<6).map { "signedTransactions[\($0)]" })
        #expect(verified.items.map(\.isVerified) == [true, true, false, false, false, true])
        #expect(verified.items[2].code == .invalidSignature && verified.items[2].check == .signature)
        #expect(verified.items[3].code == .invalidAppIdentifier && verified.items[3].check == .claims)
        #expect(verified.items[4].code == .malformedToken && verified.items[4].check == .format)
        #expect(verified.items[0].transaction?.bundleId == Fixtures.bundleId)
        #expect(verified.envelopeMismatch == nil && !verified.allVerified && verified.failures.count == 3)
    }

    /// Input: a page whose `signedTransactions` holds a number. Expected: malformedResponse (the response is not
    /// Apple's shape), never a page with an item silently missing.
    @Test("a signed member that is not a string makes the response malformed")
    func nonStringMember() async throws {
        let tokens: [JSONValue] = [.string(try Self.transactions(1)[0]), .integer(7)]
        let error = await #expect(throws: APIError.self) {
            try await APIResponseVerifier(verifier: Fixtures.verifier()).verify(
                body: Self.historyBody(tokens), as: HistoryResponse.self, kind: .transactionHistory)
        }
        #expect(error?.kind == .malformedResponse)
        let items = APIResponseKind.transactionHistory.signedItems(in: [
            "signedTransactions": .array(tokens), "bundleId": .string(Fixtures.bundleId),
        ])
        #expect(items.count == 2 && items[1].token == nil && items[1].path == "signedTransactions[1]")
    }

    /// Input: a page whose envelope says Production while the verifier and the items are Sandbox. Expected: the
    /// response's envelopeMismatch is set; each verified item is reported `envelopeMismatch` (check claims).
    @Test("an envelope that disagrees with the verifier and its items is reported on the response and each item")
    func envelopeDisagrees() async throws {
        let tokens = try Self.transactions(2).map(JSONValue.string)
        let verified = try await APIResponseVerifier(verifier: Fixtures.verifier()).verify(
            body: Self.historyBody(tokens, environment: "Production"), as: HistoryResponse.self,
            kind: .transactionHistory)
        #expect(verified.envelopeMismatch?.code == .envelopeMismatch)
        #expect(verified.items.count == 2)
        for item in verified.items {
            #expect(item.result.isVerified)
            #expect(item.code == .envelopeMismatch && item.check == .claims && !item.isVerified)
        }
    }

    /// Input: an envelope of another bundle id. Expected: envelopeMismatch on the response and on each item.
    @Test("an envelope of another bundle is reported")
    func envelopeOtherBundle() async throws {
        let tokens = try Self.transactions(1).map(JSONValue.string)
        let verified = try await APIResponseVerifier(verifier: Fixtures.verifier()).verify(
            body: Self.historyBody(tokens, bundleId: "com.example.other"), as: HistoryResponse.self,
            kind: .transactionHistory)
        #expect(verified.envelopeMismatch?.code == .envelopeMismatch)
        #expect(verified.items[0].code == .envelopeMismatch)
    }

    /// The `originalTransactionId` a minted token states (read without verifying).
    static func originalTransactionId(_ token: String) throws -> String {
        try #require(SignedDataVerifier.decodeUnverified(token).payload?.originalTransactionId)
    }

    /// A Get All Subscription Statuses body: one group (`group`, by default the minted transactions'), an entry per
    /// (transaction, renewal info, stated original transaction id: none when nil).
    static func statusesBody(
        _ entries: [(transaction: String, renewal: String, original: String?)],
        group: String = "21482456"
    ) throws -> Data {
        let last: [JSONValue] = entries.map { entry in
            var members: [String: JSONValue] = [
                "status": .integer(1), "signedTransactionInfo": .string(entry.transaction),
                "signedRenewalInfo": .string(entry.renewal),
            ]
            if let original = entry.original { members["originalTransactionId"] = .string(original) }
            return .object(members)
        }
        return try JSONEncoder().encode(
            JSONValue.object([
                "environment": .string("Sandbox"), "bundleId": .string(Fixtures.bundleId),
                "appAppleId": .integer(Fixtures.appAppleId),
                "data": .array([
                    .object(["subscriptionGroupIdentifier": .string(group), "lastTransactions": .array(last)])
                ]),
            ]))
    }

    /// Input: statuses with two subscriptions, each a transaction and renewal info. Expected: four items, paths
    /// from the table, kinds transaction and renewal info, all verified.
    @Test("subscription statuses verify every transaction and renewal info")
    func statuses() async throws {
        let minter = try Fixtures.minter()
        let transactions = try minter.mint(.transaction, parameters: Fixtures.parameters(), count: 2)
        let renewals = try minter.mint(.renewalInfo, parameters: Fixtures.parameters(), count: 2)
        let body = try Self.statusesBody(
            try (0..<2).map { (transactions[$0], renewals[$0], try Self.originalTransactionId(transactions[$0])) })
        let verified = try await APIResponseVerifier(verifier: Fixtures.verifier()).verify(
            body: body, as: StatusResponse.self, kind: .subscriptionStatuses)
        #expect(verified.items.count == 4 && verified.allVerified)
        #expect(verified.items.map(\.kind) == [PayloadKind.transaction, .transaction, .renewalInfo, .renewalInfo])
        #expect(verified.items[2].path == "data[0].lastTransactions[0].signedRenewalInfo")
        #expect(verified.items[2].renewalInfo != nil)
    }

    /// Input: a statuses entry whose renewal information belongs to another subscription than the entry states
    /// (a valid token moved between entries). Expected: that item is `envelopeMismatch` at claims, and so is the
    /// entry's transaction, which it does not pair with; the other entry verifies.
    @Test("an item whose originalTransactionId is not its entry's is envelopeMismatch")
    func statusesEntryMismatch() async throws {
        let minter = try Fixtures.minter()
        let transactions = try minter.mint(.transaction, parameters: Fixtures.parameters(), count: 2)
        let renewals = try minter.mint(.renewalInfo, parameters: Fixtures.parameters(), count: 2)
        let originals = try transactions.map(Self.originalTransactionId)
        #expect(originals[0] != originals[1])
        let body = try Self.statusesBody([
            (transactions[0], renewals[0], originals[0]), (transactions[1], renewals[0], originals[1]),
        ])
        let verified = try await APIResponseVerifier(verifier: Fixtures.verifier()).verify(
            body: body, as: StatusResponse.self, kind: .subscriptionStatuses)
        #expect(verified.items.map(\.isVerified) == [true, false, true, false])
        #expect(verified.items[3].code == .envelopeMismatch && verified.items[3].check == .claims)
        #expect(verified.items[3].path == "data[0].lastTransactions[1].signedRenewalInfo")
        #expect(verified.items[1].code == .envelopeMismatch && verified.items[1].check == .claims)
    }

    /// Input: issue #39's pairing: a statuses entry with no `originalTransactionId` of its own that holds one
    /// subscription's transaction and another's renewal info. Expected: both items `envelopeMismatch` at claims,
    /// the message naming the two ids (before: both verified); the well-paired entry verifies.
    @Test("a transaction and a renewal info of different subscriptions in one entry are envelopeMismatch")
    func statusesSignedPairing() async throws {
        let minter = try Fixtures.minter()
        let transactions = try minter.mint(.transaction, parameters: Fixtures.parameters(), count: 2)
        let renewals = try minter.mint(.renewalInfo, parameters: Fixtures.parameters(), count: 2)
        let originals = try transactions.map(Self.originalTransactionId)
        #expect(try renewals.map(Self.originalTransactionId) == originals)
        let body = try Self.statusesBody([(transactions[0], renewals[0], nil), (transactions[1], renewals[0], nil)])
        let verified = try await APIResponseVerifier(verifier: Fixtures.verifier()).verify(
            body: body, as: StatusResponse.self, kind: .subscriptionStatuses)
        #expect(verified.items.map(\.isVerified) == [true, false, true, false])
        for index in [1, 3] {
            let error = try #require(verified.items[index].error)
            #expect(error.code == .envelopeMismatch && error.check == .claims)
            #expect(
                error.message
                    == "in data[0].lastTransactions[1], the transaction's originalTransactionId \"\(originals[1])\""
                    + " is not the renewal info's \"\(originals[0])\"")
        }
    }

    /// Input: a statuses group that states another `subscriptionGroupIdentifier` than its transactions. Expected:
    /// each transaction `envelopeMismatch` at claims naming both groups (before: verified); the renewal infos,
    /// which state no group, verify.
    @Test("a transaction of another subscription group than its group's is envelopeMismatch")
    func statusesGroupMismatch() async throws {
        let minter = try Fixtures.minter()
        let transactions = try minter.mint(.transaction, parameters: Fixtures.parameters(), count: 2)
        let renewals = try minter.mint(.renewalInfo, parameters: Fixtures.parameters(), count: 2)
        let body = try Self.statusesBody(
            [(transactions[0], renewals[0], nil), (transactions[1], renewals[1], nil)], group: "99")
        let verified = try await APIResponseVerifier(verifier: Fixtures.verifier()).verify(
            body: body, as: StatusResponse.self, kind: .subscriptionStatuses)
        #expect(verified.items.map(\.isVerified) == [false, false, true, true])
        let error = try #require(verified.items[0].error)
        #expect(error.code == .envelopeMismatch && error.check == .claims)
        #expect(error.message == "the transaction's subscriptionGroupIdentifier \"21482456\" is not its group's \"99\"")
    }

    /// Input: Get Transaction Info answered with a valid transaction of another purchase. Expected: the item is
    /// `envelopeMismatch` when the call named another id; the same answer for its own id verifies.
    @Test("Get Transaction Info answered with another transaction is envelopeMismatch")
    func transactionInfoOfAnotherId() async throws {
        let token = try Self.transactions(1)[0]
        let body = try JSONEncoder().encode(JSONValue.object(["signedTransactionInfo": .string(token)]))
        let responses = APIResponseVerifier(verifier: try Fixtures.verifier())
        let other = try await responses.verify(
            body: body, as: TransactionInfoResponse.self, kind: .transactionInfo, requestedTransactionId: "999")
        #expect(other.items[0].code == .envelopeMismatch && other.items[0].check == .claims)
        let own = try await responses.verify(
            body: body, as: TransactionInfoResponse.self, kind: .transactionInfo,
            requestedTransactionId: try #require(SignedDataVerifier.decodeUnverified(token).payload?.transactionId))
        #expect(own.allVerified)
    }

    /// Input: issue #39's case: Get Transaction Info asked for 1000, answered with the valid renewal 1007 whose
    /// `originalTransactionId` is 1000. Expected: `envelopeMismatch` at claims (before: verified): asked for an
    /// original transaction id, Apple answers with that transaction (whose id it is), not a renewal of it; the
    /// transaction 1000 itself verifies.
    @Test("Get Transaction Info answered with a renewal of the transaction asked for is envelopeMismatch")
    func transactionInfoOfRenewal() async throws {
        func body(_ transactionId: String) throws -> Data {
            let token = try Fixtures.minter().mint(
                .transaction, parameters: Fixtures.parameters(),
                overrides: PayloadOverrides(set: [
                    "transactionId": .string(transactionId), "originalTransactionId": .string("1000"),
                ]))[0]
            return try JSONEncoder().encode(JSONValue.object(["signedTransactionInfo": .string(token)]))
        }
        let responses = APIResponseVerifier(verifier: try Fixtures.verifier())
        let renewal = try await responses.verify(
            body: try body("1007"), as: TransactionInfoResponse.self, kind: .transactionInfo,
            requestedTransactionId: "1000")
        let error = try #require(renewal.items[0].error)
        #expect(error.code == .envelopeMismatch && error.check == .claims)
        #expect(error.message == "the item's transactionId \"1007\" is not the one asked for, \"1000\"")
        let original = try await responses.verify(
            body: try body("1000"), as: TransactionInfoResponse.self, kind: .transactionInfo,
            requestedTransactionId: "1000")
        #expect(original.allVerified)
    }

    /// Input: history pages whose envelope leaves out bundleId, or environment. Expected: the response is
    /// `envelopeMismatch` (removing a member never skips its check); with both, it verifies.
    @Test("an envelope that leaves out its bundleId or environment is envelopeMismatch")
    func envelopeMembersMissing() async throws {
        let tokens = try Self.transactions(1).map(JSONValue.string)
        for member in ["bundleId", "environment"] {
            guard case .object(var object) = try JSONDecoder().decode(JSONValue.self, from: Self.historyBody(tokens))
            else { Issue.record("not an object"); return }
            object[member] = nil
            let verified = try await APIResponseVerifier(verifier: Fixtures.verifier()).verify(
                body: try JSONEncoder().encode(JSONValue.object(object)), as: HistoryResponse.self,
                kind: .transactionHistory)
            #expect(verified.envelopeMismatch?.code == .envelopeMismatch, "\(member)")
            #expect(verified.envelopeMismatch?.message.contains(member) == true, "\(member)")
            #expect(!verified.allVerified)
        }
    }

    /// Input: a body that is not JSON, and one truncated. Expected: malformedResponse that says which.
    @Test("a non-JSON or truncated body is malformedResponse and says so")
    func malformedBodies() async throws {
        let responses = APIResponseVerifier(verifier: try Fixtures.verifier())
        let html = await #expect(throws: APIError.self) {
            try await responses.verify(
                body: Data("<html>busy</html>".utf8), as: HistoryResponse.self, kind: .transactionHistory)
        }
        #expect(html?.kind == .malformedResponse && html?.message.contains("not JSON") == true)
        let full = try Self.historyBody(try Self.transactions(1).map(JSONValue.string))
        let truncated = await #expect(throws: APIError.self) {
            try await responses.verify(
                body: full.prefix(full.count / 2), as: HistoryResponse.self, kind: .transactionHistory)
        }
        #expect(truncated?.kind == .malformedResponse && truncated?.message.contains("truncated") == true)
    }

    /// Input: three history pages served in turn (revision r1, r2, then hasMore false). Expected: the sequence
    /// yields three verified pages, numbered 0–2, and the requests carry revision r1 then r2.
    @Test("history pages are fetched and verified one after the other by revision")
    func historyPages() async throws {
        let tokens = try Self.transactions(3).map(JSONValue.string)
        let pages = try [
            Self.historyBody([tokens[0]], revision: "r1", hasMore: true),
            Self.historyBody([tokens[1]], revision: "r2", hasMore: true),
            Self.historyBody([tokens[2]], revision: "r3", hasMore: false),
        ]
        let transport = InMemoryTransport(pages.map { .success(APIResponse(status: 200, body: $0)) })
        let client = try Fixtures.client(transport).verifying(with: Fixtures.verifier())
        var seen: [Int] = []
        for try await page in client.transactionHistory(anyTransactionId: "1000") {
            #expect(page.allVerified)
            seen.append(page.page)
        }
        #expect(seen == [0, 1, 2])
        let queries = transport.requests.map { $0.url.query ?? "" }
        #expect(queries == ["", "revision=r1", "revision=r2"])
    }

    /// Input: a page that says hasMore but repeats no new revision. Expected: the page is delivered, then the
    /// sequence throws malformedResponse (no loop).
    @Test("a page that says hasMore without a new revision ends the sequence with an error after delivering it")
    func pagingLoopStops() async throws {
        let tokens = try Self.transactions(1).map(JSONValue.string)
        let body = try Self.historyBody(tokens, revision: nil, hasMore: true)
        let transport = InMemoryTransport(body: body)
        let client = try Fixtures.client(transport).verifying(with: Fixtures.verifier())
        var pages = 0
        let error = await #expect(throws: APIError.self) {
            for try await _ in client.transactionHistory(anyTransactionId: "1000") { pages += 1 }
        }
        #expect(pages == 1 && error?.kind == .malformedResponse)
    }

    /// Input: pages whose revisions cycle r1, r2, r1 (each says hasMore). Expected: the third page is delivered,
    /// then the sequence throws malformedResponse: a cursor seen before, not only the last one, ends it.
    @Test("history revisions that cycle back to an earlier page end the sequence with an error")
    func pagingCycleStops() async throws {
        let tokens = try Self.transactions(1).map(JSONValue.string)
        let bodies = try ["r1", "r2", "r1", "r2", "r1", "r2", "r1"].map {
            try Self.historyBody(tokens, revision: $0, hasMore: true)
        }
        let transport = InMemoryTransport(bodies.map { .success(APIResponse(status: 200, body: $0)) })
        let client = try Fixtures.client(transport).verifying(with: Fixtures.verifier())
        var pages = 0
        let error = await #expect(throws: APIError.self) {
            for try await _ in client.transactionHistory(anyTransactionId: "1000") {
                pages += 1
                if pages > 5 { return }  // without the check the cycle goes on
            }
        }
        #expect(pages == 3 && error?.kind == .malformedResponse)
    }

    /// Input: a Get Transaction Info answer `{}`, and one whose `signedTransactionInfo` is null. Expected: one item
    /// each, not verified, malformedToken at format: an empty answer never reads as every item verified.
    @Test("a missing or null signed member is an item that fails, never no item")
    func missingSignedMember() async throws {
        for body in ["{}", #"{"signedTransactionInfo":null}"#] {
            let verified = try await APIResponseVerifier(verifier: Fixtures.verifier()).verify(
                body: Data(body.utf8), as: TransactionInfoResponse.self, kind: .transactionInfo)
            #expect(verified.items.count == 1, "\(body)")
            #expect(verified.items.first?.code == .malformedToken && verified.items.first?.check == .format)
            #expect(!verified.allVerified)
        }
        let statuses = APIResponseKind.subscriptionStatuses.signedItems(in: [
            "data": .array([.object(["lastTransactions": .array([.object(["signedRenewalInfo": .string("x")])])])])
        ])
        #expect(
            statuses.map(\.path) == [
                "data[0].lastTransactions[0].signedTransactionInfo",
                "data[0].lastTransactions[0].signedRenewalInfo",
            ])
        #expect(statuses.first?.token == nil)
    }
}
