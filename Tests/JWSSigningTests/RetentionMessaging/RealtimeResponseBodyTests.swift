import Foundation
import JWSSigning
import JWSVerify
import Testing

/// The answers of the Retention Messaging tests, one of each shape.
enum RealtimeAnswers {
    static func uuid(_ text: String) throws -> UUID {
        try #require(UUID(uuidString: text))
    }

    static func signatureV1(appAccountToken: Bool) throws -> PromotionalOfferSignatureV1 {
        PromotionalOfferSignatureV1(
            encodedSignature: "MEUCIQD+/base64=", productId: "com.example.product",
            nonce: try uuid("E5F6A789-0123-4567-E5F6-A78901234567"), timestamp: 1_698_148_900_000,
            keyId: "keyId123", offerIdentifier: "offer123",
            appAccountToken: appAccountToken ? try uuid("F6A78901-2345-6789-F6A7-890123456789") : nil)
    }

    /// Every shape of answer, by name: each kind, with and without its optional members.
    static func all() throws -> [(name: String, body: RealtimeResponseBody)] {
        let id = try uuid("A1B2C3D4-E5F6-7890-A1B2-C3D4E5F67890")
        return [
            ("message", RealtimeResponseBody(message: Message(messageIdentifier: id))),
            ("message without identifier", RealtimeResponseBody(message: Message())),
            (
                "alternate product",
                RealtimeResponseBody(
                    alternateProduct: AlternateProduct(
                        messageIdentifier: id, productId: "com.example.alternate", billingPlanType: .monthly))
            ),
            (
                "alternate product, unknown billing plan",
                RealtimeResponseBody(
                    alternateProduct: AlternateProduct(
                        productId: "com.example.alternate", billingPlanType: BillingPlanType(rawValue: "WEEKLY")))
            ),
            (
                "promotional offer V2",
                RealtimeResponseBody(
                    promotionalOffer: PromotionalOffer(
                        messageIdentifier: id, promotionalOfferSignatureV2: "eyJhbGciOiJFUzI1NiJ9.e30.c2ln"))
            ),
            (
                "promotional offer V1",
                RealtimeResponseBody(
                    promotionalOffer: PromotionalOffer(
                        messageIdentifier: id, promotionalOfferSignatureV1: try signatureV1(appAccountToken: true)))
            ),
            (
                "promotional offer V1 without app account token",
                RealtimeResponseBody(
                    promotionalOffer: PromotionalOffer(
                        promotionalOfferSignatureV1: try signatureV1(appAccountToken: false)))
            ),
            (
                "advanced commerce info",
                RealtimeResponseBody(
                    advancedCommerceInfo: AdvancedCommerceInfo(messageIdentifier: id, advancedCommerceData: "e30="))
            ),
        ]
    }
}

@Suite("The Retention Messaging answer")
struct RealtimeResponseBodyTests {
    /// Input: a promotional offer signed with V1 and an app account token. Expected: the exact bytes Apple's
    /// libraries write (keys sorted): the identifier, nonce and token in lower case, slashes of the base64
    /// signature unescaped, the timestamp an integer.
    @Test("a V1 offer answer is Apple's JSON, byte for byte")
    func promotionalOfferV1Bytes() throws {
        let body = try #require(try RealtimeAnswers.all().first { $0.name == "promotional offer V1" }).body
        let text = String(decoding: try body.jsonData(), as: UTF8.self)
        #expect(
            text == #"{"promotionalOffer":{"messageIdentifier":"a1b2c3d4-e5f6-7890-a1b2-c3d4e5f67890","#
                + #""promotionalOfferSignatureV1":{"appAccountToken":"f6a78901-2345-6789-f6a7-890123456789","#
                + #""encodedSignature":"MEUCIQD+/base64=","keyId":"keyId123","#
                + #""nonce":"e5f6a789-0123-4567-e5f6-a78901234567","offerIdentifier":"offer123","#
                + #""productId":"com.example.product","timestamp":1698148900000}}}"#)
    }

    /// Input: each shape of answer. Expected: its JSON has exactly one member, named after its kind; the other
    /// three properties are `nil`; it decodes back to an equal value.
    @Test("each answer holds one kind and round-trips")
    func oneKindEach() throws {
        for (name, body) in try RealtimeAnswers.all() {
            let data = try body.jsonData()
            let members = try SigningTestVectors.object(data)
            let present = [
                body.message != nil, body.alternateProduct != nil, body.promotionalOffer != nil,
                body.advancedCommerceInfo != nil,
            ].filter { $0 }
            #expect(members.count == 1 && present.count == 1, "\(name): \(members.keys.sorted())")
            #expect(try JSONDecoder().decode(RealtimeResponseBody.self, from: data) == body, "\(name)")
        }
    }

    /// Input: bodies with no kind, two kinds, and a promotional offer with both or neither signature.
    /// Expected: each decoding throws `DecodingError.dataCorrupted`; a `null` member counts as absent.
    @Test("a body with none or several kinds does not decode")
    func invalidCombinationsAreRefused() throws {
        let invalid = [
            #"{}"#,
            #"{"message":{},"alternateProduct":{}}"#,
            #"{"message":null}"#,
            #"{"promotionalOffer":{"messageIdentifier":"a1b2c3d4-e5f6-7890-a1b2-c3d4e5f67890"}}"#,
            #"{"promotionalOffer":{"promotionalOfferSignatureV2":"x","promotionalOfferSignatureV1":{"#
                + #""encodedSignature":"s","productId":"p","nonce":"e5f6a789-0123-4567-e5f6-a78901234567","#
                + #""timestamp":1,"keyId":"k","offerIdentifier":"o"}}}"#,
        ]
        for text in invalid {
            #expect(throws: DecodingError.self, "\(text)") {
                _ = try JSONDecoder().decode(RealtimeResponseBody.self, from: Data(text.utf8))
            }
        }
        let withNull = #"{"message":{"messageIdentifier":null},"promotionalOffer":null}"#
        let body = try JSONDecoder().decode(RealtimeResponseBody.self, from: Data(withNull.utf8))
        #expect(body.message == Message() && body.promotionalOffer == nil)
    }

    /// Input: answers whose UUIDs are upper case, and a nonce that is not a UUID. Expected: the first decode (UUIDs
    /// are read in either case) and encode in lower case; the second throws `DecodingError.dataCorrupted`.
    @Test("UUIDs are read in either case and written in lower case")
    func uuidCase() throws {
        let upper = #"{"message":{"messageIdentifier":"A1B2C3D4-E5F6-7890-A1B2-C3D4E5F67890"}}"#
        let body = try JSONDecoder().decode(RealtimeResponseBody.self, from: Data(upper.utf8))
        #expect(
            String(decoding: try body.jsonData(), as: UTF8.self)
                == #"{"message":{"messageIdentifier":"a1b2c3d4-e5f6-7890-a1b2-c3d4e5f67890"}}"#)
        let badNonce =
            #"{"encodedSignature":"s","productId":"p","nonce":"not-a-uuid","timestamp":1,"#
            + #""keyId":"k","offerIdentifier":"o"}"#
        #expect(throws: DecodingError.self) {
            _ = try JSONDecoder().decode(PromotionalOfferSignatureV1.self, from: Data(badNonce.utf8))
        }
    }
}
