import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes all of `text` to a file descriptor, retrying short writes.
func write(_ text: String, to descriptor: Int32) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        if written < 0 {
            if errno == EINTR { continue }
            return
        }
        bytes = bytes.dropFirst(written)
    }
}

/// Prints a command's output and returns its status.
func emit(_ result: CommandResult) -> Int32 {
    if !result.stdout.isEmpty { write(result.stdout, to: 1) }
    if !result.stderr.isEmpty { write(result.stderr, to: 2) }
    return result.status
}

/// Tells someone who typed `jwsverify` alone at a terminal that it waits for a pasted token.
func hintWhenReadingATerminal(_ input: InputSource, quiet: Bool = false) {
    if input == .standardInput, !quiet, isatty(0) != 0, isatty(2) != 0 {
        write("Paste the token, then press Return and Ctrl-D:\n", to: 2)
    }
}

let status: Int32
switch Arguments.parse(Array(CommandLine.arguments.dropFirst())) {
case .failure(let error):
    status = emit(.usage(error))
case .success(.help(let subcommand)):
    status = emit(CommandResult(stdout: HelpText.screen(subcommand), status: ExitCode.verified))
case .success(.version):
    status = emit(CommandResult(stdout: HelpText.version + "\n", status: ExitCode.verified))
case .success(.verify(let options)):
    hintWhenReadingATerminal(options.input, quiet: options.quiet)
    status = emit(VerifyCommand.run(options))
case .success(.inspect(let options)):
    hintWhenReadingATerminal(options.input)
    status = emit(InspectCommand.run(options))
case .success(.mintPKI(let options)):
    status = emit(MintCommand.runPKI(options))
case .success(.mintToken(let options)):
    status = emit(MintCommand.runToken(options, standardOutput: { write($0, to: 1) }))
case .success(.batch(let options)):
    status = BatchCommand.run(
        options, standardOutput: { write($0, to: 1) }, standardError: { write($0, to: 2) }, showProgress: isatty(2) != 0
    )
}
if let counts = OperationCountReport.line() { write(counts, to: 2) }
exit(status)
