import Foundation
import JWSVerify

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes all of `bytes` to a file descriptor, retrying short writes (from the caller's own storage:
/// `batch` writes megabytes at a time).
func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) {
    guard let base = bytes.baseAddress else { return }
    var offset = 0
    while offset < bytes.count {
        let written = write(descriptor, base + offset, bytes.count - offset)
        if written < 0 {
            if errno == EINTR { continue }
            return
        }
        offset += written
    }
}

/// Writes all of `text` to a file descriptor.
func write(_ text: String, to descriptor: Int32) {
    var text = text
    text.withUTF8 { write(UnsafeRawBufferPointer($0), to: descriptor) }
}

/// Writes all of `bytes` to a file descriptor.
func write(_ bytes: [UInt8], to descriptor: Int32) {
    bytes.withUnsafeBytes { write($0, to: descriptor) }
}

let io = CommandIO(
    standardOutput: { write($0, to: 1) }, standardOutputBytes: { write($0, to: 1) },
    standardError: { write($0, to: 2) },
    standardInputIsTerminal: isatty(0) != 0, standardErrorIsTerminal: isatty(2) != 0)
let status: Int32
switch Arguments.parse(Array(CommandLine.arguments.dropFirst())) {
case .failure(let error):
    status = io.emit(.usage(error))
case .success(.help(let subcommand)):
    status = io.emit(CommandResult(stdout: HelpText.screen(subcommand), status: ExitCode.verified))
case .success(.version):
    status = io.emit(CommandResult(stdout: HelpText.version + "\n", status: ExitCode.verified))
case .success(let command):
    status = CommandRegistry.execute(command, io: io)
}
// For tests and benchmarks of the real binary: the library's operation counts, one line on standard error.
if ProcessInfo.processInfo.environment["JWSVERIFY_OPERATION_COUNTS"] == "1" {
    write("jwsverify-operations " + JSONWriter.write(OperationCounters.jsonValue, pretty: false) + "\n", to: 2)
}
exit(status)
