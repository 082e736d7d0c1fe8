/// Why the content of an app receipt could not be decoded, in plain words: what was wrong, in which attribute
/// (and in-app purchase), at which byte of the content.
///
/// The verifier reports it as `malformedReceipt` with this ``message``. Text quoted from the receipt is escaped
/// (``EscapedText``) and cut to 40 characters.
package struct ReceiptContentError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The message, such as `receipt content: attribute 12 (receipt creation date): not an RFC 3339 date:
    /// "yesterday" at byte 305`.
    package let message: String

    /// Creates an error with its message.
    package init(_ message: String) {
        self.message = message
    }

    /// The ``message``.
    package var description: String { message }
}
