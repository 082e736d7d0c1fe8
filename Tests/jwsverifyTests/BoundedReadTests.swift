import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Issue #39: every whole-file read of the CLI stops at its limit plus one byte, and a FIFO that never writes ends
/// with an error; each run through the built binary with a time bound.
@Suite("bounded file reads")
struct BoundedReadTests {
    static let key = SignCommandTests.key
    static let offerV2 = [
        "sign", "offer-v2", "--key-id", "KEY1", "--bundle-id", "com.example", "--issuer-id", "i", "--product-id", "p",
        "--offer-id", "o",
    ]

    /// Input: `/dev/zero` (never ends) as the key of `sign` and `api`, the request of `sign advanced-commerce`, a
    /// `--root` and the token of `verify`. Expected: within 20 seconds (before: a hang), the command's refusal with
    /// the limit: exit 66 for an option's file, exit 1 with `malformedToken`'s message for the token.
    @Test(
        "/dev/zero as a key, a request, a root or a token ends promptly with the limit",
        arguments: [
            (offerV2 + ["--key", "/dev/zero"], 66, "Error: --key /dev/zero: over 65536 bytes"),
            (
                [
                    "api", "transaction", "1", "--key", "/dev/zero", "--key-id", "K", "--issuer-id", "i",
                    "--bundle-id", "com.example", "--environment", "Sandbox",
                ], 66, "Error: --key /dev/zero: over 65536 bytes"
            ),
            (
                [
                    "sign", "advanced-commerce", "--key", key, "--key-id", "KEY1", "--bundle-id", "com.example",
                    "--issuer-id", "i", "--request", "/dev/zero",
                ], 66, "Error: --request /dev/zero: over 1048576 bytes"
            ),
            (
                ["verify", "--root", "/dev/zero", CLI.mock("transactionInfo")], 66,
                "Error: --root /dev/zero: over 1048576 bytes"
            ),
            (["verify"] + CLI.mockConfiguration + ["/dev/zero"], 1, "over the 16777216-byte read limit"),
        ])
    func devZero(arguments: [String], status: Int32, message: String) throws {
        let run = try CLI.run(arguments, timeout: 20)
        #expect(!run.timedOut, "\(arguments) still running after 20 s")
        #expect(run.status == status, "\(arguments): \(run.stderr)")
        #expect((run.stderr + run.stdout).contains(message), "\(arguments): \(run.stderr)")
    }

    /// A FIFO in a fresh directory, removed by `body`'s end.
    private func withFIFO<T>(_ body: (String) throws -> T) throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("jwsverify-fifo-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("key").path
        try #require(mkfifo(path, 0o600) == 0, "mkfifo: \(errno)")
        return try body(path)
    }

    /// Input: `--key` a FIFO that no process writes, and one that this test holds open for writing and never writes.
    /// Expected: exit 66 within 30 seconds, "no end within 10 seconds" (before: a hang in `open(2)` or
    /// `read(2)`).
    @Test("a FIFO that never writes ends with an error after the named-file timeout", arguments: [false, true])
    func silentFIFO(holdsWriter: Bool) throws {
        try withFIFO { path in
            var writer: Int32 = -1
            if holdsWriter {
                // O_RDWR opens without waiting for a reader, and keeps a writer on the FIFO.
                writer = open(path, O_RDWR)
                try #require(writer >= 0)
            }
            defer { if writer >= 0 { close(writer) } }
            let run = try CLI.run(Self.offerV2 + ["--key", path], timeout: 30)
            #expect(!run.timedOut, "still running after 30 s")
            #expect(run.status == 66, "\(run.stderr)")
            #expect(run.stderr.contains("cannot read: no end within 10 seconds"), "\(run.stderr)")
        }
    }

    /// Input: `--key` a FIFO that a writer opens after the command started, writes the key to and closes (as a shell's
    /// process substitution does). Expected: exit 0, a signature: waiting for the writer is not taken for an empty
    /// file.
    @Test("a FIFO written after the command started still serves as the key")
    func writtenFIFO() throws {
        let key = try Data(contentsOf: URL(fileURLWithPath: Self.key))
        try withFIFO { path in
            let writer = Thread {
                // A write after the command gave up (a loaded machine) must fail with EPIPE, not send this test
                // process SIGPIPE, whose default action ends it silently: block the signal in this thread.
                var pipeSignal = sigset_t()
                sigemptyset(&pipeSignal)
                sigaddset(&pipeSignal, SIGPIPE)
                pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
                // Opening for writing without blocking fails (ENXIO) until the command opened the FIFO to read.
                let deadline = Date().addingTimeInterval(20)
                var descriptor: Int32 = -1
                while descriptor < 0 && Date() < deadline {
                    descriptor = open(path, O_WRONLY | O_NONBLOCK)
                    if descriptor < 0 { usleep(100_000) }
                }
                guard descriptor >= 0 else { return }
                usleep(100_000)
                key.withUnsafeBytes { _ = write(descriptor, $0.baseAddress, $0.count) }
                close(descriptor)
            }
            writer.start()
            let run = try CLI.run(Self.offerV2 + ["--key", path], timeout: 30)
            #expect(!run.timedOut && run.status == 0, "\(run.stderr)")
            #expect(run.stdout.split(separator: ".").count == 3, "\(run.stdout)")
        }
    }
}
