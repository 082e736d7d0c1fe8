import Foundation

/// A value of an Advanced Commerce in-app request that breaks one of Apple's rules.
///
/// Apple's App Store Server Library checks these rules when a request's parts are made
/// (`HelperValidationUtils`): a description of at most 45 characters, a display name of at most 30, a SKU of at
/// most 128, an offer's `periodCount` from 1 to 12, and lists of items that are not empty. The request types of
/// this library check the same rules in their initializers, when they decode, and again when they encode, so that
/// a value changed after it was made cannot be signed either. Lengths are counted in characters (`String.count`),
/// as Apple's Swift library counts them.
///
/// The shared parts that come from `JWSVerify` (its `AdvancedCommerceDescriptors` and `AdvancedCommerceOffer`)
/// have optional members because they also model what the App Store sends; in a request, every member Apple
/// requires must be present (``Code-swift.struct/missingField``).
///
/// Two errors are equal when their codes are equal. Like ``SigningError``, it is a `LocalizedError` whose
/// `errorDescription` is ``message``, so `localizedDescription` reads the rule, not a generic sentence.
public struct AdvancedCommerceValidationError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// The rule that a value broke: a stable string, never renamed.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code as text, the same in Swift, JSON and the documentation.
        public let rawValue: String

        /// Wraps a code's text.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// A string is longer than Apple allows (`description`, `displayName`, `SKU`, `currentSKU`).
        public static let stringTooLong = Code(rawValue: "stringTooLong")
        /// A number is outside the range Apple allows (an offer's `periodCount`, 1 to 12).
        public static let outOfRange = Code(rawValue: "outOfRange")
        /// A list of items that Apple requires to hold at least one item is empty.
        public static let emptyList = Code(rawValue: "emptyList")
        /// A member that Apple requires in a request is absent (a member of a shared `JWSVerify` model).
        public static let missingField = Code(rawValue: "missingField")

        /// The code's text.
        public var description: String { rawValue }
    }

    /// The rule that was broken.
    public let code: Code

    /// The JSON key of the offending member (`description`, `SKU`, `periodCount`, `items`, ...).
    public let field: String

    /// What is wrong, for a person: the field, the rule and the value's length or number.
    public let message: String

    /// Creates an error; the library makes these, tests and wrappers may too.
    public init(code: Code, field: String, message: String) {
        self.code = code
        self.field = field
        self.message = message
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }

    /// The message (Foundation's `LocalizedError`).
    public var errorDescription: String? { message }

    /// Compares the codes only, as the library's other errors do.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.code == rhs.code
    }

    /// Hashes the code only, consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
    }
}
