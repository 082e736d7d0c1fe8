import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// The body Apple POSTs (`{"signedPayload": "..."}`), parsed from raw bytes, and the one call that
/// verifies it; the notification's own environment, bundle id and app Apple id.
@Suite("Request bodies")
struct RequestBodyTests {
    static func body(_ token: String) -> Data { Data(#"{"signedPayload":"\#(token)"}"#.utf8) }

    /// Input: Apple's TEST notification in a body, with whitespace and an unknown member.
    /// Expected: both types parse it; the one call verifies it, as the token method does.
    @Test("a body verifies in one call, like its token")
    func bodyVerifies() async throws {
        let token = try AppleTestData.token("testNotification")
        let spaced = Data("\n { \"future\": [1, {}], \"signedPayload\" : \"\(token)\" }\r\n".utf8)
        #expect(try NotificationRequestBody(httpBody: spaced).signedPayload == token)
        #expect(try RealtimeRequestBody(httpBody: spaced).signedPayload == token)
        #expect(try JSONDecoder().decode(NotificationRequestBody.self, from: Self.body(token)).signedPayload == token)
        let verifier = try AppleTestData.verifier()
        let result = await verifier.verifyAndDecodeNotification(httpBody: spaced)
        #expect(result.isVerified, "\(String(describing: result.error))")
        #expect(result.payload?.notification.notificationUUID == "9ad56bd2-0bc6-42e0-af24-fd996d87a1e6")
        #expect(result.report.steps == verifier.verifyAndDecodeNotification(token).report.steps)
    }

    /// Input: Apple's TEST notification in a body, decoded with `JSONDecoder` under Apple's name for
    /// the body type. Expected: `ResponseBodyV2` is `NotificationRequestBody`, and decodes the token.
    @Test("Apple's name ResponseBodyV2 is the notification body")
    func appleBodyName() throws {
        let token = try AppleTestData.token("testNotification")
        let body: ResponseBodyV2 = try JSONDecoder().decode(ResponseBodyV2.self, from: Self.body(token))
        #expect(body.signedPayload == token)
        #expect(ResponseBodyV2.self == NotificationRequestBody.self)
    }

    /// Input: a minted realtime request in a body. Expected: the one call verifies it, and a body
    /// without the member fails at check 1.
    @Test("a realtime request body verifies in one call")
    func realtimeBody() async throws {
        let pki = try TestHierarchy.generate(.appStoreEC, seed: 76)
        let token = try TokenMinter(hierarchy: pki).mint(.realtimeRequest)[0]
        let verifier = try SignedDataVerifier(
            rootCertificates: [pki.root.der], bundleId: nil, appAppleId: PayloadParameters().appAppleId,
            environments: [.production, .sandbox])
        let result = await verifier.verifyAndDecodeRealtimeRequest(httpBody: Self.body(token))
        #expect(result.isVerified, "\(String(describing: result.error))")
        #expect(result.report.steps == verifier.verifyAndDecodeRealtimeRequest(token).report.steps)
        let empty = await verifier.verifyAndDecodeRealtimeRequest(httpBody: Data("{}".utf8))
        #expect(empty.error?.code == .malformedToken)
        #expect(empty.error?.message.contains("realtime request body") == true)
    }

    /// Input: bodies that are not Apple's. Expected: `malformedToken` at check `format` from the
    /// parser and from the one call, with a message that says what is wrong (escaped).
    @Test("a body that is not Apple's is malformedToken with the reason")
    func malformedBodies() async throws {
        let token = try AppleTestData.token("testNotification")
        let cases: [(Data, String)] = [
            (Data(), "not a JSON object"),
            (Data("[]".utf8), "not a JSON object"),
            (Data("{}".utf8), "no member signedPayload"),
            (Data(#"{"signedPayload":1}"#.utf8), "not a string"),
            (Data(#"{"signedPayload":null}"#.utf8), "not a string"),
            (Data(#"{"signedPayload":"a","signedPayload":"b"}"#.utf8), "duplicate"),
            (Data("{\"signedPayload\":\"a\u{1B}[2J\"}".utf8), "control"),
            (Self.body(token) + Data("x".utf8), "data after"),
            (Data([0x7B, 0xFF, 0x7D]), "byte"),
            (Data(repeating: 0x20, count: CompactJWS.defaultMaximumBytes + 1025), "more than"),
        ]
        let verifier = try AppleTestData.verifier()
        for (body, reason) in cases {
            do {
                _ = try NotificationRequestBody(httpBody: body)
                Issue.record("accepted \(body.count) bytes")
            } catch {
                #expect(error.code == .malformedToken)
                #expect(error.check == .format)
                #expect(error.message.contains(reason), "\(error.message)")
                #expect(!error.message.unicodeScalars.contains { $0.value < 0x20 })
            }
            let result = await verifier.verifyAndDecodeNotification(httpBody: body)
            #expect(result.error?.code == .malformedToken)
            #expect(result.report.failedStep?.name == .format)
        }
        #expect(throws: VerificationError.self) {
            try NotificationRequestBody(httpBody: Self.body(token), maximumTokenBytes: 10)
        }
    }

    /// Input: Apple's notifications of each shape (data, summary, external purchase token, app
    /// data). Expected: `environment`, `bundleId` and `appAppleId` come from the member the claims
    /// check reads.
    @Test("DecodedNotification names the environment, bundle id and app Apple id of its member")
    func notificationIdentity() throws {
        func decoded(_ name: String) throws -> DecodedNotification {
            let json = try TestVectorFiles.data("apple-library/models/\(name).json")
            return DecodedNotification(notification: try JSONDecoder().decode(ResponseBodyV2DecodedPayload.self, from: json))
        }
        let data = try decoded("signedNotification")
        #expect(data.environment == data.notification.data?.environment && data.environment != nil)
        #expect(data.bundleId == data.notification.data?.bundleId && data.bundleId != nil)
        #expect(data.appAppleId == data.notification.data?.appAppleId && data.appAppleId != nil)
        let summary = try decoded("signedSummaryNotification")
        #expect(summary.notification.data == nil)
        #expect(summary.environment == summary.notification.summary?.environment && summary.environment != nil)
        #expect(summary.appAppleId == summary.notification.summary?.appAppleId)
        let external = try decoded("signedExternalPurchaseTokenNotification")
        #expect(external.bundleId == external.notification.externalPurchaseToken?.bundleId)
        #expect(external.environment == .production)
        let sandboxExternal = try decoded("signedExternalPurchaseTokenSandboxNotification")
        #expect(sandboxExternal.environment == .sandbox)
        let appData = try decoded("signedRescindConsentNotification")
        #expect(appData.notification.data == nil && appData.notification.appData != nil)
        #expect(appData.bundleId == appData.notification.appData?.bundleId)
        #expect(appData.environment == appData.notification.appData?.environment)
    }
}
