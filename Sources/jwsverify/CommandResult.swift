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

    /// Input that could not be read: `Error: <message>` (escaped: it may quote a file) on standard error, exit 66.
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

    /// Why an input holds no token or receipt (over ``limit``, not UTF-8, no shape): `malformedToken` or `…Receipt`.
    struct Unreadable: Error { var message: String }

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
    var token: Result<String, Unreadable> {
        if let message = overflow("token", maximum: CompactJWS.defaultMaximumBytes) {
            return .failure(.init(message: message))
        }
        return InputShape.read(bytes, what: "the input").map { $0.token?.string ?? "" }.mapError {
            .init(message: $0.message)
        }
    }

    /// The receipt the input holds, as the verifier takes it: raw bytes or base64 text.
    var receipt: Result<[UInt8], Unreadable> {
        if let message = overflow("receipt", maximum: AppReceiptVerifier.defaultMaximumReceiptBytes) {
            return .failure(.init(message: message))
        }
        return InputShape.receipt(bytes).mapError { .init(message: $0.message) }
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
