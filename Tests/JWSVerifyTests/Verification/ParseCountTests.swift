import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// Every token is taken apart once per verification (check 1, `FormatCheck`), whatever the outcome
/// and whichever method is called, and a notification's nested tokens once each: counted by
/// ``OperationCounters/tokenParses``. The counter is process-wide, so the run is an exit test (a
/// process of its own, where no other test verifies anything meanwhile).
@Suite("Parse count: each token parsed once")
struct ParseCountTests {
    /// Input: a good transaction, one with an altered signature, one whose bundle id is not the
    /// configured one, a malformed token, a payload of no kind, a notification with two nested tokens
    /// and one whose nested renewal info has a bad signature; each through `verifyAndDecode` with and
    /// without its kind and through its own method, on a cold verifier and again warm. Expected: one
    /// parse per token, plus one per nested token of a notification whose own checks passed.
    @Test("each token is parsed once, nested tokens included, whatever the verdict")
    func oneParsePerToken() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            exit(ParseCountRun.run())
        }
        // The child exits 0 once it ran every case, and names each broken count on standard error.
        let lines = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self).split(separator: "\n")
        #expect(lines.contains { $0 == ParseCountRun.prefix + "done" }, "the run did not finish")
        for line in lines where line.hasPrefix(ParseCountRun.prefix) && line != ParseCountRun.prefix + "done" {
            Issue.record("\(line)")
        }
    }
}

/// The body of the exit test: writes each broken count to standard error, then `done`.
enum ParseCountRun {
    static let bundleId = "com.example.jwsverify"
    /// Starts each line the child writes about a broken count.
    static let prefix = "one-parse: "

    static func run() -> Int32 {
        var problems: [String] = []
        do {
            let pki = try TestHierarchy.generate(.appStoreEC, seed: 21)
            let minter = try TokenMinter(hierarchy: pki)
            let parameters = PayloadParameters(
                bundleId: bundleId, signedDate: Date(timeIntervalSince1970: 1_780_000_000))
            let good = try minter.mint(.transaction, parameters: parameters)[0]
            let badSignature = CraftedToken.alteringSignature(of: good)
            var otherApp = parameters
            otherApp.bundleId = "com.example.other"
            let badClaims = try minter.mint(.transaction, parameters: otherApp)[0]
            let notification = try minter.mint(.notification, parameters: parameters)[0]
            let renewal = try minter.mint(.renewal, parameters: parameters)[0]
            var nestedFailure = try minter.defaultPayload(.notification, parameters: parameters)
            if case .object(var data)? = nestedFailure["data"] {
                data["signedRenewalInfo"] = .string(CraftedToken.alteringSignature(of: renewal))
                nestedFailure["data"] = .object(data)
            }
            let notificationWithBadNested = try minter.sign(nestedFailure)
            let noKind = try minter.sign(["signedDate": .integer(1_780_000_000_000)])
            let cases: [(name: String, token: String, kind: PayloadKind?, parses: Int, verified: Bool)] = [
                ("good", good, .transaction, 1, true),
                ("bad signature", badSignature, .transaction, 1, false),
                ("bad claims", badClaims, .transaction, 1, false),
                ("malformed", "e30.e30", .transaction, 1, false),
                ("no kind", noKind, nil, 1, false),
                ("notification with nested tokens", notification, .notification, 3, true),
                ("notification with a bad nested token", notificationWithBadNested, .notification, 3, false),
            ]
            let verifier = try SignedDataVerifier(
                rootCertificates: [pki.root.der], bundleId: bundleId, environment: .sandbox)
            for round in ["cold", "warm"] {
                for testCase in cases {
                    var calls: [(String, () -> Bool)] = [
                        ("verifyAndDecode(as: nil)", { verifier.verifyAndDecode(testCase.token, as: nil).isVerified })
                    ]
                    if let kind = testCase.kind {
                        calls.append(
                            (
                                "verifyAndDecode(as: \(kind))",
                                { verifier.verifyAndDecode(testCase.token, as: kind).isVerified }
                            ))
                        calls.append(("\(kind.methodName)", { typed(verifier, testCase.token, kind) }))
                    }
                    for (method, call) in calls {
                        let before = OperationCounters.tokenParses
                        let verified = call()
                        let parses = OperationCounters.tokenParses - before
                        if parses != testCase.parses {
                            problems.append(
                                "\(round) \(testCase.name) via \(method): \(parses) parses, expected \(testCase.parses)"
                            )
                        }
                        if verified != testCase.verified {
                            problems.append("\(round) \(testCase.name) via \(method): verified \(verified)")
                        }
                    }
                }
            }
            // A failure's unverified payload and header come from the same parse.
            let failure = verifier.verifyAndDecode(badSignature, as: nil)
            let before = OperationCounters.tokenParses
            if failure.unverifiedPayload == nil { problems.append("the failure has no unverified payload") }
            if case .failed(let value) = failure, value.unverifiedHeader?.x5c?.count != 3 {
                problems.append("the failure has no unverified header")
            }
            if OperationCounters.tokenParses != before { problems.append("reading a failure parsed the token again") }
        } catch {
            problems.append("setup failed: \(error)")
        }
        for line in problems + ["done"] { FileHandle.standardError.write(Data((prefix + line + "\n").utf8)) }
        return 0
    }

    /// The kind's own method.
    static func typed(_ verifier: SignedDataVerifier, _ token: String, _ kind: PayloadKind) -> Bool {
        switch kind {
        case .transaction: return verifier.verifyAndDecodeTransaction(token).isVerified
        case .renewalInfo: return verifier.verifyAndDecodeRenewalInfo(token).isVerified
        case .appTransaction: return verifier.verifyAndDecodeAppTransaction(token).isVerified
        case .notification: return verifier.verifyAndDecodeNotification(token).isVerified
        case .realtimeRequest: return verifier.verifyAndDecodeRealtimeRequest(token).isVerified
        }
    }
}
