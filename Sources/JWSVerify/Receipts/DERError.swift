/// Why ``DERReader`` refused its input: what was wrong, in plain words, and at which byte.
///
/// `offset` counts from the start of the byte array the reader was made over (for receipt content, the first byte
/// of the content), so that a message points at the same byte whichever nested element was being read.
package struct DERError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong, such as `indefinite length (BER), which DER forbids`.
    package let reason: String
    /// The offset of the offending byte in the reader's array.
    package let offset: Int

    /// Creates an error; `reason` is a phrase without a location.
    package init(_ reason: String, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    /// `reason at byte offset`.
    package var message: String { "\(reason) at byte \(offset)" }

    /// The ``message``.
    package var description: String { message }
}
