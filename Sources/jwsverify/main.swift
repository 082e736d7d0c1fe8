import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes all of `text` to a file descriptor, retrying short writes (from the string's own storage:
/// `batch` writes megabytes at a time).
func write(_ text: String, to descriptor: Int32) {
    var text = text
    text.withUTF8 { write($0, to: descriptor) }
}

/// Writes all of `bytes` to a file descriptor, retrying short writes.
func write(_ bytes: UnsafeBufferPointer<UInt8>, to descriptor: Int32) {
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

let io = CommandIO(
    standardOutput: { write($0, to: 1) }, standardError: { write($0, to: 2) },
    standardOutputBytes: { bytes in bytes.withUnsafeBufferPointer { write($0, to: 1) } },
    standardInputIsTerminal: isatty(0) != 0, standardOutputIsTerminal: isatty(1) != 0,
    standardErrorIsTerminal: isatty(2) != 0)
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
if let counts = OperationCountReport.line() { write(counts, to: 2) }
exit(status)
