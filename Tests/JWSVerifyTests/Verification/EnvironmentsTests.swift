import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// Production and Sandbox in one verifier (`environments:`), nested tokens of the notification's
/// environment, and nested failures reported in structure.
@Suite("Several environments in one verifier")
struct EnvironmentsTests {
    static let bundleId = "com.example.environments"
    static let appAppleId: Int64 = 4_242

    static func verifier(
        _ pki: TestHierarchy, _ environments: [AppStoreEnvironment], appAppleId: Int64? = appAppleId
    ) throws -> SignedDataVerifier {
        try SignedDataVerifier(
            rootCertificates: [pki.root.der], bundleId: bundleId, appAppleId: appAppleId, environments: environments)
    }

    static func parameters(_ environment: String) -> PayloadParameters {
        var parameters = PayloadParameters(bundleId: bundleId, signedDate: Date(timeIntervalSince1970: 1_780_000_000))
        parameters.environment = environment
        parameters.appAppleId = appAppleId
        return parameters
    }

    /// Apple's TEST notification re-signed by Apple's test leaf with its real `x5c`, as Sandbox
    /// sends it: without `data.appAppleId`.
    static func appleTestNotificationWithoutAppAppleId() throws -> String {
        let token = try AppleTestData.token("testNotification")
        var parts = try TokenParts(token)
        var data = try #require(parts.payload["data"] as? [String: Any])
        data["appAppleId"] = nil
        parts.payload["data"] = data
        let key = try TestPrivateKey(
            pem: String(decoding: try TestVectorFiles.data("apple-library/certs/testLeaf.key"), as: UTF8.self))
        let headerSegment = String(token.split(separator: ".")[0])
        let signingInput = headerSegment + "." + (try TokenParts.segment(parts.payload))
        let signature = try key.signRaw(Data(signingInput.utf8), digest: .sha256)
        return signingInput + "." + Base64.encodeURL(Array(signature))
    }

    /// Input: Apple's TEST notification (Sandbox, app Apple id 1234) and the same without an app
    /// Apple id, as Sandbox sends it. Expected: a Production+Sandbox verifier (app Apple id 1235)
    /// verifies both and says Sandbox matched; a Production verifier refuses them as today
    /// (`invalidEnvironment` with the right app Apple id, else `invalidAppIdentifier`).
    @Test("Apple's Sandbox TEST notification verifies through a Production+Sandbox verifier")
    func appleTestNotification() throws {
        let apple = try AppleTestData.token("testNotification")
        let withoutAppAppleId = try Self.appleTestNotificationWithoutAppAppleId()
        let both = try SignedDataVerifier(
            rootCertificates: [try AppleTestData.testCA], bundleId: "com.example", appAppleId: 1235,
            environments: [.production, .sandbox])
        for token in [apple, withoutAppAppleId] {
            let result = both.verifyAndDecodeNotification(token)
            let verified = try #require(result.verified, "\(String(describing: result.error))")
            #expect(verified.environment == .sandbox)
            #expect(verified.payload.environment == .sandbox)
            #expect(verified.payload.notification.notificationType == .test)
        }
        #expect(both.verifyAndDecodeNotification(withoutAppAppleId).payload?.appAppleId == nil)

        let production1234 = try AppleTestData.verifier(environment: .production, appAppleId: 1234)
        #expect(production1234.verifyAndDecodeNotification(apple).error?.code == .invalidEnvironment)
        let production1235 = try AppleTestData.verifier(environment: .production, appAppleId: 1235)
        #expect(production1235.verifyAndDecodeNotification(apple).error?.code == .invalidAppIdentifier)
        #expect(production1234.verifyAndDecodeNotification(withoutAppAppleId).error?.code == .invalidAppIdentifier)
        #expect(try AppleTestData.verifier().verifyAndDecodeNotification(withoutAppAppleId).isVerified)
    }

    /// Input: every kind minted in Production and in Sandbox, and in Xcode, through a
    /// Production+Sandbox verifier. Expected: Production and Sandbox verify and name their
    /// environment; Xcode fails `invalidEnvironment` naming both configured ones; a Production app
    /// transaction of another app Apple id fails `invalidAppIdentifier`, a Sandbox one does not.
    @Test("the payload's environment decides which claims apply")
    func payloadEnvironmentDecides() throws {
        let pki = try TestHierarchy.generate(.appStoreEC, seed: 71)
        let minter = try TokenMinter(hierarchy: pki)
        let verifier = try Self.verifier(pki, [.production, .sandbox])
        for kind in [TestPayloadKind.transaction, .renewalInfo, .appTransaction, .realtimeRequest, .notification] {
            for environment in ["Production", "Sandbox"] {
                let token = try minter.mint(kind, parameters: Self.parameters(environment))[0]
                let result = verifier.verifyAndDecode(token, as: kind)
                #expect(result.verified?.environment?.rawValue == environment, "\(kind) \(environment): \(result)")
            }
            let xcode = try minter.mint(kind, parameters: Self.parameters("Xcode"))[0]
            let error = verifier.verifyAndDecode(xcode, as: kind).error
            #expect(error?.code == .invalidEnvironment, "\(kind): \(String(describing: error))")
            #expect(error?.message.contains(#"one of "Production", "Sandbox""#) == true)
        }
        let otherApp = try Self.verifier(pki, [.production, .sandbox], appAppleId: 1)
        let production = try minter.mint(.appTransaction, parameters: Self.parameters("Production"))[0]
        let sandbox = try minter.mint(.appTransaction, parameters: Self.parameters("Sandbox"))[0]
        #expect(otherApp.verifyAndDecodeAppTransaction(production).error?.code == .invalidAppIdentifier)
        #expect(otherApp.verifyAndDecodeAppTransaction(sandbox).isVerified)
    }

    /// Input: tokens of every kind and environment, valid and with a wrong bundle id or app Apple
    /// id. Expected: a Production+Sandbox verifier verifies a token exactly when the Production or
    /// the Sandbox verifier does, and then reports that verifier's environment.
    @Test("Production+Sandbox verifies exactly what Production or Sandbox alone verifies")
    func unionOfSingleEnvironments() throws {
        let pki = try TestHierarchy.generate(.appStoreEC, seed: 72)
        let minter = try TokenMinter(hierarchy: pki)
        let both = try Self.verifier(pki, [.production, .sandbox])
        let production = try Self.verifier(pki, [.production])
        let sandbox = try Self.verifier(pki, [.sandbox])
        var checked = 0
        for kind in [TestPayloadKind.transaction, .renewalInfo, .appTransaction, .realtimeRequest, .notification] {
            for environment in ["Production", "Sandbox", "Xcode", "LocalTesting", "Staging"] {
                var variants = [Self.parameters(environment)]
                variants.append(Self.parameters(environment))
                variants[1].bundleId = "com.example.other"
                variants.append(Self.parameters(environment))
                variants[2].appAppleId = 1
                for parameters in variants {
                    let token = try minter.mint(kind, parameters: parameters)[0]
                    let together = both.verifyAndDecode(token, as: kind)
                    let alone = [production, sandbox].map { $0.verifyAndDecode(token, as: kind) }
                    let matched = zip([AppStoreEnvironment.production, .sandbox], alone).first { $0.1.isVerified }
                    #expect(together.isVerified == (matched != nil), "\(kind) \(environment): \(together)")
                    #expect(together.verified?.environment == matched?.0)
                    checked += 1
                }
            }
        }
        #expect(checked == 75)
    }

    /// Input: a Production notification whose nested transaction says Sandbox, through a
    /// Production+Sandbox verifier and a Production verifier. Expected: `invalidEnvironment` at check
    /// `nestedTokens`, naming the field, the nested check (claims) and the notification's
    /// environment; the nested token verified on its own is fine.
    @Test("a nested token must name the notification's environment")
    func nestedEnvironmentMustMatch() throws {
        let pki = try TestHierarchy.generate(.appStoreEC, seed: 73)
        let minter = try TokenMinter(hierarchy: pki)
        let sandboxTransaction = try minter.mint(.transaction, parameters: Self.parameters("Sandbox"))[0]
        var payload = try minter.defaultPayload(.notification, parameters: Self.parameters("Production"))
        guard case .object(var data)? = payload["data"] else { Issue.record("no data"); return }
        data["signedTransactionInfo"] = .string(sandboxTransaction)
        payload["data"] = .object(data)
        let notification = try minter.sign(payload)
        for verifier in [try Self.verifier(pki, [.production, .sandbox]), try Self.verifier(pki, [.production])] {
            let result = verifier.verifyAndDecodeNotification(notification)
            let error = try #require(result.error)
            #expect(error.code == .invalidEnvironment)
            #expect(error.check == .nestedTokens)
            #expect(error.nestedField == "signedTransactionInfo")
            #expect(error.nestedCheck == .claims)
            #expect(error.message.contains(#"the notification's is "Production""#), "\(error.message)")
            #expect(result.report.failedStep?.name == .nestedTokens)
            #expect(result.nestedTokens.first { $0.field == "signedTransactionInfo" }?.result.isVerified == false)
            #expect(result.nestedTokens.first { $0.field == "signedRenewalInfo" }?.result.isVerified == true)
        }
        #expect(try Self.verifier(pki, [.production, .sandbox]).verifyAndDecodeTransaction(sandboxTransaction).isVerified)
        let untouched = try minter.mint(.notification, parameters: Self.parameters("Production"))[0]
        #expect(try Self.verifier(pki, [.production, .sandbox]).verifyAndDecodeNotification(untouched).isVerified)
    }

    /// Input: notifications whose nested renewal info is not a JWS, or has an altered signature.
    /// Expected: the nested code, check `nestedTokens`, the field, and the nested token's own check.
    @Test("a nested failure names its field and check in structure")
    func nestedFailureStructure() throws {
        let pki = try TestHierarchy.generate(.appStoreEC, seed: 74)
        let minter = try TokenMinter(hierarchy: pki)
        let renewal = try minter.mint(.renewalInfo, parameters: Self.parameters("Sandbox"))[0]
        let verifier = try Self.verifier(pki, [.sandbox])
        let cases: [(String, VerificationError.Code, VerificationError.Check)] = [
            ("not a token", .malformedToken, .format),
            (CraftedToken.alteringSignature(of: renewal), .invalidSignature, .signature),
        ]
        for (nested, code, check) in cases {
            var payload = try minter.defaultPayload(.notification, parameters: Self.parameters("Sandbox"))
            guard case .object(var data)? = payload["data"] else { Issue.record("no data"); return }
            data["signedRenewalInfo"] = .string(nested)
            payload["data"] = .object(data)
            let error = try #require(verifier.verifyAndDecodeNotification(try minter.sign(payload)).error)
            #expect(error.code == code)
            #expect(error.check == .nestedTokens)
            #expect(error.nestedField == "signedRenewalInfo")
            #expect(error.nestedCheck == check)
            #expect(error.description.hasPrefix("\(code.rawValue) (nestedTokens): nested signedRenewalInfo: "))
        }
        let plain = try #require(verifier.verifyAndDecodeTransaction("not a token").error)
        #expect(plain.nestedField == nil && plain.nestedCheck == nil)
    }

    /// Expected: `invalidConfiguration` for Xcode with another environment, Production without an
    /// app Apple id, and LocalTesting; duplicates are kept once; one environment is `environment`.
    @Test("configurations that cannot verify are refused")
    func configurations() throws {
        let pki = try TestHierarchy.generate(.appStoreEC, seed: 75)
        let xcode = try TestVectorFiles.data("apple-library/xcode/StoreKitTestCertificate.cer")
        let refused: [([AppStoreEnvironment], Data?)] = [
            ([.xcode, .sandbox], xcode), ([.sandbox, .production], nil), ([.sandbox, .localTesting], nil),
        ]
        for (environments, certificate) in refused {
            do {
                _ = try SignedDataVerifier(bundleId: "a", environments: environments, xcodeCertificate: certificate)
                Issue.record("\(environments) was accepted")
            } catch {
                #expect(error.code == .invalidConfiguration, "\(environments)")
            }
        }
        let both = try Self.verifier(pki, [.sandbox, .production, .sandbox])
        #expect(both.environments == [.sandbox, .production])
        #expect(both.environment == nil)
        #expect(try Self.verifier(pki, [.sandbox]).environment == .sandbox)
        #expect(try SignedDataVerifier(bundleId: "a", environment: .sandbox).environments == [.sandbox])
        #expect(try SignedDataVerifier(bundleId: "a", environment: nil).environments.isEmpty)
    }
}
