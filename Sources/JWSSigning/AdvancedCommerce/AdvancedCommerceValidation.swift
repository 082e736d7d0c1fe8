import JWSVerify

/// Apple's rules for the values of Advanced Commerce in-app requests (`HelperValidationUtils` in Apple's
/// libraries), in one place: each request type calls these from its initializers, its decoder and its encoder.
enum AdvancedCommerceValidation {
    /// The longest `description`, in characters.
    static let maximumDescriptionLength = 45
    /// The longest `displayName`, in characters.
    static let maximumDisplayNameLength = 30
    /// The longest `SKU` (and `currentSKU`), in characters.
    static let maximumSkuLength = 128
    /// The range of an offer's `periodCount`.
    static let periodCountRange: ClosedRange<Int32> = 1...12

    /// Throws ``AdvancedCommerceValidationError/Code-swift.struct/stringTooLong`` when `description` is too long.
    static func checkDescription(_ description: String?) throws(AdvancedCommerceValidationError) {
        try checkLength(description, maximum: maximumDescriptionLength, field: "description")
    }

    /// Throws ``AdvancedCommerceValidationError/Code-swift.struct/stringTooLong`` when `displayName` is too long.
    static func checkDisplayName(_ displayName: String?) throws(AdvancedCommerceValidationError) {
        try checkLength(displayName, maximum: maximumDisplayNameLength, field: "displayName")
    }

    /// Throws ``AdvancedCommerceValidationError/Code-swift.struct/stringTooLong`` when a SKU is too long.
    static func checkSku(_ sku: String?, field: String = "SKU") throws(AdvancedCommerceValidationError) {
        try checkLength(sku, maximum: maximumSkuLength, field: field)
    }

    /// Checks the description, display name and SKU of an item, the three strings every item with a price has.
    static func checkItem(sku: String, description: String, displayName: String) throws(AdvancedCommerceValidationError)
    {
        try checkSku(sku)
        try checkDescription(description)
        try checkDisplayName(displayName)
    }

    /// Throws ``AdvancedCommerceValidationError/Code-swift.struct/emptyList`` when a list Apple requires to hold
    /// items is empty; `nil` (an optional list left out) passes.
    static func checkNotEmpty<Item>(_ items: [Item]?, field: String) throws(AdvancedCommerceValidationError) {
        guard let items, items.isEmpty else { return }
        throw AdvancedCommerceValidationError(
            code: .emptyList, field: field, message: "\(field) must hold at least one item")
    }

    /// The descriptors of a subscription created in the app: both strings present, within their lengths.
    static func check(_ descriptors: AdvancedCommerceDescriptors) throws(AdvancedCommerceValidationError) {
        try checkDescription(try required(descriptors.description, "description"))
        try checkDisplayName(try required(descriptors.displayName, "displayName"))
    }

    /// An offer on an item: its four members present, `periodCount` from 1 to 12.
    static func check(_ offer: AdvancedCommerceOffer?) throws(AdvancedCommerceValidationError) {
        guard let offer else { return }
        _ = try required(offer.period, "period")
        _ = try required(offer.price, "price")
        _ = try required(offer.reason, "reason")
        let count = try required(offer.periodCount, "periodCount")
        guard periodCountRange.contains(count) else {
            throw AdvancedCommerceValidationError(
                code: .outOfRange, field: "periodCount",
                message: "periodCount is \(count); it must be from \(periodCountRange.lowerBound) to "
                    + "\(periodCountRange.upperBound)")
        }
    }

    /// The value of a member Apple requires, or ``AdvancedCommerceValidationError/Code-swift.struct/missingField``.
    static func required<Value>(_ value: Value?, _ field: String) throws(AdvancedCommerceValidationError) -> Value {
        guard let value else {
            throw AdvancedCommerceValidationError(
                code: .missingField, field: field, message: "\(field) is required in an Advanced Commerce request")
        }
        return value
    }

    private static func checkLength(
        _ value: String?, maximum: Int, field: String
    ) throws(AdvancedCommerceValidationError) {
        guard let value else { return }
        let count = value.count
        guard count <= maximum else {
            throw AdvancedCommerceValidationError(
                code: .stringTooLong, field: field,
                message: "\(field) is \(count) characters long; it may be at most \(maximum)")
        }
    }
}

/// The `version` member of every Advanced Commerce in-app request.
let advancedCommerceRequestVersion = "1"
