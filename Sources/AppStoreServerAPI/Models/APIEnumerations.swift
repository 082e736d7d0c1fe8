// The App Store Server API's enumerations. Each wraps its raw JSON value, so that a value Apple adds later
// decodes and encodes unchanged; the constants are the documented values.

import Foundation

/// What the API's enumerations share: a raw value, documented constants and their names.
protocol APIEnumeration: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible
where RawValue: Codable & Hashable & Sendable & CustomStringConvertible {
    init(rawValue: RawValue)
    static var constantNames: [RawValue: String] { get }
}

extension APIEnumeration {
    /// Decodes the raw JSON value.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(RawValue.self))
    }
    /// Encodes the raw JSON value, documented or not.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
    /// The constant's name for a documented value, `nil` for one this version doesn't know.
    public var name: String? { Self.constantNames[rawValue] }
    /// The constant's name, else the raw value.
    public var description: String { name ?? rawValue.description }
}

/// The status of an order id look-up.
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct OrderLookupStatus: APIEnumeration {
    /// The raw JSON value.
    public let rawValue: Int32
    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `0`: The order id is valid and has in-app purchases.
    public static let valid = OrderLookupStatus(rawValue: 0)
    /// `1`: The order id is not valid.
    public static let invalid = OrderLookupStatus(rawValue: 1)

    static let constantNames: [Int32: String] = [
        0: "valid",
        1: "invalid",
    ]
}

/// The outcome of one attempt to send a notification to your server.
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct SendAttemptResult: APIEnumeration {
    /// The raw JSON value.
    public let rawValue: String
    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `SUCCESS`: Your server answered 200.
    public static let success = SendAttemptResult(rawValue: "SUCCESS")
    /// `TIMED_OUT`: Your server did not answer in time.
    public static let timedOut = SendAttemptResult(rawValue: "TIMED_OUT")
    /// `TLS_ISSUE`: The TLS handshake failed.
    public static let tlsIssue = SendAttemptResult(rawValue: "TLS_ISSUE")
    /// `CIRCULAR_REDIRECT`: Redirects looped.
    public static let circularRedirect = SendAttemptResult(rawValue: "CIRCULAR_REDIRECT")
    /// `NO_RESPONSE`: No response.
    public static let noResponse = SendAttemptResult(rawValue: "NO_RESPONSE")
    /// `SOCKET_ISSUE`: A socket error.
    public static let socketIssue = SendAttemptResult(rawValue: "SOCKET_ISSUE")
    /// `UNSUPPORTED_CHARSET`: The response used an unsupported character set.
    public static let unsupportedCharset = SendAttemptResult(rawValue: "UNSUPPORTED_CHARSET")
    /// `INVALID_RESPONSE`: The response was invalid.
    public static let invalidResponse = SendAttemptResult(rawValue: "INVALID_RESPONSE")
    /// `PREMATURE_CLOSE`: The connection closed early.
    public static let prematureClose = SendAttemptResult(rawValue: "PREMATURE_CLOSE")
    /// `UNSUCCESSFUL_HTTP_RESPONSE_CODE`: Your server answered with a status other than 200.
    public static let unsuccessfulHttpResponseCode = SendAttemptResult(rawValue: "UNSUCCESSFUL_HTTP_RESPONSE_CODE")
    /// `OTHER`: Another failure.
    public static let other = SendAttemptResult(rawValue: "OTHER")

    static let constantNames: [String: String] = [
        "SUCCESS": "success",
        "TIMED_OUT": "timedOut",
        "TLS_ISSUE": "tlsIssue",
        "CIRCULAR_REDIRECT": "circularRedirect",
        "NO_RESPONSE": "noResponse",
        "SOCKET_ISSUE": "socketIssue",
        "UNSUPPORTED_CHARSET": "unsupportedCharset",
        "INVALID_RESPONSE": "invalidResponse",
        "PREMATURE_CLOSE": "prematureClose",
        "UNSUCCESSFUL_HTTP_RESPONSE_CODE": "unsuccessfulHttpResponseCode",
        "OTHER": "other",
    ]
}

/// Why a subscription renewal date is extended.
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct ExtendReasonCode: APIEnumeration {
    /// The raw JSON value.
    public let rawValue: Int32
    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `0`: No reason given.
    public static let undeclared = ExtendReasonCode(rawValue: 0)
    /// `1`: For customer satisfaction.
    public static let customerSatisfaction = ExtendReasonCode(rawValue: 1)
    /// `2`: Another reason.
    public static let other = ExtendReasonCode(rawValue: 2)
    /// `3`: Because of a service issue or outage.
    public static let serviceIssueOrOutage = ExtendReasonCode(rawValue: 3)

    static let constantNames: [Int32: String] = [
        0: "undeclared",
        1: "customerSatisfaction",
        2: "other",
        3: "serviceIssueOrOutage",
    ]
}

/// The review state of a Retention Messaging image.
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct ImageState: APIEnumeration {
    /// The raw JSON value.
    public let rawValue: String
    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `PENDING`: Awaiting review.
    public static let pending = ImageState(rawValue: "PENDING")
    /// `APPROVED`: Approved.
    public static let approved = ImageState(rawValue: "APPROVED")
    /// `REJECTED`: Rejected.
    public static let rejected = ImageState(rawValue: "REJECTED")

    static let constantNames: [String: String] = [
        "PENDING": "pending",
        "APPROVED": "approved",
        "REJECTED": "rejected",
    ]
}

/// The review state of a Retention Messaging message.
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct MessageState: APIEnumeration {
    /// The raw JSON value.
    public let rawValue: String
    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `PENDING`: Awaiting review.
    public static let pending = MessageState(rawValue: "PENDING")
    /// `APPROVED`: Approved.
    public static let approved = MessageState(rawValue: "APPROVED")
    /// `REJECTED`: Rejected.
    public static let rejected = MessageState(rawValue: "REJECTED")

    static let constantNames: [String: String] = [
        "PENDING": "pending",
        "APPROVED": "approved",
        "REJECTED": "rejected",
    ]
}

/// The size of a Retention Messaging image.
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct ImageSize: APIEnumeration {
    /// The raw JSON value.
    public let rawValue: String
    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `FULL_SIZE`: A full-size image.
    public static let fullSize = ImageSize(rawValue: "FULL_SIZE")
    /// `BULLET_POINT`: A bullet-point icon.
    public static let bulletPoint = ImageSize(rawValue: "BULLET_POINT")

    static let constantNames: [String: String] = [
        "FULL_SIZE": "fullSize",
        "BULLET_POINT": "bulletPoint",
    ]
}

/// Where a Retention Messaging message shows its header.
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct HeaderPosition: APIEnumeration {
    /// The raw JSON value.
    public let rawValue: String
    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `ABOVE_BODY`: Above the body.
    public static let aboveBody = HeaderPosition(rawValue: "ABOVE_BODY")
    /// `ABOVE_IMAGE`: Above the image.
    public static let aboveImage = HeaderPosition(rawValue: "ABOVE_IMAGE")

    static let constantNames: [String: String] = [
        "ABOVE_BODY": "aboveBody",
        "ABOVE_IMAGE": "aboveImage",
    ]
}

/// The outcome of a Retention Messaging performance test.
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct PerformanceTestStatus: APIEnumeration {
    /// The raw JSON value.
    public let rawValue: String
    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `PENDING`: Still running.
    public static let pending = PerformanceTestStatus(rawValue: "PENDING")
    /// `PASS`: Passed.
    public static let pass = PerformanceTestStatus(rawValue: "PASS")
    /// `FAIL`: Failed.
    public static let fail = PerformanceTestStatus(rawValue: "FAIL")

    static let constantNames: [String: String] = [
        "PENDING": "pending",
        "PASS": "pass",
        "FAIL": "fail",
    ]
}

/// Whether a consumable in-app purchase was delivered (Send Consumption Information, v2).
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct DeliveryStatus: APIEnumeration {
    /// The raw JSON value.
    public let rawValue: String
    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `DELIVERED`: Delivered and working.
    public static let delivered = DeliveryStatus(rawValue: "DELIVERED")
    /// `UNDELIVERED_QUALITY_ISSUE`: Not delivered: a quality issue.
    public static let undeliveredQualityIssue = DeliveryStatus(rawValue: "UNDELIVERED_QUALITY_ISSUE")
    /// `UNDELIVERED_WRONG_ITEM`: The wrong item was delivered.
    public static let undeliveredWrongItem = DeliveryStatus(rawValue: "UNDELIVERED_WRONG_ITEM")
    /// `UNDELIVERED_SERVER_OUTAGE`: Not delivered: a server outage.
    public static let undeliveredServerOutage = DeliveryStatus(rawValue: "UNDELIVERED_SERVER_OUTAGE")
    /// `UNDELIVERED_OTHER`: Not delivered: another reason.
    public static let undeliveredOther = DeliveryStatus(rawValue: "UNDELIVERED_OTHER")

    static let constantNames: [String: String] = [
        "DELIVERED": "delivered",
        "UNDELIVERED_QUALITY_ISSUE": "undeliveredQualityIssue",
        "UNDELIVERED_WRONG_ITEM": "undeliveredWrongItem",
        "UNDELIVERED_SERVER_OUTAGE": "undeliveredServerOutage",
        "UNDELIVERED_OTHER": "undeliveredOther",
    ]
}

/// Your preferred outcome of a refund request (v2).
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct RefundPreference: APIEnumeration {
    /// The raw JSON value.
    public let rawValue: String
    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `DECLINE`: Decline the refund.
    public static let decline = RefundPreference(rawValue: "DECLINE")
    /// `GRANT_FULL`: Grant a full refund.
    public static let grantFull = RefundPreference(rawValue: "GRANT_FULL")
    /// `GRANT_PRORATED`: Grant a prorated refund.
    public static let grantProrated = RefundPreference(rawValue: "GRANT_PRORATED")

    static let constantNames: [String: String] = [
        "DECLINE": "decline",
        "GRANT_FULL": "grantFull",
        "GRANT_PRORATED": "grantProrated",
    ]
}

/// How much of an in-app purchase the customer consumed (v1).
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct ConsumptionStatus: APIEnumeration {
    /// The raw JSON value.
    public let rawValue: Int32
    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `0`: Not declared.
    public static let undeclared = ConsumptionStatus(rawValue: 0)
    /// `1`: Not consumed.
    public static let notConsumed = ConsumptionStatus(rawValue: 1)
    /// `2`: Partially consumed.
    public static let partiallyConsumed = ConsumptionStatus(rawValue: 2)
    /// `3`: Fully consumed.
    public static let fullyConsumed = ConsumptionStatus(rawValue: 3)

    static let constantNames: [Int32: String] = [
        0: "undeclared",
        1: "notConsumed",
        2: "partiallyConsumed",
        3: "fullyConsumed",
    ]
}

/// The platform the customer consumed the purchase on (v1).
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct Platform: APIEnumeration {
    /// The raw JSON value.
    public let rawValue: Int32
    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `0`: Not declared.
    public static let undeclared = Platform(rawValue: 0)
    /// `1`: An Apple platform.
    public static let apple = Platform(rawValue: 1)
    /// `2`: Another platform.
    public static let nonApple = Platform(rawValue: 2)

    static let constantNames: [Int32: String] = [
        0: "undeclared",
        1: "apple",
        2: "nonApple",
    ]
}

/// Whether a consumable in-app purchase was delivered (v1).
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct DeliveryStatusV1: APIEnumeration {
    /// The raw JSON value.
    public let rawValue: Int32
    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `0`: Delivered and working.
    public static let deliveredAndWorkingProperly = DeliveryStatusV1(rawValue: 0)
    /// `1`: Not delivered: a quality issue.
    public static let didNotDeliverDueToQualityIssue = DeliveryStatusV1(rawValue: 1)
    /// `2`: The wrong item was delivered.
    public static let deliveredWrongItem = DeliveryStatusV1(rawValue: 2)
    /// `3`: Not delivered: a server outage.
    public static let didNotDeliverDueToServerOutage = DeliveryStatusV1(rawValue: 3)
    /// `4`: Not delivered: an in-game currency change.
    public static let didNotDeliverDueToIngameCurrencyChange = DeliveryStatusV1(rawValue: 4)
    /// `5`: Not delivered: another reason.
    public static let didNotDeliverForOtherReason = DeliveryStatusV1(rawValue: 5)

    static let constantNames: [Int32: String] = [
        0: "deliveredAndWorkingProperly",
        1: "didNotDeliverDueToQualityIssue",
        2: "deliveredWrongItem",
        3: "didNotDeliverDueToServerOutage",
        4: "didNotDeliverDueToIngameCurrencyChange",
        5: "didNotDeliverForOtherReason",
    ]
}

/// The age of the customer's account (v1).
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct AccountTenure: APIEnumeration {
    /// The raw JSON value.
    public let rawValue: Int32
    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `0`: Not declared.
    public static let undeclared = AccountTenure(rawValue: 0)
    /// `1`: 0–3 days.
    public static let zeroToThreeDays = AccountTenure(rawValue: 1)
    /// `2`: 3–10 days.
    public static let threeDaysToTenDays = AccountTenure(rawValue: 2)
    /// `3`: 10–30 days.
    public static let tenDaysToThirtyDays = AccountTenure(rawValue: 3)
    /// `4`: 30–90 days.
    public static let thirtyDaysToNinetyDays = AccountTenure(rawValue: 4)
    /// `5`: 90–180 days.
    public static let ninetyDaysToOneHundredEightyDays = AccountTenure(rawValue: 5)
    /// `6`: 180–365 days.
    public static let oneHundredEightyDaysToThreeHundredSixtyFiveDays = AccountTenure(rawValue: 6)
    /// `7`: Over 365 days.
    public static let greaterThanThreeHundredSixtyFiveDays = AccountTenure(rawValue: 7)

    static let constantNames: [Int32: String] = [
        0: "undeclared",
        1: "zeroToThreeDays",
        2: "threeDaysToTenDays",
        3: "tenDaysToThirtyDays",
        4: "thirtyDaysToNinetyDays",
        5: "ninetyDaysToOneHundredEightyDays",
        6: "oneHundredEightyDaysToThreeHundredSixtyFiveDays",
        7: "greaterThanThreeHundredSixtyFiveDays",
    ]
}

/// How long the customer used the app (v1).
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct PlayTime: APIEnumeration {
    /// The raw JSON value.
    public let rawValue: Int32
    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `0`: Not declared.
    public static let undeclared = PlayTime(rawValue: 0)
    /// `1`: 0–5 minutes.
    public static let zeroToFiveMinutes = PlayTime(rawValue: 1)
    /// `2`: 5–60 minutes.
    public static let fiveToSixtyMinutes = PlayTime(rawValue: 2)
    /// `3`: 1–6 hours.
    public static let oneToSixHours = PlayTime(rawValue: 3)
    /// `4`: 6–24 hours.
    public static let sixHoursToTwentyFourHours = PlayTime(rawValue: 4)
    /// `5`: 1–4 days.
    public static let oneDayToFourDays = PlayTime(rawValue: 5)
    /// `6`: 4–16 days.
    public static let fourDaysToSixteenDays = PlayTime(rawValue: 6)
    /// `7`: Over 16 days.
    public static let overSixteenDays = PlayTime(rawValue: 7)

    static let constantNames: [Int32: String] = [
        0: "undeclared",
        1: "zeroToFiveMinutes",
        2: "fiveToSixtyMinutes",
        3: "oneToSixHours",
        4: "sixHoursToTwentyFourHours",
        5: "oneDayToFourDays",
        6: "fourDaysToSixteenDays",
        7: "overSixteenDays",
    ]
}

/// The customer's lifetime refunds in US dollars (v1).
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct LifetimeDollarsRefunded: APIEnumeration {
    /// The raw JSON value.
    public let rawValue: Int32
    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `0`: Not declared.
    public static let undeclared = LifetimeDollarsRefunded(rawValue: 0)
    /// `1`: $0.
    public static let zeroDollars = LifetimeDollarsRefunded(rawValue: 1)
    /// `2`: $0.01–49.99.
    public static let oneCentToFortyNineDollarsAndNinetyNineCents = LifetimeDollarsRefunded(rawValue: 2)
    /// `3`: $50–99.99.
    public static let fiftyDollarsToNinetyNineDollarsAndNinetyNineCents = LifetimeDollarsRefunded(rawValue: 3)
    /// `4`: $100–499.99.
    public static let oneHundredDollarsToFourHundredNinetyNineDollarsAndNinetyNineCents = LifetimeDollarsRefunded(rawValue: 4)
    /// `5`: $500–999.99.
    public static let fiveHundredDollarsToNineHundredNinetyNineDollarsAndNinetyNineCents = LifetimeDollarsRefunded(rawValue: 5)
    /// `6`: $1000–1999.99.
    public static let oneThousandDollarsToOneThousandNineHundredNinetyNineDollarsAndNinetyNineCents = LifetimeDollarsRefunded(rawValue: 6)
    /// `7`: $2000 or more.
    public static let twoThousandDollarsOrGreater = LifetimeDollarsRefunded(rawValue: 7)

    static let constantNames: [Int32: String] = [
        0: "undeclared",
        1: "zeroDollars",
        2: "oneCentToFortyNineDollarsAndNinetyNineCents",
        3: "fiftyDollarsToNinetyNineDollarsAndNinetyNineCents",
        4: "oneHundredDollarsToFourHundredNinetyNineDollarsAndNinetyNineCents",
        5: "fiveHundredDollarsToNineHundredNinetyNineDollarsAndNinetyNineCents",
        6: "oneThousandDollarsToOneThousandNineHundredNinetyNineDollarsAndNinetyNineCents",
        7: "twoThousandDollarsOrGreater",
    ]
}

/// The customer's lifetime purchases in US dollars (v1).
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct LifetimeDollarsPurchased: APIEnumeration {
    /// The raw JSON value.
    public let rawValue: Int32
    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `0`: Not declared.
    public static let undeclared = LifetimeDollarsPurchased(rawValue: 0)
    /// `1`: $0.
    public static let zeroDollars = LifetimeDollarsPurchased(rawValue: 1)
    /// `2`: $0.01–49.99.
    public static let oneCentToFortyNineDollarsAndNinetyNineCents = LifetimeDollarsPurchased(rawValue: 2)
    /// `3`: $50–99.99.
    public static let fiftyDollarsToNinetyNineDollarsAndNinetyNineCents = LifetimeDollarsPurchased(rawValue: 3)
    /// `4`: $100–499.99.
    public static let oneHundredDollarsToFourHundredNinetyNineDollarsAndNinetyNineCents = LifetimeDollarsPurchased(rawValue: 4)
    /// `5`: $500–999.99.
    public static let fiveHundredDollarsToNineHundredNinetyNineDollarsAndNinetyNineCents = LifetimeDollarsPurchased(rawValue: 5)
    /// `6`: $1000–1999.99.
    public static let oneThousandDollarsToOneThousandNineHundredNinetyNineDollarsAndNinetyNineCents = LifetimeDollarsPurchased(rawValue: 6)
    /// `7`: $2000 or more.
    public static let twoThousandDollarsOrGreater = LifetimeDollarsPurchased(rawValue: 7)

    static let constantNames: [Int32: String] = [
        0: "undeclared",
        1: "zeroDollars",
        2: "oneCentToFortyNineDollarsAndNinetyNineCents",
        3: "fiftyDollarsToNinetyNineDollarsAndNinetyNineCents",
        4: "oneHundredDollarsToFourHundredNinetyNineDollarsAndNinetyNineCents",
        5: "fiveHundredDollarsToNineHundredNinetyNineDollarsAndNinetyNineCents",
        6: "oneThousandDollarsToOneThousandNineHundredNinetyNineDollarsAndNinetyNineCents",
        7: "twoThousandDollarsOrGreater",
    ]
}

/// The status of the customer's account (v1).
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct UserStatus: APIEnumeration {
    /// The raw JSON value.
    public let rawValue: Int32
    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `0`: Not declared.
    public static let undeclared = UserStatus(rawValue: 0)
    /// `1`: Active.
    public static let active = UserStatus(rawValue: 1)
    /// `2`: Suspended.
    public static let suspended = UserStatus(rawValue: 2)
    /// `3`: Terminated.
    public static let terminated = UserStatus(rawValue: 3)
    /// `4`: Limited access.
    public static let limitedAccess = UserStatus(rawValue: 4)

    static let constantNames: [Int32: String] = [
        0: "undeclared",
        1: "active",
        2: "suspended",
        3: "terminated",
        4: "limitedAccess",
    ]
}

/// Your preferred outcome of a refund request (v1).
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct RefundPreferenceV1: APIEnumeration {
    /// The raw JSON value.
    public let rawValue: Int32
    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// `0`: Not declared.
    public static let undeclared = RefundPreferenceV1(rawValue: 0)
    /// `1`: Grant.
    public static let preferGrant = RefundPreferenceV1(rawValue: 1)
    /// `2`: Decline.
    public static let preferDecline = RefundPreferenceV1(rawValue: 2)
    /// `3`: No preference.
    public static let noPreference = RefundPreferenceV1(rawValue: 3)

    static let constantNames: [Int32: String] = [
        0: "undeclared",
        1: "preferGrant",
        2: "preferDecline",
        3: "noPreference",
    ]
}

/// A product type filter of Get Transaction History (Apple: `TransactionHistoryRequest.ProductType`).
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct HistoryProductType: APIEnumeration {
    /// The raw JSON value.
    public let rawValue: String
    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `AUTO_RENEWABLE`: Auto-renewable subscriptions.
    public static let autoRenewable = HistoryProductType(rawValue: "AUTO_RENEWABLE")
    /// `NON_RENEWABLE`: Non-renewing subscriptions.
    public static let nonRenewable = HistoryProductType(rawValue: "NON_RENEWABLE")
    /// `CONSUMABLE`: Consumables.
    public static let consumable = HistoryProductType(rawValue: "CONSUMABLE")
    /// `NON_CONSUMABLE`: Non-consumables.
    public static let nonConsumable = HistoryProductType(rawValue: "NON_CONSUMABLE")

    static let constantNames: [String: String] = [
        "AUTO_RENEWABLE": "autoRenewable",
        "NON_RENEWABLE": "nonRenewable",
        "CONSUMABLE": "consumable",
        "NON_CONSUMABLE": "nonConsumable",
    ]
}

/// The sort order of Get Transaction History (Apple: `TransactionHistoryRequest.Order`).
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct HistoryOrder: APIEnumeration {
    /// The raw JSON value.
    public let rawValue: String
    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `ASCENDING`: Oldest first.
    public static let ascending = HistoryOrder(rawValue: "ASCENDING")
    /// `DESCENDING`: Newest first.
    public static let descending = HistoryOrder(rawValue: "DESCENDING")

    static let constantNames: [String: String] = [
        "ASCENDING": "ascending",
        "DESCENDING": "descending",
    ]
}
