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

    /// Input that could not be read: `Error: <message>` on standard error, exit 66.
    static func inputFailure(_ failure: InputFailure) -> CommandResult {
        CommandResult(stderr: "Error: \(failure.message)\n", status: ExitCode.noInput)
    }
}

/// The single token of `verify` and `inspect`, read from a file or standard input.
enum TokenInput {
    /// The most bytes of input read into memory; the rest of a larger input is read and discarded.
    static let inputLimit = 16 * 1024 * 1024

    /// What was read.
    enum Content: Equatable {
        /// The token, in any shape ``InputShape`` accepts (a bare token, a JSON string, a `token` or
        /// `signedPayload` object).
        case token(String)
        /// Why the input holds no token: over ``inputLimit`` (no token can be that long), not UTF-8, or
        /// in no shape ``InputShape`` accepts. Reported as `malformedToken`.
        case unreadable(String)
    }

    /// Reads the input and finds its token with ``InputShape``, as `batch` does for each line.
    ///
    /// - Returns: the token, or why there is none; an ``InputFailure`` (exit 66) when the input cannot be
    ///   opened or read or holds nothing but whitespace.
    static func read(_ source: InputSource) -> Result<Content, InputFailure> {
        let input: ByteSource
        switch ByteSource.open(source) {
        case .success(let value): input = value
        case .failure(let failure): return .failure(failure)
        }
        switch input.readAll(keepingAtMost: inputLimit) {
        case .failure(let failure):
            return .failure(failure)
        case .success(let (bytes, total)):
            if total > inputLimit {
                return .success(
                    .unreadable(
                        "the input is \(total) bytes, over the \(inputLimit)-byte read limit; a token is at most"
                            + " \(CompactJWS.defaultMaximumBytes) bytes"))
            }
            guard !bytes.trimmingASCIIWhitespace().isEmpty else {
                return .failure(
                    InputFailure(message: "no token \(source == .standardInput ? "on" : "in") \(input.name)"))
            }
            switch InputShape.read(bytes, what: "the input") {
            case .success(let shaped): return .success(.token(shaped.token))
            case .failure(let failure): return .success(.unreadable(failure.message))
            }
        }
    }

    /// Reads a certificate file given with `--root` or `--xcode-certificate` (at most 1 MiB is kept).
    ///
    /// - Returns: the bytes; an ``InputFailure`` (exit 66) naming the option and the file, such as
    ///   `--root /x: cannot open: No such file or directory` or `--root /x: empty file, not a certificate`.
    static func readCertificate(_ path: String, option: String) -> Result<Data, InputFailure> {
        switch ByteSource.open(path: path, option: option) {
        case .failure(let failure): return .failure(failure)
        case .success(let input):
            return input.readAll(keepingAtMost: 1024 * 1024).flatMap { bytes, _ in
                bytes.isEmpty
                    ? .failure(InputFailure(message: "\(input.name): empty file, not a certificate"))
                    : .success(Data(bytes))
            }
        }
    }
}
