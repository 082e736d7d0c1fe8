import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// Every case of `TestVectors/generated/manifest.json` (made by `GeneratedVectors` in
/// JWSVerifyTesting) gives its expected verdict, code and check.
@Suite("Generated vectors")
struct GeneratedVectorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let id: String
        let file: String
        let kind: PayloadKind
        let roots: [String]
        let bundleId: String?
        let appAppleId: Int64?
        let environment: String?
        let expectedCode: String?
        let expectedCheck: String?
        var testDescription: String { id }
    }

    static let cases: [Case] = {
        guard let data = try? TestVectorFiles.data("generated/manifest.json"),
            let manifest = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let defaults = manifest["configuration"] as? [String: Any],
            let entries = manifest["cases"] as? [[String: Any]]
        else { return [] }
        return entries.compactMap { entry in
            let overrides = entry["configuration"] as? [String: Any] ?? [:]
            func setting(_ key: String) -> Any? { overrides[key] ?? defaults[key] }
            let expected = entry["expected"] as? [String: Any] ?? [:]
            guard let id = entry["id"] as? String, let file = entry["file"] as? String,
                let kind = (entry["kind"] as? String).flatMap(PayloadKind.init(rawValue:))
            else { return nil }
            return Case(
                id: id, file: file, kind: kind, roots: setting("roots") as? [String] ?? [],
                bundleId: setting("bundleId") as? String, appAppleId: (setting("appAppleId") as? NSNumber)?.int64Value,
                environment: setting("environment") as? String, expectedCode: expected["code"] as? String,
                expectedCheck: expected["check"] as? String)
        }
    }()

    @Test("the manifest is loaded")
    func loaded() {
        #expect(Self.cases.count >= 40)
        #expect(Self.cases.contains { $0.expectedCode == nil })
        #expect(Set(Self.cases.compactMap(\.expectedCode)).count >= 13)
    }

    /// Input: one manifest case with its verifier configuration. Expected: its verdict, code and check.
    @Test("each case gives its expected verdict", arguments: cases)
    func verdict(_ testCase: Case) throws {
        let roots = try testCase.roots.map { try TestVectorFiles.data("generated/\($0)") }
        let verifier = try SignedDataVerifier(
            rootCertificates: roots, bundleId: testCase.bundleId, appAppleId: testCase.appAppleId,
            environment: testCase.environment.map(AppStoreEnvironment.init(rawValue:)))
        let token = String(decoding: try TestVectorFiles.data("generated/\(testCase.file)"), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let result = verifier.verifyAndDecode(token, as: testCase.kind)
        #expect(
            result.error?.code.rawValue == testCase.expectedCode, "\(testCase.id): \(String(describing: result.error))")
        #expect(result.error?.check.rawValue == testCase.expectedCheck, "\(testCase.id)")
        #expect(result.isVerified == (testCase.expectedCode == nil), "\(testCase.id)")
    }

    /// A valid notification's nested transaction and renewal info are verified and decoded in the same call.
    @Test("nested tokens of a notification are decoded")
    func nestedTokens() throws {
        let verifier = try SignedDataVerifier(
            rootCertificates: [try TestVectorFiles.data("generated/root.der")], bundleId: "com.example.jwsverify",
            environment: .sandbox)
        let token = String(decoding: try TestVectorFiles.data("generated/notification-valid.jws"), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let decoded = try verifier.verifyAndDecodeNotification(token).get()
        #expect(decoded.transaction?.bundleId == "com.example.jwsverify")
        #expect(decoded.renewalInfo != nil)
        let outerOnly = try verifier.verifyAndDecodeNotification(token, verifyingNestedTokens: false).get()
        #expect(outerOnly.transaction == nil)
    }
}

/// Tokens signed with Apple's test keys under Apple's test CA, minted here with JWSVerifyTesting.
@Suite("Apple's test certificates")
struct AppleTestCertificateTests: AppleTestCertificateChains {
    @Test("a token signed with testLeaf.key under testIntermediate and testCA verifies")
    func validChain() throws {
        let chain = [
            try Self.certificate("testLeaf.pem"), try Self.certificate("testIntermediate.pem"),
            try Self.certificate("testCA.der"),
        ]
        let result = try AppleTestData.verifier().verifyAndDecodeTransaction(try Self.token(chain: chain))
        #expect(result.isVerified, "\(String(describing: result.error))")
    }
}

/// Tokens over Apple's test certificates (TestVectors/apple-library/certs), signed with testLeaf.key: shared by
/// ``AppleTestCertificateTests`` and ``Check08AppleExtensionsTests``.
protocol AppleTestCertificateChains {}

extension AppleTestCertificateChains {
    static func certificate(_ name: String) throws -> String {
        let info = try #require(CertificateInfo(derOrPEM: try TestVectorFiles.data("apple-library/certs/\(name)")))
        return info.der.base64EncodedString()
    }

    static func token(chain: [String]) throws -> String {
        let key = try TestPrivateKey(
            pem: String(decoding: try TestVectorFiles.data("apple-library/certs/testLeaf.key"), as: UTF8.self))
        let minter = try TokenMinter(hierarchy: try TestHierarchy.generate(.appStoreEC, seed: 1))
        let payload: [String: JSONValue] = [
            "bundleId": .string("com.example"), "environment": .string("Sandbox"), "transactionId": .string("1"),
            "signedDate": .integer(1_700_000_000_000),
        ]
        return try minter.sign(
            payload, header: .init(certificateChain: .custom(chain)), signature: .init(key: key))
    }
}
