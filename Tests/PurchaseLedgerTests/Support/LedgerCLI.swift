import Foundation
import Testing

/// The built `jwsverify` (`.build/debug/jwsverify`, which `swift test` builds), run as a user runs it.
enum LedgerCLI {
    static let binary: URL = {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                return directory.appendingPathComponent(".build/debug/jwsverify")
            }
            directory = directory.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: ".build/debug/jwsverify")
    }()

    struct Run {
        var stdout: String
        var stderr: String
        var status: Int32
    }

    /// Runs to the end; output through temporary files, so that no pipe fills.
    static func run(_ arguments: [String]) throws -> Run {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out"), err = directory.appendingPathComponent("err")
        try Data().write(to: out)
        try Data().write(to: err)
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        process.waitUntilExit()
        return Run(
            stdout: try String(contentsOf: out, encoding: .utf8), stderr: try String(contentsOf: err, encoding: .utf8),
            status: process.terminationStatus)
    }

    /// Starts a run whose standard error the caller reads line by line (`--progress`), to act in the middle of it.
    static func start(_ arguments: [String]) throws -> (process: Process, stderr: FileHandle) {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let pipe = Pipe()
        process.standardError = pipe
        try process.run()
        // The child has its own copy: without closing this one, reading would never see the end of the output.
        try pipe.fileHandleForWriting.close()
        return (process, pipe.fileHandleForReading)
    }

    /// Reads standard error until a line starts with `prefix`; nil when found, else everything read to the end.
    static func wait(for prefix: String, in handle: FileHandle) -> String? {
        var text = ""
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { return text }
            text += String(decoding: chunk, as: UTF8.self)
            if text.split(separator: "\n").contains(where: { $0.hasPrefix(prefix) }) { return nil }
        }
    }

    /// A file of lines in a new temporary directory.
    static func file(_ lines: [String]) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ledger-input-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("lines.ndjson")
        try Data(lines.joined(separator: "\n").utf8).write(to: url)
        return url.path
    }

    /// The test root, written once, for `--root`.
    static let rootPath: String = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-root-\(UUID().uuidString).der")
        try? LedgerWorld.shared.hierarchy.root.der.write(to: url)
        return url.path
    }()

    /// The trust options of the test app, Production and Sandbox.
    static var trust: [String] {
        [
            "--root", rootPath, "--bundle-id", LedgerWorld.bundleId, "--app-apple-id", String(LedgerWorld.appAppleId),
            "--environment", "Sandbox", "--environment", "Production",
        ]
    }
}
