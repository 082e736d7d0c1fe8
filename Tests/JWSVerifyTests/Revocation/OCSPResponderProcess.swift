import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A real OCSP responder: `openssl ocsp -index … -port 0 -rsigner … -rkey … -CA …`, reached at
/// `http://127.0.0.1:PORT`. Port 0 lets the kernel pick a free port; the responder prints it
/// (`ACCEPT [::]:PORT PID=…`). Terminated by ``stop()`` or when released.
final class OCSPResponderProcess: @unchecked Sendable {
    let port: Int
    var url: String { "http://127.0.0.1:\(port)" }
    private let process: Process
    /// The responder's standard error (its log), for failure messages.
    let logFile: URL

    /// Starts a responder and waits until it listens.
    /// - Parameters:
    ///   - index: The `index.txt` (CA database) naming each serial's status.
    ///   - ca: The issuer whose certificates it answers for.
    ///   - signer, signerKey: The certificate and key that sign its answers.
    ///   - extraArguments: Such as `-ndays 1`, `-nmin 1` or `-rcid sha256`.
    init(
        index: URL, ca: URL, signer: URL, signerKey: URL, extraArguments: [String], in directory: URL, name: String
    ) throws {
        guard let path = OCSPOpenSSLTool.path else {
            throw OCSPOpenSSLTool.Failure(description: "openssl is not on PATH")
        }
        let stdoutFile = directory.appendingPathComponent("\(name).stdout")
        logFile = directory.appendingPathComponent("\(name).log")
        guard FileManager.default.createFile(atPath: stdoutFile.path, contents: nil),
            FileManager.default.createFile(atPath: logFile.path, contents: nil)
        else { throw OCSPOpenSSLTool.Failure(description: "cannot create the responder's output files") }
        process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.currentDirectoryURL = directory
        process.arguments =
            [
                "ocsp", "-index", index.path, "-port", "0", "-rsigner", signer.path, "-rkey", signerKey.path,
                "-CA", ca.path, "-nrequest", "1000",
            ] + extraArguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: stdoutFile)
        process.standardError = try FileHandle(forWritingTo: logFile)
        try process.run()

        // Wait for "ACCEPT [::]:PORT PID=…" (printed once it listens), at most 10 s.
        let deadline = Date().addingTimeInterval(10)
        var found: Int?
        while found == nil && Date() < deadline && process.isRunning {
            let text = (try? String(contentsOf: stdoutFile, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("ACCEPT") }),
                let address = line.split(separator: " ").dropFirst().first,
                let portText = address.split(separator: ":").last, let port = Int(portText)
            {
                found = port
            } else {
                Thread.sleep(forTimeInterval: 0.01)
            }
        }
        guard let found else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            let log = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
            throw OCSPOpenSSLTool.Failure(description: "openssl ocsp did not start listening: \(log)")
        }
        port = found
    }

    /// Kills the responder and waits for it; afterwards nothing listens on ``port``.
    ///
    /// SIGKILL, not `terminate()` (SIGTERM): a child inherits the signal mask of the thread that
    /// spawned it, and Dispatch worker threads block SIGTERM, so it would stay pending forever.
    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
    }

    /// What the responder logged so far.
    var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    deinit {
        stop()
    }
}
