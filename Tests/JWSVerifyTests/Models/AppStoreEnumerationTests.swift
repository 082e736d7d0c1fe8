import Foundation
import JWSVerify
import Testing

@Suite("App Store enumerations")
struct AppStoreEnumerationTests {
    @Test("Documented values have their constant name, as name and description")
    func names() {
        let samples: [(String?, String, String)] = [
            (AppStoreEnvironment.sandbox.name, AppStoreEnvironment.sandbox.description, "sandbox"),
            (AppStoreEnvironment.localTesting.name, "\(AppStoreEnvironment.localTesting)", "localTesting"),
            (
                NotificationTypeV2.didChangeRenewalPref.name, NotificationTypeV2.didChangeRenewalPref.description,
                "didChangeRenewalPref"
            ),
            (OfferType.winBackOffer.name, OfferType.winBackOffer.description, "winBackOffer"),
            (Status.billingGracePeriod.name, "\(Status.billingGracePeriod)", "billingGracePeriod"),
        ]
        for (name, description, expected) in samples {
            #expect(name == expected)
            #expect(description == expected)
        }
    }

    @Test("Every enumeration names one of its constants")
    func everyEnumeration() {
        // Reading a name builds the type's table of names, so this also checks that no table repeats a raw value.
        let names: [String?] = [
            AppStoreEnvironment.production.name, NotificationTypeV2.priceChange.name, Subtype.activeTokenReminder.name,
            ProductType.nonRenewingSubscription.name, InAppOwnershipType.familyShared.name,
            RevocationReason.refundedForOtherReason.name, RevocationType.familyRevoke.name, OfferType.offerCode.name,
            OfferDiscountType.oneTime.name, TransactionReason.renewal.name, BillingPlanType.billedUpfront.name,
            RenewalBillingPlanType.monthly.name, ExpirationIntent.other.name, AutoRenewStatus.off.name,
            PriceIncreaseStatus.customerConsentedOrWasNotifiedWithoutNeedingConsent.name, Status.revoked.name,
            ConsumptionRequestReason.legal.name, PurchasePlatform.visionOS.name, TokenType.acquisition.name,
            AdvancedCommercePeriod.p1Y.name, AdvancedCommerceOfferPeriod.p9M.name,
            AdvancedCommerceOfferReason.winBack.name, AdvancedCommerceRefundReason.simulateRefundDecline.name,
            AdvancedCommerceRefundType.custom.name, AdvancedCommercePriceIncreaseInfoStatus.scheduled.name,
        ]
        #expect(
            names == [
                "production", "priceChange", "activeTokenReminder", "nonRenewingSubscription", "familyShared",
                "refundedForOtherReason", "familyRevoke", "offerCode", "oneTime", "renewal", "billedUpfront", "monthly",
                "other", "off", "customerConsentedOrWasNotifiedWithoutNeedingConsent", "revoked", "legal", "visionOS",
                "acquisition", "p1Y", "p9M", "winBack", "simulateRefundDecline", "custom", "scheduled",
            ])
    }

    @Test("Raw values match Apple's JSON")
    func rawValues() {
        #expect(AppStoreEnvironment.xcode.rawValue == "Xcode")
        #expect(ProductType.autoRenewableSubscription.rawValue == "Auto-Renewable Subscription")
        #expect(OfferType.promotionalOffer.rawValue == 2)
        #expect(ExpirationIntent.productNotAvailable.rawValue == 4)
        #expect(PriceIncreaseStatus.customerHasNotResponded.rawValue == 0)
        #expect(Subtype.productNotForSale.rawValue == "PRODUCT_NOT_FOR_SALE")
        #expect(OfferType(rawValue: 1) == .introductoryOffer)
        #expect(AppStoreEnvironment(rawValue: "Sandbox") == .sandbox)
    }

    @Test("An unknown value has no name, is described by its raw value and encodes unchanged")
    func unknownValue() throws {
        let staging = try ModelJSON.decode([AppStoreEnvironment].self, from: #"["Staging"]"#)[0]
        #expect(staging.rawValue == "Staging")
        #expect(staging.name == nil)
        #expect(staging.description == "Staging")
        #expect(try ModelJSON.encodedString([staging]) == #"["Staging"]"#)

        let offer = try ModelJSON.decode([OfferType].self, from: "[99]")[0]
        #expect(offer.rawValue == 99)
        #expect(offer.name == nil)
        #expect(offer.description == "99")
        #expect(try ModelJSON.encodedString([offer]) == "[99]")
    }

    @Test(
        "A raw value of the wrong JSON type throws a DecodingError",
        arguments: [
            #"{"environment":5}"#, #"{"offerType":"1"}"#, #"{"offerType":1.5}"#, #"{"type":true}"#,
            #"{"revocationReason":[1]}"#, #"{"offerType":9223372036854775808}"#,
        ])
    func wrongType(json: String) {
        #expect(throws: DecodingError.self) {
            try ModelJSON.decode(JWSTransactionDecodedPayload.self, from: json)
        }
    }
}
