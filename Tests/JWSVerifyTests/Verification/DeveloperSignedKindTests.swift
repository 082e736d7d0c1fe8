import Foundation
import Testing

@testable import JWSVerify

/// ``DeveloperSignedKind/recognize(header:payload:)`` through ``SignedDataVerifier/decodeUnverified(_:as:)``:
/// the three developer-signed JWS kinds are recognized by `aud` and their required claims, never as an App Store
/// kind, and only when no kind is asked for and the header has no `x5c`.
@Suite("Developer-signed JWS recognition")
struct DeveloperSignedKindTests {
    static let header = #"{"alg":"ES256","kid":"KEY1","typ":"JWT"}"#
    static let common = #""iss":"ISSUER","bid":"com.example","iat":1698148900,"nonce":"n""#

    static func token(header: String = header, _ payload: String) -> String {
        func encode(_ text: String) -> String {
            Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        return encode(header) + "." + encode(payload) + "." + String(repeating: "A", count: 86)
    }

    /// Input: each kind's complete payload. Expected: recognized, with no App Store kind nor payload.
    @Test("each kind is recognized by aud and its claims, with no App Store kind")
    func recognized() throws {
        let cases: [(String, DeveloperSignedKind)] = [
            (#"{"aud":"promotional-offer","productId":"p","offerIdentifier":"o","transactionId":"t","#
                + Self.common + "}", .promotionalOfferV2),
            (#"{"aud":"introductory-offer-eligibility","productId":"p","allowIntroductoryOffer":true,"#
                + #""transactionId":"t","# + Self.common + "}", .introductoryOfferEligibility),
            (#"{"aud":"advanced-commerce-api","request":"e30=","# + Self.common + "}", .advancedCommerce),
        ]
        for (payload, kind) in cases {
            let unverified = try SignedDataVerifier.decodeUnverified(Self.token(payload))
            #expect(unverified.developerKind == kind)
            #expect(unverified.kind == nil)
            #expect(unverified.payload == nil)
            // Asked for a kind, the token is decoded as that kind, as before.
            let asked = try SignedDataVerifier.decodeUnverified(Self.token(payload), as: .transaction)
            #expect(asked.developerKind == nil)
            #expect(asked.kind == .transaction)
        }
    }

    /// Input: near misses (a claim missing or of the wrong type, another aud, an x5c header). Expected: not
    /// recognized; an offer with `transactionId` is then a transaction, as before.
    @Test("a missing claim, a wrong type, another aud or an x5c header is not recognized")
    func nearMisses() throws {
        let offer = #"{"aud":"promotional-offer","productId":"p","transactionId":"t","#
        let payloads = [
            offer + Self.common + "}",
            offer + #""offerIdentifier":1,"# + Self.common + "}",
            #"{"aud":"promotional-offer","offerIdentifier":"o","productId":"p","transactionId":"t","iat":"1"}"#,
            #"{"aud":"introductory-offer-eligibility","productId":"p","allowIntroductoryOffer":"true","#
                + #""transactionId":"t","# + Self.common + "}",
            #"{"aud":"other","request":"e30=","# + Self.common + "}",
        ]
        for payload in payloads {
            let unverified = try SignedDataVerifier.decodeUnverified(Self.token(payload))
            #expect(unverified.developerKind == nil, "\(payload)")
        }
        let withChain = try SignedDataVerifier.decodeUnverified(
            Self.token(
                header: #"{"alg":"ES256","kid":"KEY1","x5c":[]}"#,
                offer + #""offerIdentifier":"o","# + Self.common + "}"))
        #expect(withChain.developerKind == nil)
        #expect(withChain.kind == .transaction)
    }
}
