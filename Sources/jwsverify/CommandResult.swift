import Foundation
import JWSVerify

/// What a command asks `main` to print and the status to exit with (an `Error` so that it can end a
/// command early as the failure of a `Result`).
struct CommandResult: Error, Equatable, Sendable {
    /// Text for standard output.
    var stdout = ""
    /// Text for standard error.
    var stderr = ""
    /// The exit status (see ``ExitCode``).
    var status: Int32

    /// A usage error: its three lines on standard error, exit 64.
    static func usage(_ error: UsageError) -> CommandResult {
        CommandResult(stderr: error.text, status: ExitCode.usage)
    }

    /// Input that could not be read: `Error: <message>` on standard error (escaped: it may quote a path or a
    /// file's bytes), exit 66.
    static func inputFailure(_ failure: InputFailure) -> CommandResult {
        CommandResult(stderr: "Error: \(EscapedText.escaped(failure.message))\n", status: ExitCode.noInput)
    }
}

/// The single input of `verify`, `receipt` and `inspect`, read whole from a file or standard input, and what it holds
/// in the shapes the library's ``InputShape`` decides: a token (bare, a JSON string, a `token` or `signedPayload`
/// object) or an app receipt (its file's bytes, base64 of them, a JSON string of that, a `receipt-data` object).
struct WholeInput {
    /// The most bytes of input read into memory; reading stops at the first byte past it.
    static let limit = 16 * 1024 * 1024

    /// What an input holds: the token or receipt, or why it holds none in an accepted shape.
    enum Shaped<Value> {
        /// The token's text or the receipt's bytes.
        case value(Value)
        /// Why there is none (over ``limit``, not UTF-8, no accepted shape), reported as `malformedToken` or
        /// `malformedReceipt`.
        case unreadable(String)
    }

    /// The bytes kept.
    var bytes: [UInt8]
    /// Whether the input holds more than ``limit`` bytes (the rest is not read).
    var overflowed: Bool

    /// Reads the input, up to ``limit`` bytes.
    ///
    /// - Parameters:
    ///   - source: The input.
    ///   - what: What the input should hold, for the message on an empty one: `token`, `receipt`.
    /// - Returns: the input; an ``InputFailure`` (exit 66) when it cannot be opened or read or holds nothing but
    ///   whitespace (`no token on standard input`).
    static func read(_ source: InputSource, what: String) -> Result<WholeInput, InputFailure> {
        ByteSource.open(source).flatMap { input in
            input.readAll(upTo: limit).flatMap { bytes, overflowed in
                guard overflowed || !bytes.trimmingASCIIWhitespace().isEmpty else {
                    return .failure(
                        InputFailure(message: "no \(what) \(source == .standardInput ? "on" : "in") \(input.name)"))
                }
                return .success(WholeInput(bytes: bytes, overflowed: overflowed))
            }
        }
    }

    /// Why an input over ``limit`` holds no `what`, whose largest size is `maximum`.
    private func overflow(_ what: String, maximum: Int) -> String? {
        guard overflowed else { return nil }
        return "the input is over the \(Self.limit)-byte read limit; a \(what) is at most \(maximum) bytes"
    }

    /// The token the input holds.
    var token: Shaped<String> {
        if let message = overflow("token", maximum: CompactJWS.defaultMaximumBytes) { return .unreadable(message) }
        switch InputShape.read(bytes, what: "the input") {
        case .success(let shaped): return .value(shaped.token?.string ?? "")
        case .failure(let failure): return .unreadable(failure.message)
        }
    }

    /// The receipt the input holds, as the verifier takes it: raw bytes or base64 text.
    var receipt: Shaped<[UInt8]> {
        if let message = overflow("receipt", maximum: AppReceiptVerifier.defaultMaximumReceiptBytes) {
            return .unreadable(message)
        }
        switch InputShape.receipt(bytes) {
        case .success(let receipt): return .value(receipt)
        case .failure(let failure): return .unreadable(failure.message)
        }
    }

    /// The receipt of an input that holds one, for `inspect` and `verify`'s hint; nil for any other input (a token).
    ///
    /// An input is a receipt when it is a `receipt-data` object, or when what it holds, raw or in a JSON string,
    /// starts like a receipt (``ReceiptInputDescription/startsLikeReceipt(_:)``).
    var recognizedReceipt: [UInt8]? {
        guard !overflowed, case .success(let receipt) = InputShape.receipt(bytes) else { return nil }
        if bytes.trimmingASCIIWhitespace().first == UInt8(ascii: "{") { return receipt }
        return ReceiptInputDescription.startsLikeReceipt(receipt) ? receipt : nil
    }
}
