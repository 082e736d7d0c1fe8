import Foundation
import JWSSigning
import JWSVerify
import Testing

@Suite("Apple's rules for Advanced Commerce requests")
struct AdvancedCommerceValidationTests {
    typealias Code = AdvancedCommerceValidationError.Code

    /// Runs `body` and checks that it throws a validation error with `code` at `field`.
    func expectRefusal(
        _ code: Code, _ field: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
    ) {
        do {
            try body()
            Issue.record("no error; expected \(code) at \(field)", sourceLocation: sourceLocation)
        } catch let error as AdvancedCommerceValidationError {
            #expect(error.code == code && error.field == field, "\(error)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("\(error); expected \(code) at \(field)", sourceLocation: sourceLocation)
        }
    }

    func chargeItem(
        description: String = "d", displayName: String = "n", sku: String = "sku"
    ) throws
        -> AdvancedCommerceOneTimeChargeItem
    {
        try AdvancedCommerceOneTimeChargeItem(description: description, displayName: displayName, sku: sku, price: 1)
    }

    /// Input: a description, display name and SKU at Apple's limits (45, 30 and 128 characters, also counted as
    /// characters when each is two Unicode scalars), then one character over each. Expected: the limits pass; one
    /// over throws `stringTooLong` naming the member.
    @Test("descriptions, display names and SKUs are limited to 45, 30 and 128 characters")
    func stringLengths() throws {
        _ = try chargeItem(
            description: String(repeating: "e\u{301}", count: 45), displayName: String(repeating: "A", count: 30),
            sku: String(repeating: "s", count: 128))
        expectRefusal(.stringTooLong, "description") {
            _ = try chargeItem(description: String(repeating: "A", count: 46))
        }
        expectRefusal(.stringTooLong, "displayName") {
            _ = try chargeItem(displayName: String(repeating: "A", count: 31))
        }
        expectRefusal(.stringTooLong, "SKU") { _ = try chargeItem(sku: String(repeating: "A", count: 129)) }
        expectRefusal(.stringTooLong, "currentSKU") {
            _ = try AdvancedCommerceSubscriptionModifyChangeItem(
                currentSku: String(repeating: "A", count: 129), description: "d", displayName: "n",
                effective: .immediately, price: 1, reason: .upgrade, sku: "sku")
        }
        expectRefusal(.stringTooLong, "displayName") {
            _ = try AdvancedCommerceSubscriptionModifyDescriptors(
                effective: .immediately, displayName: String(repeating: "A", count: 31))
        }
        expectRefusal(.stringTooLong, "SKU") {
            _ = try AdvancedCommerceSubscriptionReactivateItem(sku: String(repeating: "A", count: 129))
        }
    }

    /// Input: offers with `periodCount` 1, 12, 0 and 13, and an offer without a price. Expected: 1 and 12 pass;
    /// 0 and 13 throw `outOfRange` at `periodCount`; the missing price throws `missingField` at `price`.
    @Test("an offer lasts 1 to 12 periods and has all four members")
    func offers() throws {
        func item(_ offer: AdvancedCommerceOffer) throws {
            _ = try AdvancedCommerceSubscriptionCreateItem(
                sku: "sku", description: "d", displayName: "n", price: 1, offer: offer)
        }
        for count: Int32 in [1, 12] {
            try item(AdvancedCommerceOffer(period: .p1M, periodCount: count, price: 1, reason: .retention))
        }
        for count: Int32 in [0, 13, -1] {
            expectRefusal(.outOfRange, "periodCount") {
                try item(AdvancedCommerceOffer(period: .p1M, periodCount: count, price: 1, reason: .retention))
            }
        }
        expectRefusal(.missingField, "price") {
            try item(AdvancedCommerceOffer(period: .p1M, periodCount: 1, reason: .retention))
        }
    }

    /// Input: a subscription without items, with descriptors lacking a display name, and modifications with
    /// empty lists of items. Expected: `emptyList` at `items`, `addItems`, `changeItems`, `removeItems`;
    /// `missingField` at `displayName`.
    @Test("lists of items are not empty and descriptors are complete")
    func listsAndDescriptors() throws {
        let info = AdvancedCommerceRequestInfo(requestReferenceId: UUID())
        let item = try AdvancedCommerceSubscriptionCreateItem(sku: "sku", description: "d", displayName: "n", price: 1)
        func create(
            _ items: [AdvancedCommerceSubscriptionCreateItem], _ descriptors: AdvancedCommerceDescriptors
        ) throws {
            _ = try AdvancedCommerceSubscriptionCreateRequest(
                currency: "USD", descriptors: descriptors, items: items, period: .p1M, requestInfo: info,
                taxCode: "C003-00-2")
        }
        try create([item], AdvancedCommerceDescriptors(description: "d", displayName: "n"))
        expectRefusal(.emptyList, "items") {
            try create([], AdvancedCommerceDescriptors(description: "d", displayName: "n"))
        }
        expectRefusal(.missingField, "displayName") {
            try create([item], AdvancedCommerceDescriptors(description: "d"))
        }
        expectRefusal(.emptyList, "addItems") {
            _ = try AdvancedCommerceSubscriptionModifyInAppRequest(
                requestInfo: info, transactionId: "1", retainBillingCycle: true, addItems: [])
        }
        expectRefusal(.emptyList, "changeItems") {
            _ = try AdvancedCommerceSubscriptionModifyInAppRequest(
                requestInfo: info, transactionId: "1", retainBillingCycle: true, changeItems: [])
        }
        expectRefusal(.emptyList, "removeItems") {
            _ = try AdvancedCommerceSubscriptionModifyInAppRequest(
                requestInfo: info, transactionId: "1", retainBillingCycle: true, removeItems: [])
        }
    }

    /// Input: valid values changed afterwards to break a rule (a 46-character description, no items). Expected:
    /// encoding them throws the rule's error, so such a value is never signed.
    @Test("a value changed after it was made is checked again when it encodes")
    func encodingChecksAgain() throws {
        var item = try chargeItem()
        item.description = String(repeating: "A", count: 46)
        let request = AdvancedCommerceOneTimeChargeCreateRequest(
            currency: "USD", item: item, requestInfo: AdvancedCommerceRequestInfo(requestReferenceId: UUID()),
            taxCode: "C003-00-2")
        expectRefusal(.stringTooLong, "description") { _ = try request.jsonData() }
        var modification = try AdvancedCommerceTestValues.fullModification()
        modification.removeItems = []
        expectRefusal(.emptyList, "removeItems") { _ = try modification.jsonData() }
        var create = try JSONDecoder().decode(
            AdvancedCommerceSubscriptionCreateRequest.self,
            from: try SigningTestVectors.appleAPI("advancedCommerceSubscriptionCreateRequest.json"))
        create.descriptors.displayName = nil
        expectRefusal(.missingField, "displayName") { _ = try create.jsonData() }
    }

    /// Input: Apple's item file with a 46-character description, and an offer file with `periodCount` 13 in an
    /// item. Expected: decoding throws the validation error (`stringTooLong`, `outOfRange`), not a value.
    @Test("decoding checks the same rules")
    func decodingChecks() throws {
        var members = try SigningTestVectors.object(
            try SigningTestVectors.appleAPI("advancedCommerceSubscriptionCreateItem.json"))
        members["description"] = .string(String(repeating: "A", count: 46))
        let long = try JSONEncoder().encode(JSONValue.object(members))
        expectRefusal(.stringTooLong, "description") {
            _ = try JSONDecoder().decode(AdvancedCommerceSubscriptionCreateItem.self, from: long)
        }
        members["description"] = .string("description")
        members["offer"] = .object([
            "period": .string("P1W"), "periodCount": .integer(13), "price": .integer(5000),
            "reason": .string("WIN_BACK"),
        ])
        let offer = try JSONEncoder().encode(JSONValue.object(members))
        expectRefusal(.outOfRange, "periodCount") {
            _ = try JSONDecoder().decode(AdvancedCommerceSubscriptionCreateItem.self, from: offer)
        }
    }

    /// Input: two errors with the same code and different fields, and the text of one. Expected: equal (codes
    /// only, as the library's other errors), and the text names the code and the rule.
    @Test("errors compare by code and describe the rule")
    func errorIdentity() {
        let a = AdvancedCommerceValidationError(code: .emptyList, field: "items", message: "items must hold one")
        let b = AdvancedCommerceValidationError(code: .emptyList, field: "addItems", message: "other")
        #expect(a == b && a.hashValue == b.hashValue)
        #expect(a != AdvancedCommerceValidationError(code: .outOfRange, field: "items", message: ""))
        #expect(a.description == "emptyList: items must hold one" && Code.missingField.rawValue == "missingField")
    }

    /// Input: a validation error seen through `any Error`. Expected: `localizedDescription` is its message (a
    /// `LocalizedError`, as ``SigningError`` is), not Foundation's generic sentence.
    @Test("localizedDescription is the message, through any Error")
    func localizedDescriptionIsTheMessage() {
        let error: any Error = AdvancedCommerceValidationError(
            code: .stringTooLong, field: "description", message: "description has 46 characters; at most 45")
        #expect(error.localizedDescription == "description has 46 characters; at most 45")
    }

    /// Input: a valid one-time charge request whose item's description is then changed to 46 characters, given
    /// to `AdvancedCommerceInAppSignatureCreator.createSignature(advancedCommerceInAppRequest:)`. Expected: the
    /// creator re-validates through `jsonData()` and throws `SigningError` with code `encodingFailed`, naming
    /// the rule; no token is made.
    @Test("the in-app creator refuses a request edited into breaking Apple's rules with encodingFailed")
    func creatorRefusesEditedRequest() throws {
        let creator = try AdvancedCommerceInAppSignatureCreator(
            signingKey: SigningFixtures.appleKeyPEM(), keyId: "k", issuerId: "i", bundleId: "b")
        var item = try chargeItem()
        item.description = String(repeating: "A", count: 46)
        let request = AdvancedCommerceOneTimeChargeCreateRequest(
            currency: "USD", item: item, requestInfo: AdvancedCommerceRequestInfo(requestReferenceId: UUID()),
            taxCode: "C003-00-2")
        do {
            let token = try creator.createSignature(advancedCommerceInAppRequest: request)
            Issue.record("signed a request that breaks Apple's rules: \(token)")
        } catch {
            #expect(error.code == .encodingFailed, "\(error)")
            #expect(error.message.contains("stringTooLong"), "\(error)")
        }
    }
}
