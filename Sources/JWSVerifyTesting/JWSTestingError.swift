import Foundation

/// An error from JWSVerifyTesting while making keys, certificates, tokens or test vectors.
public enum JWSTestingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An OpenSSL operation failed; `message` carries OpenSSL's first queued error.
    case openSSL(operation: String, message: String)
    /// An argument was not acceptable (for example a malformed `key=value` override).
    case invalidArgument(String)
    /// A file could not be read or written.
    case file(path: String, message: String)
    /// A loaded private key does not belong to the certificate next to it.
    case keyMismatch(String)

    /// A one-line description for logs and test failures.
    public var description: String {
        switch self {
        case .openSSL(let operation, let message): return "OpenSSL: \(operation) failed: \(message)"
        case .invalidArgument(let message): return "invalid argument: \(message)"
        case .file(let path, let message): return "\(path): \(message)"
        case .keyMismatch(let message): return "key mismatch: \(message)"
        }
    }
}

extension JWSTestingError: LocalizedError {
    /// ``description``: what `error.localizedDescription` returns.
    public var errorDescription: String? { description }
}
