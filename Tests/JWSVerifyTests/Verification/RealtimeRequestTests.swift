import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// Realtime requests carry every member Apple documents; Apple's Swift and Python libraries refuse one
/// without, and so does JWSVerify (Docs/ErrorCodes.md, "Where JWSVerify differs").
@Suite("Realtime requests")
struct RealtimeRequestTests {
    static let parameters = PayloadParameters(signedDate: Date(timeIntervalSince1970: 1_767_225_600))
    static let members = [
        "originalTransactionId", "appAppleId", "productId", "userLocale", "requestIdentifier", "signedDate",
        "environment",
    ]

    private func verify(_ payload: [String: JSONValue]) throws -> VerificationResult<DecodedRealtimeRequestBody> {
        let pki = try TestHierarchy.generate(.appStoreEC, seed: 20_261_129)
        let verifier = try SignedDataVerifier(
            rootCertificates: [pki.root.der], bundleId: Self.parameters.bundleId,
            appAppleId: Self.parameters.appAppleId,
            environment: .sandbox)
        return verifier.verifyAndDecodeRealtimeRequest(try TokenMinter(hierarchy: pki).sign(payload))
    }

    @Test("a request with every member verifies, and an unknown extra member is kept")
    func complete() throws {
        var payload = DefaultPayloads.realtime(Self.parameters)
        payload["futureMember"] = .string("kept")
        let result = try verify(payload)
        #expect(result.isVerified, "\(String(describing: result.error))")
        #expect(result.payload?.additionalFields["futureMember"] == .string("kept"))
    }

    @Test("a missing or null member fails check 12 and is named", arguments: members)
    func missing(member: String) throws {
        for replacement in [nil, JSONValue.null] {
            var payload = DefaultPayloads.realtime(Self.parameters)
            payload[member] = replacement
            let result = try verify(payload)
            #expect(result.error?.code == .payloadDecodingFailed, "\(member) = \(String(describing: replacement))")
            #expect(result.error?.check == .payload)
            #expect(result.error?.message.contains(member) == true, "\(result.error?.message ?? "")")
        }
    }
}
