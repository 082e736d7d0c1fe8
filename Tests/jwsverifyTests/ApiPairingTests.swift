import AppStoreServerAPIEmulator
import Foundation
import JWSVerify
import JWSVerifyTesting
import Testing

/// Issue #39: signed items that must belong together, checked by `jwsverify api` against the emulator on loopback.
@Suite("jwsverify api: signed items paired", .serialized)
struct ApiPairingTests {
    /// Input: Get All Subscription Statuses whose one entry states no `originalTransactionId` and holds the
    /// transaction of subscription 3000000001 and the renewal info of 3000000002, both valid. Expected: exit 1,
    /// both lines `envelopeMismatch` at claims naming the two ids (before: exit 0, both verified).
    @Test("statuses: a transaction and another subscription's renewal info in one entry fail, exit 1")
    func statusesMispaired() async throws {
        let fixture = try await ApiCommandTests.Fixture { credentials in
            func item(_ kind: TestPayloadKind, _ original: String) throws -> JSONValue {
                .string(
                    try credentials.item(
                        kind, overrides: PayloadOverrides(set: ["originalTransactionId": .string(original)])))
            }
            let entry = JSONValue.object([
                "status": .integer(1), "signedTransactionInfo": try item(.transaction, "3000000001"),
                "signedRenewalInfo": try item(.renewalInfo, "3000000002"),
            ])
            let body = JSONValue.object([
                "environment": .string("Sandbox"), "bundleId": .string(credentials.bundleId),
                "appAppleId": .integer(credentials.appAppleId),
                "data": .array([
                    .object([
                        "subscriptionGroupIdentifier": .string(APICredentials.subscriptionGroupIdentifier),
                        "lastTransactions": .array([entry]),
                    ])
                ]),
            ])
            return [.init("GET", "/inApps/v1/subscriptions/\(ApiCommandTests.id)", [.init(json: body)])]
        }
        defer { fixture.finish() }
        let run = try fixture.run(["statuses", ApiCommandTests.id])
        #expect(run.status == 1, "\(run.stderr)")
        let lines = try fixture.lines(run)
        #expect(lines.count == 2)
        for line in lines {
            #expect(line["verified"] as? Bool == false && line["code"] as? String == "envelopeMismatch")
            #expect(line["check"] as? String == "claims")
            #expect(
                line["message"] as? String
                    == "in data[0].lastTransactions[0], the transaction's originalTransactionId \"3000000001\" is not"
                    + " the renewal info's \"3000000002\"")
        }
    }

    /// Input: Get Transaction Info for 1000 answered with the valid transaction 1007 whose `originalTransactionId`
    /// is 1000 (a renewal of the one asked for). Expected: exit 1, the line `envelopeMismatch` at claims (before:
    /// exit 0).
    @Test("transaction: a renewal of the transaction asked for fails, exit 1")
    func transactionInfoRenewal() async throws {
        let fixture = try await ApiCommandTests.Fixture { credentials in
            let token = try credentials.item(
                .transaction,
                overrides: PayloadOverrides(set: [
                    "transactionId": .string("1007"), "originalTransactionId": .string("1000"),
                ]))
            return [
                .init(
                    "GET", "/inApps/v1/transactions/1000",
                    [.init(json: .object(["signedTransactionInfo": .string(token)]))])
            ]
        }
        defer { fixture.finish() }
        let run = try fixture.run(["transaction", "1000"])
        #expect(run.status == 1, "\(run.stderr)")
        let lines = try fixture.lines(run)
        #expect(lines.count == 1 && lines.first?["code"] as? String == "envelopeMismatch", "\(run.stdout)")
        let message = "the item's transactionId \"1007\" is not the one asked for, \"1000\""
        #expect(lines.first?["message"] as? String == message)
    }
}
