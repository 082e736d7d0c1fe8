import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs the built `jwsverify` binary and finds the test vectors.
enum CLI {
    /// The package root: the first folder above this file (symlinks resolved) that holds Package.swift.
    static let packageRoot: URL = {
        var directory = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                return directory
            }
            directory = directory.deletingLastPathComponent()
        }
        fatalError("no Package.swift above \(#filePath)")
    }()

    /// A file under `TestVectors/`.
    static func vector(_ relativePath: String) -> String {
        packageRoot.appendingPathComponent("TestVectors").appendingPathComponent(relativePath).path
    }

    /// The contents of a file under `TestVectors/`, whitespace trimmed.
    static func token(_ relativePath: String) throws -> String {
        try String(contentsOfFile: vector(relativePath), encoding: .utf8).trimmingCharacters(
            in: .whitespacesAndNewlines)
    }

    /// Apple's test root, which signs the mock tokens.
    static let testRoot = vector("apple-library/certs/testCA.der")
    /// Apple's mock tokens.
    static func mock(_ name: String) -> String { vector("apple-library/mock_signed_data/\(name)") }
    /// The arguments that verify Apple's mock transaction.
    static let mockConfiguration = ["--root", testRoot, "--bundle-id", "com.example", "--environment", "Sandbox"]

    /// The built binary. The tests run inside the test bundle (`<build>/debug/<Package>PackageTests.xctest`
    /// on Linux, `…/<Package>PackageTests.xctest/Contents/MacOS/…` on macOS), and SwiftPM puts
    /// executables in the same products folder, so the binary is looked for next to the test bundle and
    /// the running executable, walking up a few levels; this works for `.build` and for `--scratch-path`.
    /// `JWSVERIFY_BINARY` overrides the search.
    static let binary: URL = {
        if let override = ProcessInfo.processInfo.environment["JWSVERIFY_BINARY"] {
            return URL(fileURLWithPath: override)
        }
        var starts: [URL] = []
        starts += Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }.map(\.bundleURL)
        starts.append(Bundle.main.bundleURL)
        if let executable = Bundle.main.executableURL { starts.append(executable.deletingLastPathComponent()) }
        starts.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        for start in starts {
            var directory = start.resolvingSymlinksInPath()
            for _ in 0..<5 {
                let candidate = directory.appendingPathComponent("jwsverify")
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory),
                    !isDirectory.boolValue,
                    FileManager.default.isExecutableFile(atPath: candidate.path)
                {
                    return candidate
                }
                directory = directory.deletingLastPathComponent()
            }
        }
        return packageRoot.appendingPathComponent(".build/debug/jwsverify")
    }()

    /// What one run printed and returned.
    struct Run {
        /// Standard output, as bytes.
        var stdoutData: Data
        /// Standard output, decoded as UTF-8.
        var stdout: String { String(decoding: stdoutData, as: UTF8.self) }
        /// Standard error.
        var stderr: String
        /// The exit status.
        var status: Int32
        /// Whether the run was still going at its time bound and was ended with `SIGKILL`.
        var timedOut = false

        /// Standard output parsed as one JSON object.
        func json() throws -> [String: Any] {
            let object = try JSONSerialization.jsonObject(with: stdoutData)
            return try #require(object as? [String: Any], "stdout is not a JSON object: \(stdout.prefix(500))")
        }
    }

    /// Runs the binary with `arguments`, feeding `stdin` (empty when nil), with `environment` added to
    /// this process's. Output goes through temporary files, so that large outputs cannot fill a pipe and block.
    /// With `onOneProcessor`, the binary runs under `taskset -c N`, N the first processor this process may run on,
    /// allowed that one alone (as `batch`'s one-processor path needs). With `timeout` (seconds), a run still going
    /// then is killed and comes back with ``Run/timedOut`` set.
    static func run(
        _ arguments: [String], stdin: Data = Data(), environment: [String: String] = [:], onOneProcessor: Bool = false,
        timeout: Double? = nil
    ) throws -> Run {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "jwsverify-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let inputURL = directory.appendingPathComponent("stdin")
        let outputURL = directory.appendingPathComponent("stdout")
        let errorURL = directory.appendingPathComponent("stderr")
        try stdin.write(to: inputURL)
        try Data().write(to: outputURL)
        try Data().write(to: errorURL)
        let input = try FileHandle(forReadingFrom: inputURL)
        let output = try FileHandle(forWritingTo: outputURL)
        let error = try FileHandle(forWritingTo: errorURL)
        defer {
            try? input.close()
            try? output.close()
            try? error.close()
        }
        let process = Process()
        if onOneProcessor {
            let taskset = "/usr/bin/taskset"
            try #require(FileManager.default.isExecutableFile(atPath: taskset), "\(taskset) is missing (util-linux)")
            process.executableURL = URL(fileURLWithPath: taskset)
            process.arguments = ["-c", try firstAllowedProcessor(), binary.path] + arguments
        } else {
            process.executableURL = binary
            process.arguments = arguments
        }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        var timedOut = false
        if let timeout {
            if exited.wait(timeout: .now() + timeout) == .timedOut {
                timedOut = true
                kill(process.processIdentifier, SIGKILL)
                exited.wait()
            }
        } else {
            exited.wait()
        }
        process.waitUntilExit()
        return Run(
            stdoutData: try Data(contentsOf: outputURL),
            stderr: String(decoding: try Data(contentsOf: errorURL), as: UTF8.self),
            status: process.terminationStatus, timedOut: timedOut)
    }

    /// What a measured run printed and returned, and its peak memory.
    struct MeasuredRun {
        /// The run: output, status, whether it was killed at its time bound.
        var run: Run
        /// The peak resident set size of the binary, in KiB (`ru_maxrss` of `wait4(2)`).
        var peakKiB: Int
        /// Seconds from start to exit.
        var seconds: Double
    }

    /// Runs the binary with `arguments` and no standard input, spawned and reaped here (`posix_spawn`, `wait4`)
    /// so that its own peak memory is known; a run still going after `timeout` seconds is killed (`SIGKILL`).
    static func runMeasured(_ arguments: [String], timeout: Double) throws -> MeasuredRun {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "jwsverify-measured-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outputPath = directory.appendingPathComponent("stdout").path
        let errorPath = directory.appendingPathComponent("stderr").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([binary.path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let start = Date()
        let spawned = posix_spawn(&pid, binary.path, &actions, nil, argv, environ)
        try #require(spawned == 0, "posix_spawn: \(spawned)")
        var status: Int32 = 0
        var usage = rusage()
        var timedOut = false
        while true {
            let reaped = wait4(pid, &status, WNOHANG, &usage)
            if reaped == pid { break }
            try #require(reaped == 0 || errno == EINTR, "wait4: \(errno)")
            if Date().timeIntervalSince(start) > timeout && !timedOut {
                timedOut = true
                kill(pid, SIGKILL)
            }
            usleep(20_000)
        }
        let seconds = Date().timeIntervalSince(start)
        // The exit status (WEXITSTATUS), or 128 + the signal that ended it.
        let exit = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let run = Run(
            stdoutData: try Data(contentsOf: URL(fileURLWithPath: outputPath)),
            stderr: String(decoding: try Data(contentsOf: URL(fileURLWithPath: errorPath)), as: UTF8.self),
            status: exit, timedOut: timedOut)
        return MeasuredRun(run: run, peakKiB: usage.ru_maxrss, seconds: seconds)
    }

    /// The first processor in this process's `Cpus_allowed_list` (`/proc/self/status`), such as `2` of `2-3,6`.
    static func firstAllowedProcessor() throws -> String {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") })
        let list = line.dropFirst("Cpus_allowed_list:".count).drop { $0 == " " || $0 == "\t" }
        let first = list.prefix { $0.isNumber }
        try #require(!first.isEmpty, "no processor in '\(line)'")
        return String(first)
    }

    /// Runs with text on standard input.
    static func run(_ arguments: [String], stdin text: String, environment: [String: String] = [:]) throws -> Run {
        try run(arguments, stdin: Data(text.utf8), environment: environment)
    }
}

extension Dictionary where Key == String, Value == Any {
    /// A string member, or nil.
    func string(_ key: String) -> String? { self[key] as? String }
}

/// The top-level keys of pretty-printed JSON in the order they appear.
func topLevelKeys(ofPrettyJSON text: String) -> [String] {
    text.split(separator: "\n").compactMap { line -> String? in
        guard line.hasPrefix("  \""), !line.hasPrefix("   ") else { return nil }
        let rest = line.dropFirst(3)
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }
}
