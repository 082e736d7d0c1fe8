import Foundation

/// The three kinds of JWS a developer signs with an In-App Purchase key (App Store Server Library's
/// `PromotionalOfferV2SignatureCreator`, `IntroductoryOfferEligibilitySignatureCreator` and
/// `AdvancedCommerceInAppSignatureCreator`), recognized so that `inspect` can say what they are.
///
/// They are not App Store signed data: no `x5c` chain, signed by the developer's key, not Apple's. They are
/// deliberately not ``PayloadKind``s, so that nothing verifies them as Apple data; `SignedDataVerifier` refuses
/// them as it refuses any token without a certificate chain.
package enum DeveloperSignedKind: String, Sendable, CaseIterable {
    /// `PromotionalOfferV2SignatureCreator` (`jwsverify sign offer-v2`).
    case promotionalOfferV2 = "offer-v2"
    /// `IntroductoryOfferEligibilitySignatureCreator` (`jwsverify sign intro-eligibility`).
    case introductoryOfferEligibility = "intro-eligibility"
    /// `AdvancedCommerceInAppSignatureCreator` (`jwsverify sign advanced-commerce`).
    case advancedCommerce = "advanced-commerce"

    /// The `aud` claim the creator signs.
    package var audience: String {
        switch self {
        case .promotionalOfferV2: return "promotional-offer"
        case .introductoryOfferEligibility: return "introductory-offer-eligibility"
        case .advancedCommerce: return "advanced-commerce-api"
        }
    }

    /// The kind in words.
    package var description: String {
        switch self {
        case .promotionalOfferV2: return "promotional offer V2 signature"
        case .introductoryOfferEligibility: return "introductory offer eligibility signature"
        case .advancedCommerce: return "Advanced Commerce API in-app request signature"
        }
    }

    /// The claims the creator always signs besides the common `iss`, `bid`, `aud`, `iat` and `nonce`, each with
    /// whether its value must be a boolean (else a string).
    private var requiredClaims: [(key: String, boolean: Bool)] {
        switch self {
        case .promotionalOfferV2: return [("productId", false), ("offerIdentifier", false)]
        case .introductoryOfferEligibility:
            return [("productId", false), ("allowIntroductoryOffer", true), ("transactionId", false)]
        case .advancedCommerce: return [("request", false)]
        }
    }

    /// The kind of a token with this header and payload: its `aud` names a kind, and the payload has the
    /// kind's claims (`iss`, `bid`, `nonce` strings, `iat` an integer, and the kind's own); the header has no
    /// `x5c`. Nil for anything else.
    ///
    /// - Parameters:
    ///   - header: The token's header.
    ///   - payload: The token's payload object.
    /// - Returns: the kind, or nil.
    package static func recognize(header: JWSHeader, payload: [String: JSONValue]) -> DeveloperSignedKind? {
        guard header.x5c == nil, header.additionalMembers["x5c"] == nil,
            case .string(let audience)? = payload["aud"],
            let kind = allCases.first(where: { $0.audience == audience })
        else { return nil }
        func isString(_ key: String) -> Bool {
            if case .string? = payload[key] { return true }
            return false
        }
        guard ["iss", "bid", "nonce"].allSatisfy(isString), case .integer? = payload["iat"] else { return nil }
        let complete = kind.requiredClaims.allSatisfy { claim in
            if claim.boolean, case .bool? = payload[claim.key] { return true }
            return !claim.boolean && isString(claim.key)
        }
        return complete ? kind : nil
    }
}
