import Foundation
import JWSVerify
import PurchaseLedger

/// A purchase lifecycle from Apple's documentation, as the signed items the App Store sends, in stages: each stage
/// adds deliveries and says what the entitlements must be once the ledger holds every delivery so far.
struct Scenario: Sendable, CustomStringConvertible {
    /// What the entitlement of one purchase must be at a time.
    struct Expectation: Sendable {
        var day: Double
        var original: String
        var environment: String = "Sandbox"
        /// nil: no entry (nothing purchased yet, or a consumable).
        var status: EntitlementStatus?
        var transactionId: String? = nil
        var entitled: Bool? = nil
        var quantity: Int64? = nil
        var revocationType: String? = nil
        var autoRenewStatus: Int64? = nil
    }

    struct Stage: Sendable {
        var deliveries: [String]
        var expectations: [Expectation]
    }

    var name: String
    var stages: [Stage]
    var description: String { name }

    /// Every delivery of every stage.
    var allDeliveries: [String] { stages.flatMap(\.deliveries) }
    /// The purchases the expectations name, with their environments.
    var purchases: [(original: String, environment: String)] {
        var seen: [String] = []
        var purchases: [(String, String)] = []
        for expectation in stages.flatMap(\.expectations)
        where !seen.contains(expectation.original + expectation.environment) {
            seen.append(expectation.original + expectation.environment)
            purchases.append((expectation.original, expectation.environment))
        }
        return purchases
    }

    /// The scenarios, minted once.
    static let all: [Scenario] = {
        do { return try make(LedgerWorld.shared) } catch {
            preconditionFailure("minting the scenarios failed: \(error)")
        }
    }()

    private static func make(_ w: LedgerWorld) throws -> [Scenario] {
        typealias T = LedgerWorld.Transaction
        typealias R = LedgerWorld.Renewal
        let d = LedgerWorld.at(day:)
        func month(_ id: String, _ original: String, from start: Double, env: String = "Sandbox") -> T {
            T(
                id: id, original: original, purchase: d(start), expires: d(start + 30), signed: d(start),
                environment: env)
        }
        func renewal(_ original: String, signed: Double, env: String = "Sandbox") -> R {
            R(original: original, signed: d(signed), environment: env)
        }
        var scenarios: [Scenario] = []

        // Subscribe, then renew: SUBSCRIBED INITIAL_BUY, DID_RENEW.
        scenarios.append(
            Scenario(
                name: "subscribe and renew",
                stages: [
                    Stage(
                        deliveries: [
                            try w.notification(
                                "SUBSCRIBED", subtype: "INITIAL_BUY", uuid: "a0000001-0000-4000-8000-000000000001",
                                signed: d(0), transaction: month("1001", "1001", from: 0),
                                renewal: renewal("1001", signed: 0))
                        ],
                        expectations: [
                            Expectation(day: -1, original: "1001", status: nil),
                            Expectation(
                                day: 10, original: "1001", status: .active, transactionId: "1001", entitled: true),
                            Expectation(
                                day: 31, original: "1001", status: .expired, transactionId: "1001", entitled: false),
                        ]),
                    Stage(
                        deliveries: [
                            try w.notification(
                                "DID_RENEW", uuid: "a0000001-0000-4000-8000-000000000002", signed: d(30),
                                transaction: month("1002", "1001", from: 30), renewal: renewal("1001", signed: 30))
                        ],
                        expectations: [
                            Expectation(day: 10, original: "1001", status: .active, transactionId: "1001"),
                            Expectation(
                                day: 45, original: "1001", status: .active, transactionId: "1002", autoRenewStatus: 1),
                            Expectation(day: 61, original: "1001", status: .expired, transactionId: "1002"),
                        ]),
                ]))

        // Fail to renew into the billing grace period (DID_FAIL_TO_RENEW GRACE_PERIOD), then recover (DID_RENEW
        // BILLING_RECOVERY).
        var graceRenewal = renewal("2001", signed: 30)
        graceRenewal.grace = d(36)
        graceRenewal.retry = true
        let recovered = month("2002", "2001", from: 33)
        scenarios.append(
            Scenario(
                name: "grace period, then recovery",
                stages: [
                    Stage(
                        deliveries: [
                            try w.token(month("2001", "2001", from: 0)),
                            try w.notification(
                                "DID_FAIL_TO_RENEW", subtype: "GRACE_PERIOD",
                                uuid: "a0000002-0000-4000-8000-000000000001",
                                signed: d(30), renewal: graceRenewal),
                        ],
                        expectations: [
                            Expectation(day: 20, original: "2001", status: .active, transactionId: "2001"),
                            Expectation(
                                day: 31, original: "2001", status: .gracePeriod, transactionId: "2001", entitled: true),
                            Expectation(
                                day: 37, original: "2001", status: .billingRetry, transactionId: "2001", entitled: false
                            ),
                        ]),
                    Stage(
                        deliveries: [
                            try w.notification(
                                "DID_RENEW", subtype: "BILLING_RECOVERY", uuid: "a0000002-0000-4000-8000-000000000002",
                                signed: d(33), transaction: recovered, renewal: renewal("2001", signed: 33))
                        ],
                        expectations: [
                            Expectation(
                                day: 34, original: "2001", status: .active, transactionId: "2002", entitled: true),
                            Expectation(day: 64, original: "2001", status: .expired, transactionId: "2002"),
                        ]),
                ]))

        // Billing retry without grace (DID_FAIL_TO_RENEW), then EXPIRED BILLING_RETRY.
        var retrying = renewal("3001", signed: 30)
        retrying.retry = true
        var gaveUp = renewal("3001", signed: 90)
        gaveUp.retry = false
        gaveUp.autoRenew = 0
        gaveUp.expirationIntent = 2
        scenarios.append(
            Scenario(
                name: "billing retry, then expiry",
                stages: [
                    Stage(
                        deliveries: [
                            try w.token(month("3001", "3001", from: 0)),
                            try w.notification(
                                "DID_FAIL_TO_RENEW", uuid: "a0000003-0000-4000-8000-000000000001", signed: d(30),
                                transaction: month("3001", "3001", from: 0), renewal: retrying),
                        ],
                        expectations: [
                            Expectation(
                                day: 31, original: "3001", status: .billingRetry, transactionId: "3001", entitled: false
                            )
                        ]),
                    Stage(
                        deliveries: [
                            try w.notification(
                                "EXPIRED", subtype: "BILLING_RETRY", uuid: "a0000003-0000-4000-8000-000000000002",
                                signed: d(90), transaction: month("3001", "3001", from: 0), renewal: gaveUp)
                        ],
                        expectations: [
                            Expectation(day: 10, original: "3001", status: .active, transactionId: "3001"),
                            Expectation(
                                day: 91, original: "3001", status: .expired, entitled: false, autoRenewStatus: 0),
                        ]),
                ]))

        // Voluntary expiry: DID_CHANGE_RENEWAL_STATUS AUTO_RENEW_DISABLED, then EXPIRED VOLUNTARY.
        var disabled = renewal("4001", signed: 5)
        disabled.autoRenew = 0
        var expiredVoluntarily = renewal("4001", signed: 30)
        expiredVoluntarily.autoRenew = 0
        expiredVoluntarily.expirationIntent = 1
        scenarios.append(
            Scenario(
                name: "voluntary expiry",
                stages: [
                    Stage(
                        deliveries: [
                            try w.notification(
                                "SUBSCRIBED", subtype: "INITIAL_BUY", uuid: "a0000004-0000-4000-8000-000000000001",
                                signed: d(0), transaction: month("4001", "4001", from: 0),
                                renewal: renewal("4001", signed: 0)),
                            try w.notification(
                                "DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_DISABLED",
                                uuid: "a0000004-0000-4000-8000-000000000002", signed: d(5),
                                transaction: month("4001", "4001", from: 0), renewal: disabled),
                            try w.notification(
                                "EXPIRED", subtype: "VOLUNTARY", uuid: "a0000004-0000-4000-8000-000000000003",
                                signed: d(30),
                                transaction: month("4001", "4001", from: 0), renewal: expiredVoluntarily),
                        ],
                        expectations: [
                            Expectation(day: 10, original: "4001", status: .active, entitled: true, autoRenewStatus: 0),
                            Expectation(day: 30.5, original: "4001", status: .expired, entitled: false),
                        ])
                ]))

        // Refund (REFUND), then refund reversed (REFUND_REVERSED: the transaction signed again without revocation).
        var refunded = month("5001", "5001", from: 0)
        refunded.signed = d(5)
        refunded.revocation = d(5)
        refunded.revocationReason = 1
        refunded.revocationType = "REFUND_FULL"
        var reinstated = month("5001", "5001", from: 0)
        reinstated.signed = d(8)
        scenarios.append(
            Scenario(
                name: "refund, then refund reversed",
                stages: [
                    Stage(
                        deliveries: [
                            try w.token(month("5001", "5001", from: 0)),
                            try w.notification(
                                "REFUND", uuid: "a0000005-0000-4000-8000-000000000001", signed: d(5),
                                transaction: refunded),
                        ],
                        expectations: [
                            Expectation(day: 3, original: "5001", status: .active, entitled: true),
                            Expectation(
                                day: 6, original: "5001", status: .revoked, entitled: false,
                                revocationType: "REFUND_FULL"),
                        ]),
                    Stage(
                        deliveries: [
                            try w.notification(
                                "REFUND_REVERSED", uuid: "a0000005-0000-4000-8000-000000000002", signed: d(8),
                                transaction: reinstated)
                        ],
                        expectations: [
                            Expectation(day: 6, original: "5001", status: .active, entitled: true),
                            Expectation(day: 31, original: "5001", status: .expired),
                        ]),
                ]))

        // Family sharing: a family member's transaction (FAMILY_SHARED), revoked (REVOKE, FAMILY_REVOKE).
        var shared = month("6001", "6001", from: 0)
        shared.ownership = "FAMILY_SHARED"
        shared.account = nil
        var sharedRevoked = shared
        sharedRevoked.signed = d(12)
        sharedRevoked.revocation = d(12)
        sharedRevoked.revocationReason = 0
        sharedRevoked.revocationType = "FAMILY_REVOKE"
        scenarios.append(
            Scenario(
                name: "family sharing revoked",
                stages: [
                    Stage(
                        deliveries: [
                            try w.token(shared),
                            try w.notification(
                                "REVOKE", uuid: "a0000006-0000-4000-8000-000000000001", signed: d(12),
                                transaction: sharedRevoked),
                        ],
                        expectations: [
                            Expectation(day: 11, original: "6001", status: .active, entitled: true),
                            Expectation(
                                day: 13, original: "6001", status: .revoked, entitled: false,
                                revocationType: "FAMILY_REVOKE"),
                        ])
                ]))

        // Upgrade within a group (DID_CHANGE_RENEWAL_PREF UPGRADE: the basic transaction is revoked and upgraded,
        // a premium one starts at once), then a downgrade that takes effect at the next renewal.
        var basicUpgraded = month("7001", "7001", from: 0)
        basicUpgraded.signed = d(10)
        basicUpgraded.revocation = d(10)
        basicUpgraded.revocationReason = 0
        basicUpgraded.revocationType = "REFUND_PRORATED"
        basicUpgraded.isUpgraded = true
        var premium = month("7002", "7001", from: 10)
        premium.product = "com.example.monthly.premium"
        var toBasic = renewal("7001", signed: 15)
        toBasic.product = "com.example.monthly.premium"
        toBasic.autoRenewProduct = "com.example.monthly"
        var backToBasic = month("7003", "7001", from: 40)
        backToBasic.product = "com.example.monthly"
        scenarios.append(
            Scenario(
                name: "upgrade, then downgrade",
                stages: [
                    Stage(
                        deliveries: [
                            try w.token(month("7001", "7001", from: 0)),
                            try w.notification(
                                "DID_CHANGE_RENEWAL_PREF", subtype: "UPGRADE",
                                uuid: "a0000007-0000-4000-8000-000000000001",
                                signed: d(10), transaction: premium, renewal: renewal("7001", signed: 10)),
                            try w.token(basicUpgraded),
                        ],
                        expectations: [
                            Expectation(day: 5, original: "7001", status: .active, transactionId: "7001"),
                            Expectation(day: 15, original: "7001", status: .active, transactionId: "7002"),
                        ]),
                    Stage(
                        deliveries: [
                            try w.notification(
                                "DID_CHANGE_RENEWAL_PREF", subtype: "DOWNGRADE",
                                uuid: "a0000007-0000-4000-8000-000000000002",
                                signed: d(15), transaction: premium, renewal: toBasic),
                            try w.notification(
                                "DID_RENEW", uuid: "a0000007-0000-4000-8000-000000000003", signed: d(40),
                                transaction: backToBasic, renewal: renewal("7001", signed: 40)),
                        ],
                        expectations: [
                            Expectation(day: 20, original: "7001", status: .active, transactionId: "7002"),
                            Expectation(day: 45, original: "7001", status: .active, transactionId: "7003"),
                        ]),
                ]))

        // An offer redeemed (OFFER_REDEEMED), then the renewal date extended (RENEWAL_EXTENDED: the same
        // transaction signed again with a later expiresDate).
        var offer = month("8001", "8001", from: 0)
        offer.offerType = 2
        var extended = offer
        extended.expires = d(40)
        extended.signed = d(20)
        scenarios.append(
            Scenario(
                name: "offer redeemed, renewal extended",
                stages: [
                    Stage(
                        deliveries: [
                            try w.notification(
                                "OFFER_REDEEMED", subtype: "INITIAL_BUY", uuid: "a0000008-0000-4000-8000-000000000001",
                                signed: d(0), transaction: offer, renewal: renewal("8001", signed: 0)),
                            try w.notification(
                                "RENEWAL_EXTENDED", uuid: "a0000008-0000-4000-8000-000000000002", signed: d(20),
                                transaction: extended, renewal: renewal("8001", signed: 20)),
                        ],
                        expectations: [
                            Expectation(day: 35, original: "8001", status: .active, transactionId: "8001"),
                            Expectation(day: 41, original: "8001", status: .expired),
                        ])
                ]))

        // Multiseat: seats assigned to a member (ASSIGNED, quantity 5), then the assignment revoked.
        var seat = month("9001", "9001", from: 0)
        seat.ownership = "ASSIGNED"
        seat.quantity = 5
        var seatRevoked = seat
        seatRevoked.signed = d(7)
        seatRevoked.revocation = d(7)
        seatRevoked.revocationReason = 0
        seatRevoked.revocationType = "ASSIGNMENT_REVOKE"
        scenarios.append(
            Scenario(
                name: "multiseat assigned, then assignment revoked",
                stages: [
                    Stage(
                        deliveries: [
                            try w.notification(
                                "SUBSCRIBED", subtype: "INITIAL_BUY", uuid: "a0000009-0000-4000-8000-000000000001",
                                signed: d(0), transaction: seat, renewal: renewal("9001", signed: 0))
                        ],
                        expectations: [
                            Expectation(day: 6, original: "9001", status: .active, entitled: true, quantity: 5)
                        ]),
                    Stage(
                        deliveries: [
                            try w.notification(
                                "REVOKE", uuid: "a0000009-0000-4000-8000-000000000002", signed: d(7),
                                transaction: seatRevoked)
                        ],
                        expectations: [
                            Expectation(day: 6, original: "9001", status: .active, quantity: 5),
                            Expectation(
                                day: 8, original: "9001", status: .revoked, entitled: false, quantity: 5,
                                revocationType: "ASSIGNMENT_REVOKE"),
                        ]),
                ]))

        // A non-consumable, refunded; a consumable, which is never an entitlement.
        var lifetime = T(
            id: "10001", original: "10001", product: "com.example.lifetime", type: "Non-Consumable", purchase: d(0),
            expires: nil, signed: d(0), group: nil)
        let coins = T(
            id: "10002", original: "10002", product: "com.example.coins", type: "Consumable", purchase: d(1),
            expires: nil, signed: d(1), group: nil)
        let lifetimeRefunded: T = {
            var refunded = lifetime
            refunded.signed = d(50)
            refunded.revocation = d(50)
            refunded.revocationReason = 0
            refunded.revocationType = "REFUND_FULL"
            return refunded
        }()
        lifetime.quantity = 1
        scenarios.append(
            Scenario(
                name: "non-consumable refunded, consumable not an entitlement",
                stages: [
                    Stage(
                        deliveries: [try w.token(lifetime), try w.token(coins)],
                        expectations: [
                            Expectation(day: 100, original: "10001", status: .active, entitled: true),
                            Expectation(day: 5, original: "10002", status: nil),
                        ]),
                    Stage(
                        deliveries: [
                            try w.notification(
                                "REFUND", uuid: "a0000010-0000-4000-8000-000000000001", signed: d(50),
                                transaction: lifetimeRefunded)
                        ],
                        expectations: [
                            Expectation(day: 40, original: "10001", status: .active),
                            Expectation(day: 60, original: "10001", status: .revoked, revocationType: "REFUND_FULL"),
                        ]),
                ]))

        // Sandbox beside Production: the same ids in both, kept apart.
        var production = month("11001", "11001", from: 0, env: "Production")
        production.expires = d(365)
        scenarios.append(
            Scenario(
                name: "Sandbox beside Production",
                stages: [
                    Stage(
                        deliveries: [
                            try w.token(month("11001", "11001", from: 0, env: "Sandbox")),
                            try w.notification(
                                "SUBSCRIBED", subtype: "INITIAL_BUY", uuid: "a0000011-0000-4000-8000-000000000001",
                                signed: d(0), environment: "Production", transaction: production,
                                renewal: renewal("11001", signed: 0, env: "Production")),
                        ],
                        expectations: [
                            Expectation(day: 40, original: "11001", environment: "Sandbox", status: .expired),
                            Expectation(day: 40, original: "11001", environment: "Production", status: .active),
                        ])
                ]))
        return scenarios
    }
}
