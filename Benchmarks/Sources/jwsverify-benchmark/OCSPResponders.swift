import Foundation
import JWSVerify
import JWSVerifyTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A test PKI whose Authority Information Access URLs name two real OCSP responders (`openssl ocsp`)
/// on 127.0.0.1: the root's, which answers for the intermediate, and the intermediate's, which
/// answers for the leaf. Each responder signs with its issuer's own certificate and key and knows
/// its one certificate as valid.
///
/// The ports are picked before the certificates are issued (their URLs are in the certificates):
/// bound to port 0 on 127.0.0.1, read and released, then handed to `openssl ocsp -port`. Should
/// another process take one in between, everything is made again with new ports.
///
/// The files live in a temporary directory; ``stop()`` kills both responders and removes it.
final class OCSPResponders {
    /// The hierarchy the responders answer for.
    let pki: TestHierarchy
    /// The root's responder (in the intermediate's AIA).
    let rootURL: String
    /// The intermediate's responder (in the leaf's AIA).
    let intermediateURL: String
    private let directory: URL
    private var processes: [Process]

    /// How often a responder that could not listen is retried with new ports.
    static let attempts = 3

    /// The `openssl` command-line tool, found on `PATH`, or nil.
    static let opensslPath: String? = {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        for directory in directories + ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"] {
            let candidate = directory + "/openssl"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }()

    private init(pki: TestHierarchy, rootURL: String, intermediateURL: String, directory: URL, processes: [Process]) {
        self.pki = pki
        self.rootURL = rootURL
        self.intermediateURL = intermediateURL
        self.directory = directory
        self.processes = processes
    }

    /// Picks two free ports, generates the PKI from `seed` with their URLs, and starts both
    /// responders; returns once both listen.
    static func start(openssl: String, seed: UInt64) throws -> OCSPResponders {
        var failures: [String] = []
        for _ in 0..<attempts {
            let ports = try freeLoopbackPorts(2)
            let rootURL = "http://127.0.0.1:\(ports[0])"
            let intermediateURL = "http://127.0.0.1:\(ports[1])"
            let pki = try TestHierarchy.generate(
                .appStoreEC, seed: seed, options: .init(rootOCSPURL: rootURL, intermediateOCSPURL: intermediateURL))
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "jwsverify-benchmark-ocsp-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
            var processes: [Process] = []
            do {
                try pki.write(to: directory)
                try writeIndex("root-index.txt", for: pki.intermediate, in: directory)
                try writeIndex("intermediate-index.txt", for: pki.leaf, in: directory)
                processes.append(
                    try startResponder(
                        openssl, name: "root-responder", port: ports[0], index: "root-index.txt",
                        issuer: (TestHierarchy.FileName.rootPEM, TestHierarchy.FileName.rootKey), in: directory))
                processes.append(
                    try startResponder(
                        openssl, name: "intermediate-responder", port: ports[1], index: "intermediate-index.txt",
                        issuer: (TestHierarchy.FileName.intermediatePEM, TestHierarchy.FileName.intermediateKey),
                        in: directory))
                return OCSPResponders(
                    pki: pki, rootURL: rootURL, intermediateURL: intermediateURL, directory: directory,
                    processes: processes)
            } catch {
                for process in processes { kill(process) }
                try? FileManager.default.removeItem(at: directory)
                failures.append("\(error)")
            }
        }
        throw BenchmarkError(
            "the OCSP responders did not start in \(attempts) attempts: " + failures.joined(separator: "; "))
    }

    /// Kills both responders, waits for them and removes the directory. Safe to call twice.
    func stop() {
        for process in processes { Self.kill(process) }
        processes = []
        try? FileManager.default.removeItem(at: directory)
    }

    deinit {
        stop()
    }

    // MARK: - Making it

    /// An `index.txt` in the format of `openssl ca` that lists `certificate` as valid.
    private static func writeIndex(_ name: String, for certificate: TestCertificate, in directory: URL) throws {
        // openssl ocsp looks serials up as BN_bn2hex prints them, as CertificateInfo does.
        guard let info = CertificateInfo(derOrPEM: certificate.der), let serial = info.serialNumber else {
            throw BenchmarkError("cannot read the serial number of \(certificate.subject.commonName)")
        }
        let line = "V\t491231235959Z\t\t\(serial)\tunknown\t/CN=\(certificate.subject.commonName)\n"
        try Data(line.utf8).write(to: directory.appendingPathComponent(name))
    }

    /// Starts `openssl ocsp` on `port`, signing with the issuer's certificate and key, and waits
    /// (at most 10 s) until it prints `ACCEPT`, which it does once it listens.
    private static func startResponder(
        _ openssl: String, name: String, port: Int, index: String, issuer: (certificate: String, key: String),
        in directory: URL
    ) throws -> Process {
        let stdoutFile = directory.appendingPathComponent("\(name).stdout")
        let logFile = directory.appendingPathComponent("\(name).log")
        guard FileManager.default.createFile(atPath: stdoutFile.path, contents: nil),
            FileManager.default.createFile(atPath: logFile.path, contents: nil)
        else { throw BenchmarkError("cannot create the output files of \(name) in \(directory.path)") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: openssl)
        process.currentDirectoryURL = directory
        process.arguments = [
            "ocsp", "-index", index, "-port", String(port), "-rsigner", issuer.certificate, "-rkey", issuer.key,
            "-CA", issuer.certificate, "-ndays", "1",
        ]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: stdoutFile)
        process.standardError = try FileHandle(forWritingTo: logFile)
        try process.run()

        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline && process.isRunning {
            let text = (try? String(contentsOf: stdoutFile, encoding: .utf8)) ?? ""
            if text.split(separator: "\n").contains(where: { $0.hasPrefix("ACCEPT") }) { return process }
            Thread.sleep(forTimeInterval: 0.01)
        }
        kill(process)
        let log = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
        throw BenchmarkError(
            "openssl ocsp (\(name)) did not listen on port \(port): "
                + log.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// SIGKILL, then wait. Not `terminate()` (SIGTERM): a child inherits the signal mask of the
    /// thread that spawned it, and Dispatch worker threads block SIGTERM.
    private static func kill(_ process: Process) {
        if process.isRunning {
            #if canImport(Glibc)
                _ = Glibc.kill(process.processIdentifier, SIGKILL)
            #elseif canImport(Darwin)
                _ = Darwin.kill(process.processIdentifier, SIGKILL)
            #endif
        }
        process.waitUntilExit()
    }

    /// `count` distinct ports that were free on 127.0.0.1 a moment ago: each bound to port 0 (the
    /// kernel picks), read back, and released once all are known.
    static func freeLoopbackPorts(_ count: Int) throws -> [Int] {
        var sockets: [Int32] = []
        defer { for socket in sockets { close(socket) } }
        var ports: [Int] = []
        for _ in 0..<count {
            #if canImport(Glibc)
                let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            #else
                let socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
            #endif
            guard socket >= 0 else { throw BenchmarkError("socket() failed: errno \(errno)") }
            sockets.append(socket)
            var address = sockaddr_in()
            #if canImport(Darwin)
                address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
            #endif
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = 0
            address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let status = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                    bind(socket, address, length) == 0 ? getsockname(socket, address, &length) : -1
                }
            }
            guard status == 0 else { throw BenchmarkError("cannot bind a port on 127.0.0.1: errno \(errno)") }
            ports.append(Int(UInt16(bigEndian: address.sin_port)))
        }
        return ports
    }
}
