import CJWSOpenSSL
import CJWSTesting
import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// The check-per-file pipeline (since 1a827b8): warm and cold verifiers answer and report
/// the same, every report lists its steps in order with the failed one shown, and what the contract
/// documents about failures holds.
@Suite("Pipeline: one verdict, one report, warm and cold")
struct PipelineConsistencyTests {
    static let bundleId = "com.example.jwsverify"
    /// Inside the `.appStoreEC` test hierarchy's default validity (2025 ... 2035).
    static let inside = Date(timeIntervalSince1970: 1_780_000_000)
    /// The `.appStoreEC` test hierarchy's default notAfter (2035-01-01T00:00:00Z): expired there (OpenSSL 3.0).
    static let notAfter: Int64 = 2_051_222_400

    static let pki = fixture { try TestHierarchy.generate(.appStoreEC, seed: 4242) }

    static func fixture<T>(_ make: () throws -> T) -> T {
        do { return try make() } catch { fatalError("fixture: \(error)") }
    }

    static func verifier(capacity: Int, validationTime: ValidationTime = .signedDate) throws -> SignedDataVerifier {
        try SignedDataVerifier(
            rootCertificates: [pki.root.der], bundleId: bundleId, environment: .sandbox,
            validationTime: validationTime, chainCacheCapacity: capacity, clock: { PipelineConsistencyTests.inside })
    }

    /// What a result says, nested results included: everything one verdict must keep the same.
    struct Snapshot: Equatable, CustomStringConvertible {
        let code: String?
        let check: String?
        let message: String?
        let steps: [String]
        let nested: [Snapshot]

        init(_ result: VerificationResult<DecodedPayload>) {
            code = result.error?.code.rawValue
            check = result.error?.check.rawValue
            message = result.error?.message
            steps = result.report.steps.map { "\($0.name.rawValue)|\($0.outcome.rawValue)|\($0.detail)" }
            nested = result.nestedTokens.map { Snapshot($0.result) }
        }

        var description: String {
            "\(code ?? "verified") \(check ?? "") \(message ?? "")\n" + steps.joined(separator: "\n")
        }
    }

    /// A token and the kind it is verified as (nil: recognized).
    struct Input: CustomStringConvertible {
        let name: String
        let token: String
        let kind: PayloadKind?
        var description: String { name }
    }

    static func millis(_ seconds: Int64) -> JSONValue { .integer(seconds * 1000) }

    /// Every token below carries the PKI's exact Apple header, so that a warm verifier finds the
    /// header in its chain cache (the cached-header path), usable or not at the token's time.
    static func inputs() throws -> [Input] {
        let minter = try TokenMinter(hierarchy: pki)
        let parameters = PayloadParameters(bundleId: bundleId, signedDate: inside, seed: 4242)
        let transaction = DefaultPayloads.transaction(parameters)
        let appTransaction = DefaultPayloads.appTransaction(parameters)
        func transactionWith(_ changes: [String: JSONValue?]) throws -> String {
            var payload = transaction
            for (key, value) in changes { payload[key] = value }
            return try minter.sign(payload)
        }
        func appTransactionWith(_ changes: [String: JSONValue?]) throws -> String {
            var payload = appTransaction
            for (key, value) in changes { payload[key] = value }
            return try minter.sign(payload)
        }
        let good = try minter.sign(transaction)
        let parts = good.split(separator: ".", omittingEmptySubsequences: false)
        let badSignature = parts[0] + "." + parts[1] + "." + Base64.encodeURL(Data(repeating: 7, count: 64))
        let shortSignature = parts[0] + "." + parts[1] + "." + Base64.encodeURL(Data(repeating: 7, count: 63))
        let expiredNested = try transactionWith(["signedDate": millis(notAfter)])
        let otherAppNested = try transactionWith(["bundleId": .string("com.example.other")])
        func notification(nested: String) throws -> String {
            try minter.sign([
                "notificationType": .string("DID_RENEW"),
                "notificationUUID": .string("5b8c3a46-0000-4000-8000-000000000042"),
                "version": .string("2.0"), "signedDate": millis(1_780_000_000),
                "data": .object([
                    "bundleId": .string(bundleId), "environment": .string("Sandbox"), "appAppleId": .integer(1234),
                    "signedTransactionInfo": .string(nested),
                ]),
            ])
        }
        return [
            Input(name: "good transaction", token: good, kind: nil),
            Input(name: "good transaction as transaction", token: good, kind: .transaction),
            Input(name: "transaction as app transaction", token: good, kind: .appTransaction),
            Input(name: "transaction as renewal info", token: good, kind: .renewalInfo),
            Input(name: "bad signature", token: badSignature, kind: nil),
            Input(name: "63-byte signature", token: shortSignature, kind: nil),
            Input(
                name: "before notBefore", token: try transactionWith(["signedDate": millis(1_700_000_000)]), kind: nil),
            Input(name: "at notAfter", token: try transactionWith(["signedDate": millis(notAfter)]), kind: nil),
            Input(name: "at notAfter - 1", token: try transactionWith(["signedDate": millis(notAfter - 1)]), kind: nil),
            Input(
                name: "signedDate string", token: try transactionWith(["signedDate": .string("1780000000000")]),
                kind: nil),
            Input(
                name: "signedDate float", token: try transactionWith(["signedDate": .double(1_780_000_000_000.5)]),
                kind: nil),
            Input(name: "signedDate huge", token: try transactionWith(["signedDate": .double(1e300)]), kind: nil),
            Input(name: "signedDate 1e16", token: try transactionWith(["signedDate": .double(1e16)]), kind: nil),
            Input(name: "signedDate negative", token: try transactionWith(["signedDate": .integer(-1000)]), kind: nil),
            Input(name: "signedDate null", token: try transactionWith(["signedDate": .null]), kind: nil),
            Input(name: "signedDate absent", token: try transactionWith(["signedDate": nil]), kind: nil),
            Input(name: "other bundle id", token: otherAppNested, kind: nil),
            Input(
                name: "production environment", token: try transactionWith(["environment": .string("Production")]),
                kind: nil),
            Input(name: "quantity of wrong type", token: try transactionWith(["quantity": .string("1")]), kind: nil),
            Input(
                name: "unknown kind",
                token: try minter.sign(["signedDate": millis(1_780_000_000), "foo": .integer(1)]),
                kind: nil),
            Input(
                name: "unknown kind, expired",
                token: try minter.sign(["signedDate": millis(notAfter), "foo": .integer(1)]),
                kind: nil),
            Input(name: "app transaction", token: try minter.sign(appTransaction), kind: nil),
            Input(
                name: "app transaction, receiptCreationDate expired, signedDate inside",
                token: try appTransactionWith([
                    "receiptCreationDate": millis(notAfter), "signedDate": millis(1_780_000_000),
                ]), kind: nil),
            Input(
                name: "app transaction, receiptCreationDate string",
                token: try appTransactionWith(["receiptCreationDate": .string("x")]), kind: nil),
            Input(name: "notification, nested other app", token: try notification(nested: otherAppNested), kind: nil),
            Input(name: "notification, nested expired", token: try notification(nested: expiredNested), kind: nil),
            Input(name: "notification, nested bad signature", token: try notification(nested: badSignature), kind: nil),
            Input(name: "notification, nested good", token: try notification(nested: good), kind: .notification),
            Input(
                name: "alg none (own header)",
                token: try minter.sign(transaction, header: .init(algorithm: "none")), kind: nil),
            Input(name: "malformed", token: parts[0] + "." + parts[1], kind: nil),
        ]
    }

    /// Input: the inputs above, each verified by a cold verifier (`chainCacheCapacity: 0`) and by a warm
    /// one (primed with the good transaction; asked twice). Expected: the same code, check, message,
    /// report (every step, outcome and detail) and nested results.
    @Test(
        "warm and cold verifiers give the same verdict and the same report",
        arguments: [ValidationTime.signedDate, .fixed(inside), .current])
    func warmEqualsCold(_ validationTime: ValidationTime) throws {
        let inputs = try Self.inputs()
        let cold = try Self.verifier(capacity: 0, validationTime: validationTime)
        let warm = try Self.verifier(capacity: 64, validationTime: validationTime)
        _ = warm.verifyAndDecode(inputs[0].token, as: nil)
        for pass in 0..<2 {
            for input in inputs {
                let coldResult = Snapshot(cold.verifyAndDecode(input.token, as: input.kind))
                let warmResult = Snapshot(warm.verifyAndDecode(input.token, as: input.kind))
                #expect(warmResult == coldResult, "pass \(pass), \(input.name)")
            }
        }
        // Warm for real: the chain was remembered, found for the tokens in its validity, and found but
        // not usable for the tokens dated outside it (the cached-header path), with .signedDate.
        let statistics = warm.chainCacheStatistics
        #expect(statistics.count == 1)
        #expect(statistics.hits > 0)
        if validationTime == .signedDate { #expect(statistics.misses > 0) }
    }

    /// Input: Xcode's three StoreKit Testing tokens, one with its signature altered, and one as the
    /// wrong kind, verified by a cold and a warm Xcode verifier (twice). Expected: the same snapshot.
    @Test("an Xcode verifier answers and reports the same warm and cold")
    func xcodeWarmEqualsCold() throws {
        let pinned = try TestVectorFiles.data("apple-library/xcode/StoreKitTestCertificate.cer")
        func xcode(_ name: String) throws -> String {
            String(decoding: try TestVectorFiles.data("apple-library/xcode/xcode-signed-\(name)"), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let transaction = try xcode("transaction")
        let parts = transaction.split(separator: ".", omittingEmptySubsequences: false)
        let altered = parts[0] + "." + parts[1] + "." + Base64.encodeURL(Data(repeating: 9, count: 64))
        let inputs: [(String, PayloadKind?)] = [
            (transaction, nil), (try xcode("renewal-info"), nil), (try xcode("app-transaction"), nil),
            (altered, nil), (transaction, .appTransaction),
        ]
        func make(_ capacity: Int) throws -> SignedDataVerifier {
            try SignedDataVerifier(
                bundleId: "com.example.naturelab.backyardbirds.example", environment: .xcode,
                xcodeCertificate: pinned, chainCacheCapacity: capacity)
        }
        let cold = try make(0)
        let warm = try make(64)
        for _ in 0..<2 {
            for (token, kind) in inputs {
                #expect(
                    Snapshot(warm.verifyAndDecode(token, as: kind)) == Snapshot(cold.verifyAndDecode(token, as: kind)))
            }
        }
        #expect(warm.chainCacheStatistics.hits > 0)
    }

    /// Input: the same inputs, warm and cold. Expected: every report lists every step once, in contract
    /// order; a failure shows exactly one failed step, its error's; every step before it passed or was
    /// skipped with a reason (never "not run"), every step after it is "not run".
    @Test("every report is complete and in order, for every failure point, warm and cold")
    func reportShape() throws {
        let inputs = try Self.inputs()
        let notRun = "not run: an earlier check failed"
        for capacity in [0, 64] {
            let verifier = try Self.verifier(capacity: capacity)
            for _ in 0..<2 {
                for input in inputs {
                    let result = verifier.verifyAndDecode(input.token, as: input.kind)
                    let steps = result.report.steps
                    #expect(steps.map(\.name) == VerificationReport.StepName.tokenSteps, "\(input.name)")
                    let failed = steps.indices.filter { steps[$0].outcome == .failed }
                    guard let error = result.error else {
                        #expect(failed.isEmpty, "\(input.name)")
                        #expect(!steps.contains { $0.detail == notRun }, "\(input.name)")
                        continue
                    }
                    #expect(failed.count == 1, "\(input.name)")
                    guard let index = failed.first else { continue }
                    #expect(steps[index].detail == error.message, "\(input.name)")
                    #expect(
                        steps[index].name.check == error.check || steps[index].name == .nestedTokens, "\(input.name)")
                    #expect(steps[..<index].allSatisfy { $0.detail != notRun }, "\(input.name)")
                    #expect(steps[(index + 1)...].allSatisfy { $0.detail == notRun }, "\(input.name)")
                }
            }
        }
    }

    /// Input: the error `TrustStore.verify` returns when OpenSSL cannot run the chain verification
    /// (`VerificationError(.untrustedChain, check: .chain, ...)`, TrustStore_openssl.swift), recorded as
    /// `TrustAndValidityCheck.check` records it: after step 5 passed. Expected: the report shows a
    /// failed step (trust) with the error's message. Actual: the error's step defaults to the first
    /// step of `.chain` (certificates), which was already recorded as passed, so `ReportRecorder.report`
    /// drops it: no step failed, trust and the rest "not run".
    @Test("an error made with check: .chain after step 5 still shows in the report")
    func checkOnlyErrorAfterFirstStep() {
        var recorder = ReportRecorder()
        recorder.passed(.format, FormatCheck.passed)
        recorder.passed(.algorithm, "alg is ES256, no crit")
        recorder.passed(.certificateChain, "x5c is an array of certificates")
        recorder.passed(.chainLength, "3 certificates: leaf, intermediate, root")
        recorder.passed(.certificates, CertificatesCheck.passed)
        let error = VerificationError(.untrustedChain, check: .chain, "OpenSSL could not run the chain verification")
        recorder.failed(error)
        let report = recorder.report
        #expect(report.failedStep?.detail == error.message)
    }

    /// The same through the verifier: OpenSSL's allocations fail after n, for n = 0, 1, ...; whenever
    /// the cold verifier answers "OpenSSL could not run the chain verification", its report must show a
    /// failed step. Exit status 0: held; 1: a report without a failed step; 2: never reached.
    @Test("an OpenSSL failure in check 6 is shown as a failed step")
    func openSSLFailureInTrustIsReported() async {
        await #expect(processExitsWith: .success) {
            guard cjwst_install_failing_allocator() == 1 else { exit(3) }
            exit(PipelineConsistencyOutOfMemory.run())
        }
    }
}

/// The fixture of ``PipelineConsistencyTests`` (its PKI, times and verifiers), for the check suites whose tests
/// were written against it (``Check02AlgorithmTests``, ``Check07ValidityTests``).
protocol PipelineFixture {}

extension PipelineFixture {
    static var bundleId: String { PipelineConsistencyTests.bundleId }
    static var inside: Date { PipelineConsistencyTests.inside }
    static var notAfter: Int64 { PipelineConsistencyTests.notAfter }
    static var pki: TestHierarchy { PipelineConsistencyTests.pki }

    static func verifier(capacity: Int, validationTime: ValidationTime = .signedDate) throws -> SignedDataVerifier {
        try PipelineConsistencyTests.verifier(capacity: capacity, validationTime: validationTime)
    }

    static func millis(_ seconds: Int64) -> JSONValue { PipelineConsistencyTests.millis(seconds) }
}

/// The body of the exit test above (an exit test's closure may capture nothing).
enum PipelineConsistencyOutOfMemory {
    static func run() -> Int32 {
        do {
            let pki = try TestHierarchy.generate(.appStoreEC, seed: 77)
            let token = try TokenMinter(hierarchy: pki).mint(
                .transaction,
                parameters: PayloadParameters(
                    bundleId: "com.example.jwsverify", signedDate: Date(timeIntervalSince1970: 1_780_000_000)),
                count: 1)[0]
            let verifier = try SignedDataVerifier(
                rootCertificates: [pki.root.der], bundleId: "com.example.jwsverify", environment: .sandbox,
                chainCacheCapacity: 0)
            _ = cjws_self_test()
            var reached = false
            for allowed in 0..<4000 {
                cjwst_fail_allocations_after(allowed)
                let result = verifier.verifyAndDecodeTransaction(token)
                cjwst_fail_allocations_after(-1)
                if result.error?.message == "OpenSSL could not run the chain verification" {
                    reached = true
                    if result.report.failedStep == nil { return 1 }
                }
                if result.isVerified { break }
            }
            return reached ? 0 : 2
        } catch {
            return 4
        }
    }
}
