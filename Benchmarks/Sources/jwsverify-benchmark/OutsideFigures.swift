import Foundation

/// What the `openssl` command line and the repository's test vectors give the benchmark's one-thread modes
/// (`--receipts`, `--realtime`).
enum OutsideFigures {
    /// The columns of the last line of `openssl speed -seconds N ALGORITHM`'s standard output that `isResult`
    /// picks, split at spaces; nil when `openssl` is missing or prints no such line.
    static func opensslSpeedColumns(
        seconds: Int, algorithm: String, isResult: (Substring) -> Bool
    ) -> [Substring]? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl", "speed", "-seconds", String(seconds), algorithm]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return output.split(separator: "\n").last(where: isResult)?.split(separator: " ")
    }

    /// `TestVectors/RELATIVE` in the nearest folder above this source file that has it.
    static func testVector(_ relative: String) -> URL {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("TestVectors").appendingPathComponent(relative)
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: "TestVectors").appendingPathComponent(relative)
    }
}
