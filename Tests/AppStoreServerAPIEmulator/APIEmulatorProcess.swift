import Foundation
import JWSVerify

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The App Store Server API emulator (`Tests/app-store-api-emulator.py`) running on loopback, reached at
/// ``baseURL``. It checks every request as Apple's API would (endpoint, query, headers, body, bearer token
/// signature and claims) and serves the configured ``Route``s; ``log()`` returns what it saw.
///
/// Stopped by ``stop()`` or when released. Run by hand, it also ends when its standard input closes.
public final class APIEmulatorProcess: @unchecked Sendable {
    // @unchecked: `process` and `input` are set once in init; `stop()` only reads them and Process is
    // thread-safe for `isRunning`, `waitUntilExit` and `processIdentifier`.

    /// One answer of a route: a status, headers and a body.
    public struct Response: Encodable, Sendable {
        /// The HTTP status.
        public var status: Int
        /// Extra headers (`Retry-After`, `Content-Type`...).
        public var headers: [String: String]?
        /// A JSON body (sent with `Content-Type: application/json` unless ``headers`` says otherwise).
        public var json: JSONValue?
        /// A raw text body.
        public var text: String?
        /// Sends only the first `truncate` bytes of the body.
        public var truncate: Int?
        /// The `Content-Length` to declare, when it is not the length sent (a connection that ends early).
        public var declaredLength: Int?
        /// Seconds to wait before answering.
        public var delay: Double?
        /// Instead of a body, bytes without end (a hostile server): see ``Endless``.
        public var endless: Endless?

        /// A body without end: `chunk` bytes every `interval` seconds, chunked unless `declaredLength` is given, until
        /// the client goes away or `seconds` passed.
        public struct Endless: Encodable, Sendable {
            /// Bytes per write.
            public var chunk: Int
            /// Seconds between writes (0: as fast as the connection takes them).
            public var interval: Double
            /// The `Content-Length` to declare instead of chunked transfer encoding.
            public var declaredLength: Int?
            /// `gzip`: a gzip stream of 1 MiB of zeros per write (a compression bomb), `Content-Encoding: gzip`.
            public var encoding: String?
            /// The most seconds the server writes.
            public var seconds: Double

            /// A body without end.
            public init(
                chunk: Int = 65_536, interval: Double = 0, declaredLength: Int? = nil, encoding: String? = nil,
                seconds: Double = 120
            ) {
                self.chunk = chunk
                self.interval = interval
                self.declaredLength = declaredLength
                self.encoding = encoding
                self.seconds = seconds
            }
        }

        /// An answer; with no body it is empty.
        public init(
            status: Int = 200, headers: [String: String]? = nil, json: JSONValue? = nil, text: String? = nil,
            truncate: Int? = nil, declaredLength: Int? = nil, delay: Double? = nil, endless: Endless? = nil
        ) {
            self.status = status
            self.headers = headers
            self.json = json
            self.text = text
            self.truncate = truncate
            self.declaredLength = declaredLength
            self.delay = delay
            self.endless = endless
        }

        /// Apple's error body `{"errorCode": …, "errorMessage": …}` with `status`.
        public static func appleError(
            status: Int, code: Int, message: String, headers: [String: String]? = nil
        ) -> Response {
            Response(
                status: status, headers: headers,
                json: .object(["errorCode": .integer(Int64(code)), "errorMessage": .string(message)]))
        }
    }

    /// A request the emulator answers: method, path, optionally the exact query, and its answers in order
    /// (the last one repeats).
    public struct Route: Encodable, Sendable {
        /// `GET`, `POST`, `PUT` or `DELETE`.
        public var method: String
        /// The path, such as `/inApps/v1/transactions/1000`.
        public var path: String
        /// The exact query (each name with its values in order); nil matches any query.
        public var query: [String: [String]]?
        /// The answers in order; the last one repeats.
        public var responses: [Response]

        /// A route.
        public init(_ method: String, _ path: String, query: [String: [String]]? = nil, _ responses: [Response]) {
            self.method = method
            self.path = path
            self.query = query
            self.responses = responses
        }
    }

    /// A request the emulator received, and what it found wrong with it.
    public struct LoggedRequest: Decodable, Sendable {
        /// The method.
        public var method: String
        /// The path without the query.
        public var path: String
        /// The query parameters.
        public var query: [String: [String]]
        /// The headers as received.
        public var headers: [String: String]
        /// The body, as UTF-8 text.
        public var body: String
        /// The checks Apple's API would have failed; empty for a good request.
        public var violations: [Violation]
    }

    /// One failed check: the status and Apple error code the emulator answered, and why.
    public struct Violation: Decodable, Sendable, CustomStringConvertible {
        /// 401, 400, 404 or 405.
        public var status: Int
        /// Apple's error code; nil for 401 and unknown paths.
        public var errorCode: Int?
        /// What was wrong.
        public var message: String

        /// `401: The bearer token expired`.
        public var description: String { "\(status)\(errorCode.map { "/\($0)" } ?? ""): \(message)" }
    }

    private struct Configuration: Encodable {
        var issuerId: String
        var keyId: String
        var bundleId: String
        var publicKey: String
        var routes: [Route]
    }

    /// The emulator's port on 127.0.0.1.
    public let port: Int
    /// `http://127.0.0.1:PORT`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/") }
    private let process: Process
    private let input: Pipe
    /// The emulator's standard error (one line per request), for failure messages.
    public let logFile: URL

    /// The emulator script, found from this file's path.
    public static let script: URL = packageRoot.appendingPathComponent("Tests/app-store-api-emulator.py")

    /// The package root: the first folder above this file that holds Package.swift.
    public static let packageRoot: URL = {
        var directory = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                return directory
            }
            directory = directory.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }()

    /// Writes the configuration, starts the emulator and waits (at most 120 s) until it listens.
    ///
    /// Async so that the wait sleeps with `Task.sleep`: a thread of the cooperative pool blocked in a poll would
    /// starve the timers and URLSession callbacks of the tests running beside it. At most two emulators start at
    /// once (``StartGate``): dozens of Python interpreters starting together on a loaded machine take longer
    /// than any deadline.
    /// - Parameters:
    ///   - credentials: The API key whose public half verifies the bearer tokens, and the ids they carry.
    ///   - routes: What it answers.
    /// - Throws: ``APIEmulatorError`` when python3 is missing or the emulator does not start.
    public init(credentials: APICredentials, routes: [Route]) async throws {
        let directory = credentials.directory
        let name = "emulator-\(UUID().uuidString)"
        let configFile = directory.appendingPathComponent("\(name).json")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(
            Configuration(
                issuerId: credentials.issuerId, keyId: credentials.keyId, bundleId: credentials.bundleId,
                publicKey: credentials.publicKeyFile.path, routes: routes)
        ).write(to: configFile)
        let stdoutFile = directory.appendingPathComponent("\(name).stdout")
        logFile = directory.appendingPathComponent("\(name).log")
        guard FileManager.default.createFile(atPath: stdoutFile.path, contents: nil),
            FileManager.default.createFile(atPath: logFile.path, contents: nil)
        else { throw APIEmulatorError(description: "cannot create the emulator's output files") }
        guard let python = Self.python3 else { throw APIEmulatorError(description: "python3 is not on PATH") }
        process = Process()
        input = Pipe()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [Self.script.path, "--config", configFile.path]
        process.standardInput = input
        process.standardOutput = try FileHandle(forWritingTo: stdoutFile)
        process.standardError = try FileHandle(forWritingTo: logFile)
        await StartGate.shared.enter()
        do {
            try process.run()
        } catch {
            await StartGate.shared.leave()
            throw error
        }

        // Wait for "PORT n", printed once it listens.
        let deadline = Date().addingTimeInterval(120)
        var found: Int?
        // The file is read once more after the deadline: on a saturated pool the sleeping task may resume only
        // after the deadline, long after the emulator printed its port.
        while true {
            let text = (try? String(contentsOf: stdoutFile, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("PORT ") }),
                let port = Int(line.dropFirst(5))
            {
                found = port
                break
            }
            guard Date() < deadline, process.isRunning else { break }
            try? await Task.sleep(for: .milliseconds(10))
        }
        await StartGate.shared.leave()
        guard let found else {
            try? input.fileHandleForWriting.close()
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            let log = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
            throw APIEmulatorError(description: "the emulator did not start listening: \(log)")
        }
        port = found
    }

    private static let python3: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/python3" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }()

    /// Every request the emulator saw, in order, with its violations.
    public func log() async throws -> [LoggedRequest] {
        struct Log: Decodable { var requests: [LoggedRequest] }
        let (data, _) = try await URLSession.shared.data(from: baseURL.appendingPathComponent("__emulator/log"))
        return try JSONDecoder().decode(Log.self, from: data).requests
    }

    /// The violations of every request so far, each as `METHOD path: violation`; empty when every request
    /// would have passed Apple's checks.
    public func violations() async throws -> [String] {
        try await log().flatMap { request in request.violations.map { "\(request.method) \(request.path): \($0)" } }
    }

    /// Ends the emulator and waits for it; afterwards nothing listens on ``port``.
    ///
    /// SIGKILL at once (its log has been read by then; a SIGTERM could stay pending, since Dispatch worker threads
    /// block it and a child inherits the mask), so that no thread of the cooperative pool waits long.
    public func stop() {
        guard process.isRunning else { return }
        try? input.fileHandleForWriting.close()
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// What the emulator logged on standard error so far.
    public var stderrLog: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    deinit {
        stop()
    }
}

/// The emulator could not be started or read.
public struct APIEmulatorError: Error, CustomStringConvertible {
    /// What went wrong.
    public var description: String
}

/// Lets at most two emulators start at the same time; the others wait their turn without blocking a thread.
actor StartGate {
    static let shared = StartGate()
    private var starting = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Waits until fewer than two emulators are starting.
    func enter() async {
        if starting < 2 {
            starting += 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Lets the next waiting emulator start.
    func leave() {
        if waiting.isEmpty {
            starting -= 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
