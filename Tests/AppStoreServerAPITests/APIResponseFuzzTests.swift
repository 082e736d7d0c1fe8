import Foundation
import JWSVerify
import Testing

@testable import AppStoreServerAPI

/// The API response fuzz target's entry point (`APIFuzzEntryPoints`, shared with `Fuzz/Sources/FuzzHarness` by a
/// symbolic link), run on seed answers and on every saved input of `Fuzz/regressions/api-responses/`: no crash and
/// no broken property (a broken one stops the process, as under libFuzzer).
@Suite("API response fuzz entry point")
struct APIResponseFuzzTests {
    /// `[call, status]`, header lines, an empty line and `body`, as `APIFuzzEntryPoints.answer` reads them.
    static func input(call: UInt8, status: UInt8 = 0, headers: String = "", _ body: JSONValue) -> [UInt8] {
        [call, status] + Array((headers + "\n\n").utf8) + Array(JSONWriter.write(body, pretty: false).utf8)
    }

    /// Seed answers: each call with the generated tokens as its items (transaction info, a history page that always
    /// says more follow, statuses, refunds, notifications, order, app transaction), a 429 with `Retry-After`, a 500,
    /// an empty body, bytes that are not JSON and a body with a control character in Apple's error message.
    static let seeds: [[UInt8]] = {
        let tokens = FuzzVectors.generatedTokens.map { JSONValue.string($0.token) }
        let envelope: [String: JSONValue] = [
            "bundleId": .string("com.example.jwsverify"), "appAppleId": .integer(1234),
            "environment": .string("Sandbox"),
        ]
        func with(_ members: [String: JSONValue]) -> JSONValue { .object(envelope.merging(members) { $1 }) }
        return [
            input(call: 0, .object(["signedTransactionInfo": tokens[0]])),
            input(
                call: 1,
                with(["revision": .string("r1"), "hasMore": .bool(true), "signedTransactions": .array(tokens)])),
            input(
                call: 2,
                with([
                    "data": .array([
                        .object([
                            "subscriptionGroupIdentifier": .string("21482456"),
                            "lastTransactions": .array([
                                .object(["status": .integer(1), "signedTransactionInfo": tokens[0]])
                            ]),
                        ])
                    ])
                ])),
            input(
                call: 3, .object(["hasMore": .bool(true), "revision": .string("r"), "signedTransactions": .array([])])),
            input(
                call: 4,
                .object([
                    "hasMore": .bool(true), "paginationToken": .string("p"),
                    "notificationHistory": .array([.object(["signedPayload": tokens[1]])]),
                ])),
            input(call: 5, .object(["signedTransactions": .array(tokens)])),
            input(call: 6, .object(["signedAppTransactionInfo": tokens[2]])),
            input(
                call: 0, status: 3, headers: "Retry-After: 7",
                .object(["errorCode": .integer(4_290_000), "errorMessage": .string("slow \u{1B}[2J down")])),
            input(call: 1, status: 4, .object([:])),
            [0, 0],
            [2, 0, 10, 10, 0xFF, 0xFE, 0x7B],
        ]
    }()

    /// `Fuzz/regressions/api-responses/`, found by walking up from this file; its files' bytes.
    static let saved: [[UInt8]] = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("Fuzz/regressions/api-responses")
            if let names = try? FileManager.default.contentsOfDirectory(atPath: candidate.path) {
                return names.filter { !$0.hasPrefix(".") }.sorted().compactMap {
                    try? [UInt8](Data(contentsOf: candidate.appendingPathComponent($0)))
                }
            }
            folder.deleteLastPathComponent()
        }
        return []
    }()

    /// Input: each seed answer and saved input. Expected: the entry point returns (its properties hold: a paged call
    /// stops within its limits, no item dropped, a thrown error documented and escaped).
    @Test("seed answers and saved inputs run through the entry point", arguments: seeds + saved)
    func runs(input: [UInt8]) async {
        await APIFuzzEntryPoints.run(input)
    }
}
