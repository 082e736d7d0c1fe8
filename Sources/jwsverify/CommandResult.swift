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
        readWhole(source, what: "token").map(shape)
    }

    /// The whole input, at most ``inputLimit`` bytes of it, that is more than whitespace.
    struct Whole {
        /// The bytes kept.
        var bytes: [UInt8]
        /// The size of the whole input.
        var total: Int
        /// Whether the input was over ``inputLimit`` (only its start was kept).
        var overflowed: Bool { total > inputLimit }
    }

    /// Reads the whole input of `verify`, `inspect` or `receipt`, keeping at most ``inputLimit`` bytes.
    ///
    /// - Parameters:
    ///   - source: The input.
    ///   - what: What the input should hold, for the message on an empty one: `token`, `receipt`.
    /// - Returns: the input; an ``InputFailure`` (exit 66) when it cannot be opened or read or holds nothing but
    ///   whitespace (`no token on standard input`).
    static func readWhole(_ source: InputSource, what: String) -> Result<Whole, InputFailure> {
        let input: ByteSource
        switch ByteSource.open(source) {
        case .success(let value): input = value
        case .failure(let failure): return .failure(failure)
        }
        return input.readAll(keepingAtMost: inputLimit).flatMap { bytes, total in
            guard total > inputLimit || !bytes.trimmingASCIIWhitespace().isEmpty else {
                return .failure(
                    InputFailure(message: "no \(what) \(source == .standardInput ? "on" : "in") \(input.name)"))
            }
            return .success(Whole(bytes: bytes, total: total))
        }
    }

    /// The token of a whole input, in any shape ``InputShape`` accepts.
    static func shape(_ whole: Whole) -> Content {
        if whole.overflowed {
            return .unreadable(
                "the input is \(whole.total) bytes, over the \(inputLimit)-byte read limit; a token is at most"
                    + " \(CompactJWS.defaultMaximumBytes) bytes")
        }
        switch InputShape.read(whole.bytes, what: "the input") {
        case .success(let shaped): return .token(shaped.token?.string ?? "")
        case .failure(let failure): return .unreadable(failure.message)
        }
    }

    /// Reads the `--root` and `--xcode-certificate` files (``readCertificate(_:option:)``).
    ///
    /// - Parameters:
    ///   - roots: The `--root` paths, in order.
    ///   - xcodeCertificate: The `--xcode-certificate` path, if one was given.
    /// - Returns: the files' contents, or the ``InputFailure`` (exit 66) of the first that cannot be read.
    static func readCertificateFiles(
        roots: [String], xcodeCertificate: String?
    ) -> Result<(roots: [VerificationRunner.RootFile], xcodeCertificate: Data?), InputFailure> {
        var files: [VerificationRunner.RootFile] = []
        for path in roots {
            switch readCertificate(path, option: VerifyCommand.trust.root.name) {
            case .failure(let failure): return .failure(failure)
            case .success(let data): files.append(.init(path: path, contents: data))
            }
        }
        guard let path = xcodeCertificate else { return .success((files, nil)) }
        return readCertificate(path, option: VerifyCommand.trust.xcodeCertificate.name).map { (files, $0) }
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
