import Foundation

/// The `openssl` command-line tool, which the revocation tests use to make a test PKI and to run
/// real OCSP responders (`openssl ocsp`).
enum OCSPOpenSSLTool {
    /// The tool's path, found on `PATH`, or nil.
    static let path: String? = {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for directory in directories + ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"] {
            let candidate = "\(directory)/openssl"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }()

    /// Whether the tests can run; when not, says why once on standard output.
    static let isAvailable: Bool = {
        if path == nil {
            print(
                "Revocation tests skipped: the openssl command-line tool is not on PATH (Debian: apt-get install openssl)"
            )
        }
        return path != nil
    }()

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `openssl arguments…` in `directory` and returns its standard output.
    /// - Throws: ``Failure`` with the tool's standard error when it exits with a non-zero status.
    @discardableResult
    static func run(_ arguments: [String], in directory: URL) throws -> Data {
        guard let path else { throw Failure(description: "openssl is not on PATH") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "openssl \(arguments.joined(separator: " ")) failed: \(errorText)")
        }
        return data
    }
}
