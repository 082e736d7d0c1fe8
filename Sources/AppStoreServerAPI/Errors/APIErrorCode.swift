import Foundation

/// An App Store Server API error code: the `errorCode` of an error body, documented or not.
///
/// The constants are the codes Apple documents (API 1.21), with the names of Apple's `APIError`. A code this
/// version does not know keeps its raw value and has no ``name``.
public struct APIErrorCode: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The numeric code.
    public let rawValue: Int64
    /// Wraps any code.
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// The constant's name for a documented code, `nil` otherwise.
    public var name: String? { Self.names[rawValue] }
    /// The name, or the number for an undocumented code.
    public var description: String { name ?? String(rawValue) }
    /// Whether Apple documents this code as one to retry (its name ends in `Retryable`, or it is the rate limit).
    public var isRetryable: Bool {
        rawValue == 4_290_000 || (name?.hasSuffix("Retryable") ?? false)
    }

    /// Decodes the number.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(Int64.self))
    }
    /// Encodes the number.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// `4000000`: Invalid request.
    public static let generalBadRequest = APIErrorCode(rawValue: 4_000_000)
    /// `4000002`: Invalid app identifier.
    public static let invalidAppIdentifier = APIErrorCode(rawValue: 4_000_002)
    /// `4000005`: Invalid request revision.
    public static let invalidRequestRevision = APIErrorCode(rawValue: 4_000_005)
    /// `4000006`: Invalid transaction identifier.
    public static let invalidTransactionId = APIErrorCode(rawValue: 4_000_006)
    /// `4000008`: Invalid original transaction identifier.
    public static let invalidOriginalTransactionId = APIErrorCode(rawValue: 4_000_008)
    /// `4000009`: Invalid extend-by-days value.
    public static let invalidExtendByDays = APIErrorCode(rawValue: 4_000_009)
    /// `4000010`: Invalid reason code.
    public static let invalidExtendReasonCode = APIErrorCode(rawValue: 4_000_010)
    /// `4000011`: Invalid request identifier.
    public static let invalidRequestIdentifier = APIErrorCode(rawValue: 4_000_011)
    /// `4000012`: Start date is earlier than the earliest allowed date.
    public static let startDateTooFarInPast = APIErrorCode(rawValue: 4_000_012)
    /// `4000013`: End date precedes the start date, or the two dates are equal.
    public static let startDateAfterEndDate = APIErrorCode(rawValue: 4_000_013)
    /// `4000014`: Pagination token is invalid.
    public static let invalidPaginationToken = APIErrorCode(rawValue: 4_000_014)
    /// `4000015`: Start date is invalid.
    public static let invalidStartDate = APIErrorCode(rawValue: 4_000_015)
    /// `4000016`: End date is invalid.
    public static let invalidEndDate = APIErrorCode(rawValue: 4_000_016)
    /// `4000017`: Pagination token expired.
    public static let paginationTokenExpired = APIErrorCode(rawValue: 4_000_017)
    /// `4000018`: Notification type or subtype is invalid.
    public static let invalidNotificationType = APIErrorCode(rawValue: 4_000_018)
    /// `4000019`: Request is invalid because it has too many constraints applied.
    public static let multipleFiltersSupplied = APIErrorCode(rawValue: 4_000_019)
    /// `4000020`: Test notification token is invalid.
    public static let invalidTestNotificationToken = APIErrorCode(rawValue: 4_000_020)
    /// `4000021`: Invalid sort parameter.
    public static let invalidSort = APIErrorCode(rawValue: 4_000_021)
    /// `4000022`: Invalid product type parameter.
    public static let invalidProductType = APIErrorCode(rawValue: 4_000_022)
    /// `4000023`: Product ID parameter is invalid.
    public static let invalidProductId = APIErrorCode(rawValue: 4_000_023)
    /// `4000024`: Invalid subscription group identifier.
    public static let invalidSubscriptionGroupIdentifier = APIErrorCode(rawValue: 4_000_024)
    /// `4000025`: Query parameter exclude-revoked is invalid.
    public static let invalidExcludeRevoked = APIErrorCode(rawValue: 4_000_025)
    /// `4000026`: Invalid in-app ownership type parameter.
    public static let invalidInAppOwnershipType = APIErrorCode(rawValue: 4_000_026)
    /// `4000027`: Required storefront country code is empty.
    public static let invalidEmptyStorefrontCountryCodeList = APIErrorCode(rawValue: 4_000_027)
    /// `4000028`: Storefront code is invalid.
    public static let invalidStorefrontCountryCode = APIErrorCode(rawValue: 4_000_028)
    /// `4000030`: Revoked parameter contains an invalid value.
    public static let invalidRevoked = APIErrorCode(rawValue: 4_000_030)
    /// `4000031`: Status parameter is invalid.
    public static let invalidStatus = APIErrorCode(rawValue: 4_000_031)
    /// `4000032`: Value of the account tenure field is invalid.
    public static let invalidAccountTenure = APIErrorCode(rawValue: 4_000_032)
    /// `4000033`: Value of the app account token field is invalid.
    public static let invalidAppAccountToken = APIErrorCode(rawValue: 4_000_033)
    /// `4000034`: Value of the consumption status field is invalid.
    public static let invalidConsumptionStatus = APIErrorCode(rawValue: 4_000_034)
    /// `4000035`: Customer consented field is invalid or doesn’t indicate that the customer consented.
    public static let invalidCustomerConsented = APIErrorCode(rawValue: 4_000_035)
    /// `4000036`: Value in the delivery status field is invalid.
    public static let invalidDeliveryStatus = APIErrorCode(rawValue: 4_000_036)
    /// `4000037`: Value in the lifetime dollars purchased field is invalid.
    public static let invalidLifetimeDollarsPurchased = APIErrorCode(rawValue: 4_000_037)
    /// `4000038`: Value in the lifetime dollars refunded field is invalid.
    public static let invalidLifetimeDollarsRefunded = APIErrorCode(rawValue: 4_000_038)
    /// `4000039`: Value in the platform field is invalid.
    public static let invalidPlatform = APIErrorCode(rawValue: 4_000_039)
    /// `4000040`: Value in the playtime field is invalid.
    public static let invalidPlayTime = APIErrorCode(rawValue: 4_000_040)
    /// `4000041`: Value in the sample content provided field is invalid.
    public static let invalidSampleContentProvided = APIErrorCode(rawValue: 4_000_041)
    /// `4000042`: Value in the user status field is invalid.
    public static let invalidUserStatus = APIErrorCode(rawValue: 4_000_042)
    /// `4000043`: invalidTransactionNotConsumable
    public static let invalidTransactionNotConsumable = APIErrorCode(rawValue: 4_000_043)
    /// `4000047`: Transaction identifier represents an unsupported in-app purchase type.
    public static let invalidTransactionTypeNotSupported = APIErrorCode(rawValue: 4_000_047)
    /// `4000048`: Endpoint doesn't support an app transaction ID.
    public static let appTransactionIdNotSupported = APIErrorCode(rawValue: 4_000_048)
    /// `4000161`: Image that's uploading is invalid.
    public static let invalidImage = APIErrorCode(rawValue: 4_000_161)
    /// `4000162`: Header text is too long.
    public static let headerTooLong = APIErrorCode(rawValue: 4_000_162)
    /// `4000163`: Body text is too long.
    public static let bodyTooLong = APIErrorCode(rawValue: 4_000_163)
    /// `4000164`: Locale is invalid.
    public static let invalidLocale = APIErrorCode(rawValue: 4_000_164)
    /// `4000175`: Alternative text for an image is too long.
    public static let altTextTooLong = APIErrorCode(rawValue: 4_000_175)
    /// `4000183`: App account token value is not a valid UUID.
    public static let invalidAppAccountTokenUUID = APIErrorCode(rawValue: 4_000_183)
    /// `4000185`: Transaction is for a product the customer obtains through Family Sharing, which the endpoint doesn’t support.
    public static let familyTransactionNotSupported = APIErrorCode(rawValue: 4_000_185)
    /// `4000187`: Endpoint expects an original transaction identifier.
    public static let transactionIdNotOriginalTransactionId = APIErrorCode(rawValue: 4_000_187)
    /// `4000211`: An error the API returns that indicates the performance test request is invalid.
    public static let invalidPerformanceTestRequest = APIErrorCode(rawValue: 4_000_211)
    /// `4000212`: Request ID is invalid.
    public static let invalidRequestId = APIErrorCode(rawValue: 4_000_212)
    /// `4000213`: Error with an existing test.
    public static let existingPerformanceTestRun = APIErrorCode(rawValue: 4_000_213)
    /// `4000215`: URL is invalid.
    public static let badRequestRealtimeUrl = APIErrorCode(rawValue: 4_000_215)
    /// `4000216`: Image size provided is invalid.
    public static let badRequestImageSize = APIErrorCode(rawValue: 4_000_216)
    /// `4000218`: There are too many bullet points.
    public static let badRequestTooManyBulletPoints = APIErrorCode(rawValue: 4_000_218)
    /// `4000219`: Text for a bullet point is too long.
    public static let badRequestBulletPointTextTooLong = APIErrorCode(rawValue: 4_000_219)
    /// `4000224`: No image object is included, but the request indicates that the header should be placed above the image.
    public static let badRequestAboveImageRequiresAnImage = APIErrorCode(rawValue: 4_000_224)
    /// `4030004`: Subscription doesn't qualify for a renewal-date extension due to its subscription state.
    public static let subscriptionExtensionIneligible = APIErrorCode(rawValue: 4_030_004)
    /// `4030005`: Subscription doesn’t qualify for a renewal-date extension because it has already received the maximum extensions.
    public static let subscriptionMaxExtension = APIErrorCode(rawValue: 4_030_005)
    /// `4030007`: Subscription isn't directly eligible for a renewal date extension because the user obtained it through Family Sharing.
    public static let familySharedSubscriptionExtensionIneligible = APIErrorCode(rawValue: 4_030_007)
    /// `4030014`: When you reach the maximum number of uploaded images.
    public static let maximumNumberOfImagesReached = APIErrorCode(rawValue: 4_030_014)
    /// `4030016`: When you reach the maximum number of uploaded messages.
    public static let maximumNumberOfMessagesReached = APIErrorCode(rawValue: 4_030_016)
    /// `4030017`: Message isn't in the approved state, so you can't configure it as a default message.
    public static let messageNotApproved = APIErrorCode(rawValue: 4_030_017)
    /// `4030018`: Image isn't in the approved state, so you can't configure it as part of a default message.
    public static let imageNotApproved = APIErrorCode(rawValue: 4_030_018)
    /// `4030019`: Image is currently in use as part of a message, so you can't delete it.
    public static let imageInUse = APIErrorCode(rawValue: 4_030_019)
    /// `4030026`: Passing a performance test is required before you can set a URL for the production environment.
    public static let forbiddenNoPassingTest = APIErrorCode(rawValue: 4_030_026)
    /// `4040001`: App Store account wasn't found.
    public static let accountNotFound = APIErrorCode(rawValue: 4_040_001)
    /// `4040002`: App Store account wasn’t found, but you can try again.
    public static let accountNotFoundRetryable = APIErrorCode(rawValue: 4_040_002)
    /// `4040003`: App wasn’t found.
    public static let appNotFound = APIErrorCode(rawValue: 4_040_003)
    /// `4040004`: App wasn’t found, but you can try again.
    public static let appNotFoundRetryable = APIErrorCode(rawValue: 4_040_004)
    /// `4040005`: Original transaction identifier wasn't found.
    public static let originalTransactionIdNotFound = APIErrorCode(rawValue: 4_040_005)
    /// `4040006`: Original transaction identifier wasn’t found, but you can try again.
    public static let originalTransactionIdNotFoundRetryable = APIErrorCode(rawValue: 4_040_006)
    /// `4040007`: App Store server couldn’t find a notifications URL for your app in this environment.
    public static let serverNotificationUrlNotFound = APIErrorCode(rawValue: 4_040_007)
    /// `4040008`: Test notification token is expired or the test notification status isn’t available.
    public static let testNotificationNotFound = APIErrorCode(rawValue: 4_040_008)
    /// `4040009`: Server didn't find a subscription-renewal-date extension request for the request identifier and product identifier you provided.
    public static let statusRequestNotFound = APIErrorCode(rawValue: 4_040_009)
    /// `4040010`: Transaction identifier wasn't found.
    public static let transactionIdNotFound = APIErrorCode(rawValue: 4_040_010)
    /// `4040014`: System can't find the image identifier.
    public static let imageNotFound = APIErrorCode(rawValue: 4_040_014)
    /// `4040015`: System can't find the message identifier.
    public static let messageNotFound = APIErrorCode(rawValue: 4_040_015)
    /// `4040018`: An error the API returns if the service can't find the specified test run.
    public static let performanceTestRunNotFound = APIErrorCode(rawValue: 4_040_018)
    /// `4040019`: App transaction doesn't exist for the specified customer.
    public static let appTransactionDoesNotExist = APIErrorCode(rawValue: 4_040_019)
    /// `4040020`: Default message isn’t configured.
    public static let defaultMessageNotFound = APIErrorCode(rawValue: 4_040_020)
    /// `4040021`: URL for your endpoint isn’t configured.
    public static let realtimeUrlNotFound = APIErrorCode(rawValue: 4_040_021)
    /// `4090000`: Image identifier already exists.
    public static let imageAlreadyExists = APIErrorCode(rawValue: 4_090_000)
    /// `4090001`: Message identifier already exists.
    public static let messageAlreadyExists = APIErrorCode(rawValue: 4_090_001)
    /// `4290000`: Request exceeded the rate limit.
    public static let rateLimitExceeded = APIErrorCode(rawValue: 4_290_000)
    /// `5000000`: General internal error.
    public static let generalInternal = APIErrorCode(rawValue: 5_000_000)
    /// `5000001`: Unknown error occurred, but you can try again.
    public static let generalInternalRetryable = APIErrorCode(rawValue: 5_000_001)

    /// Every documented code, in numeric order.
    public static let all: [APIErrorCode] = [
        .generalBadRequest, .invalidAppIdentifier, .invalidRequestRevision, .invalidTransactionId,
        .invalidOriginalTransactionId, .invalidExtendByDays, .invalidExtendReasonCode, .invalidRequestIdentifier,
        .startDateTooFarInPast, .startDateAfterEndDate, .invalidPaginationToken, .invalidStartDate, .invalidEndDate,
        .paginationTokenExpired, .invalidNotificationType, .multipleFiltersSupplied, .invalidTestNotificationToken,
        .invalidSort, .invalidProductType, .invalidProductId, .invalidSubscriptionGroupIdentifier,
        .invalidExcludeRevoked, .invalidInAppOwnershipType, .invalidEmptyStorefrontCountryCodeList,
        .invalidStorefrontCountryCode, .invalidRevoked, .invalidStatus, .invalidAccountTenure, .invalidAppAccountToken,
        .invalidConsumptionStatus, .invalidCustomerConsented, .invalidDeliveryStatus, .invalidLifetimeDollarsPurchased,
        .invalidLifetimeDollarsRefunded, .invalidPlatform, .invalidPlayTime, .invalidSampleContentProvided,
        .invalidUserStatus, .invalidTransactionNotConsumable, .invalidTransactionTypeNotSupported,
        .appTransactionIdNotSupported, .invalidImage, .headerTooLong, .bodyTooLong, .invalidLocale, .altTextTooLong,
        .invalidAppAccountTokenUUID, .familyTransactionNotSupported, .transactionIdNotOriginalTransactionId,
        .invalidPerformanceTestRequest, .invalidRequestId, .existingPerformanceTestRun, .badRequestRealtimeUrl,
        .badRequestImageSize, .badRequestTooManyBulletPoints, .badRequestBulletPointTextTooLong,
        .badRequestAboveImageRequiresAnImage, .subscriptionExtensionIneligible, .subscriptionMaxExtension,
        .familySharedSubscriptionExtensionIneligible, .maximumNumberOfImagesReached, .maximumNumberOfMessagesReached,
        .messageNotApproved, .imageNotApproved, .imageInUse, .forbiddenNoPassingTest, .accountNotFound,
        .accountNotFoundRetryable, .appNotFound, .appNotFoundRetryable, .originalTransactionIdNotFound,
        .originalTransactionIdNotFoundRetryable, .serverNotificationUrlNotFound, .testNotificationNotFound,
        .statusRequestNotFound, .transactionIdNotFound, .imageNotFound, .messageNotFound, .performanceTestRunNotFound,
        .appTransactionDoesNotExist, .defaultMessageNotFound, .realtimeUrlNotFound, .imageAlreadyExists,
        .messageAlreadyExists, .rateLimitExceeded, .generalInternal, .generalInternalRetryable,
    ]

    static let names: [Int64: String] = [
        4_000_000: "generalBadRequest",
        4_000_002: "invalidAppIdentifier",
        4_000_005: "invalidRequestRevision",
        4_000_006: "invalidTransactionId",
        4_000_008: "invalidOriginalTransactionId",
        4_000_009: "invalidExtendByDays",
        4_000_010: "invalidExtendReasonCode",
        4_000_011: "invalidRequestIdentifier",
        4_000_012: "startDateTooFarInPast",
        4_000_013: "startDateAfterEndDate",
        4_000_014: "invalidPaginationToken",
        4_000_015: "invalidStartDate",
        4_000_016: "invalidEndDate",
        4_000_017: "paginationTokenExpired",
        4_000_018: "invalidNotificationType",
        4_000_019: "multipleFiltersSupplied",
        4_000_020: "invalidTestNotificationToken",
        4_000_021: "invalidSort",
        4_000_022: "invalidProductType",
        4_000_023: "invalidProductId",
        4_000_024: "invalidSubscriptionGroupIdentifier",
        4_000_025: "invalidExcludeRevoked",
        4_000_026: "invalidInAppOwnershipType",
        4_000_027: "invalidEmptyStorefrontCountryCodeList",
        4_000_028: "invalidStorefrontCountryCode",
        4_000_030: "invalidRevoked",
        4_000_031: "invalidStatus",
        4_000_032: "invalidAccountTenure",
        4_000_033: "invalidAppAccountToken",
        4_000_034: "invalidConsumptionStatus",
        4_000_035: "invalidCustomerConsented",
        4_000_036: "invalidDeliveryStatus",
        4_000_037: "invalidLifetimeDollarsPurchased",
        4_000_038: "invalidLifetimeDollarsRefunded",
        4_000_039: "invalidPlatform",
        4_000_040: "invalidPlayTime",
        4_000_041: "invalidSampleContentProvided",
        4_000_042: "invalidUserStatus",
        4_000_043: "invalidTransactionNotConsumable",
        4_000_047: "invalidTransactionTypeNotSupported",
        4_000_048: "appTransactionIdNotSupported",
        4_000_161: "invalidImage",
        4_000_162: "headerTooLong",
        4_000_163: "bodyTooLong",
        4_000_164: "invalidLocale",
        4_000_175: "altTextTooLong",
        4_000_183: "invalidAppAccountTokenUUID",
        4_000_185: "familyTransactionNotSupported",
        4_000_187: "transactionIdNotOriginalTransactionId",
        4_000_211: "invalidPerformanceTestRequest",
        4_000_212: "invalidRequestId",
        4_000_213: "existingPerformanceTestRun",
        4_000_215: "badRequestRealtimeUrl",
        4_000_216: "badRequestImageSize",
        4_000_218: "badRequestTooManyBulletPoints",
        4_000_219: "badRequestBulletPointTextTooLong",
        4_000_224: "badRequestAboveImageRequiresAnImage",
        4_030_004: "subscriptionExtensionIneligible",
        4_030_005: "subscriptionMaxExtension",
        4_030_007: "familySharedSubscriptionExtensionIneligible",
        4_030_014: "maximumNumberOfImagesReached",
        4_030_016: "maximumNumberOfMessagesReached",
        4_030_017: "messageNotApproved",
        4_030_018: "imageNotApproved",
        4_030_019: "imageInUse",
        4_030_026: "forbiddenNoPassingTest",
        4_040_001: "accountNotFound",
        4_040_002: "accountNotFoundRetryable",
        4_040_003: "appNotFound",
        4_040_004: "appNotFoundRetryable",
        4_040_005: "originalTransactionIdNotFound",
        4_040_006: "originalTransactionIdNotFoundRetryable",
        4_040_007: "serverNotificationUrlNotFound",
        4_040_008: "testNotificationNotFound",
        4_040_009: "statusRequestNotFound",
        4_040_010: "transactionIdNotFound",
        4_040_014: "imageNotFound",
        4_040_015: "messageNotFound",
        4_040_018: "performanceTestRunNotFound",
        4_040_019: "appTransactionDoesNotExist",
        4_040_020: "defaultMessageNotFound",
        4_040_021: "realtimeUrlNotFound",
        4_090_000: "imageAlreadyExists",
        4_090_001: "messageAlreadyExists",
        4_290_000: "rateLimitExceeded",
        5_000_000: "generalInternal",
        5_000_001: "generalInternalRetryable",
    ]
}
