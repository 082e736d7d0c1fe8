#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the command line asks for.
enum Command: Equatable, Sendable {
    /// `jwsverify [verify] …`
    case verify(VerifyOptions)
    /// `jwsverify receipt …`
    case receipt(VerifyOptions)
    /// `jwsverify inspect …`
    case inspect(InspectOptions)
    /// `jwsverify batch …`
    case batch(VerifyOptions)
    /// `jwsverify mint pki …`
    case mintPKI(MintPKIOptions)
    /// `jwsverify mint token …`
    case mintToken(MintTokenOptions)
    /// `jwsverify mint receipt …`
    case mintReceipt(MintReceiptOptions)
    /// `jwsverify sign KIND …`
    case sign(SignOptions)
    /// `jwsverify api ENDPOINT …`
    case api(ApiOptions)
    /// `jwsverify ledger import …`
    case ledgerImport(LedgerOptions)
    /// `jwsverify ledger entitlements …`
    case ledgerEntitlements(LedgerOptions)
    /// `jwsverify ledger rebuild …`
    case ledgerRebuild(LedgerOptions)
    /// `jwsverify ledger reconcile …`
    case ledgerReconcile(LedgerOptions)
    /// `--help`, `-h` or `help [subcommand]`: the help of a subcommand, or of the tool (nil).
    case help(Subcommand?)
    /// `--version`.
    case version
}

/// What `main` lends a running command: the output streams and whether they are terminals.
struct CommandIO {
    /// Writes to standard output.
    var standardOutput: (String) -> Void
    /// Writes bytes to standard output (`batch`'s result lines, UTF-8 already).
    var standardOutputBytes: ([UInt8]) -> Void
    /// Writes to standard error.
    var standardError: (String) -> Void
    /// Whether standard input is a terminal.
    var standardInputIsTerminal: Bool
    /// Whether standard error is a terminal.
    var standardErrorIsTerminal: Bool
    /// Whether standard output is a terminal: `mint receipt --format der` refuses to write binary there. Read
    /// from file descriptor 1 unless given.
    var standardOutputIsTerminal = isatty(1) != 0

    /// Prints a command's output and returns its status.
    func emit(_ result: CommandResult) -> Int32 {
        if !result.stdout.isEmpty { standardOutput(result.stdout) }
        if !result.stderr.isEmpty { standardError(result.stderr) }
        return result.status
    }

    /// The same streams with standard output dropped when `quiet` (`-q`): statuses and errors only.
    func quieted(_ quiet: Bool) -> CommandIO {
        guard quiet else { return self }
        var io = self
        io.standardOutput = { _ in }
        io.standardOutputBytes = { _ in }
        return io
    }

    /// Tells someone who typed `jwsverify` alone at a terminal that it waits for a pasted token.
    func hintWhenReadingATerminal(_ input: InputSource, quiet: Bool = false) {
        if input == .standardInput, !quiet, standardInputIsTerminal, standardErrorIsTerminal {
            standardError("Paste the token, then press Return and Ctrl-D:\n")
        }
    }
}

/// What a help screen shows besides the options: its texts, argument and exit codes.
struct HelpContent: Sendable {
    /// The `OVERVIEW:` sentence.
    var overview: String
    /// The paragraph after it.
    var discussion: String
    /// The positional argument, if the subcommand takes one.
    var argument: ArgumentDeclaration?
    /// The `EXIT CODES:` rows, code and meaning; empty for a group, which runs nothing itself.
    var exitCodes: [(code: Int32, meaning: String)]
}

/// One subcommand: its name, options, help, parse entry and run entry.
///
/// Each command file builds its own (`VerifyCommand.definition`); ``CommandRegistry/commands`` lists them,
/// and the top-level parser, `help` and `main` find them there.
struct CommandDefinition: Sendable {
    /// Its name.
    let subcommand: Subcommand
    /// Its row in the parent's `SUBCOMMANDS:` section.
    let summary: String
    /// Its help screen's texts.
    let help: HelpContent
    /// Its options, as help and the synopsis show them.
    let options: [OptionSummary]
    /// Parses the arguments after its words.
    let parse: @Sendable (ArraySlice<String>) -> Result<Command, UsageError>
    /// Runs the command if it is this subcommand's, returning the exit status; nil for another's.
    let execute: @Sendable (Command, CommandIO) -> Int32?

    /// Defines a subcommand from its option declarations.
    ///
    /// - Parameters:
    ///   - subcommand: Its name.
    ///   - summary: Its row in the parent's `SUBCOMMANDS:` section.
    ///   - help: Its help screen's texts.
    ///   - options: Its option declarations, in help order.
    ///   - parse: Parses the arguments after its words.
    ///   - execute: Runs its command, nil for another subcommand's.
    init<Options>(
        _ subcommand: Subcommand, summary: String, help: HelpContent, options: [OptionDeclaration<Options>],
        parse: @escaping @Sendable (ArraySlice<String>) -> Result<Command, UsageError>,
        execute: @escaping @Sendable (Command, CommandIO) -> Int32?
    ) {
        self.subcommand = subcommand
        self.summary = summary
        self.help = help
        self.options = options.map(\.summary)
        self.parse = parse
        self.execute = execute
    }
}

/// Every subcommand of `jwsverify`: adding one is its file and one line here.
enum CommandRegistry {
    /// The subcommands, in help order; the first is the default when none is named.
    static let commands: [CommandDefinition] = [
        VerifyCommand.definition,
        ReceiptCommand.definition,
        InspectCommand.definition,
        BatchCommand.definition,
        SignCommand.definition,
        ApiCommand.definition,
        LedgerCommand.definition,
        LedgerCommand.importDefinition,
        LedgerCommand.entitlementsDefinition,
        LedgerCommand.rebuildDefinition,
        LedgerCommand.reconcileDefinition,
        MintCommand.definition,
        MintPKICommand.definition,
        MintTokenCommand.definition,
        MintReceiptCommand.definition,
    ]

    /// The subcommand run when none is named (`verify`).
    static var defaultCommand: CommandDefinition { commands[0] }

    /// The subcommand with these words, such as `mint pki`.
    static func definition(path: String) -> CommandDefinition? {
        commands.first { $0.subcommand.path == path }
    }

    /// The definition of a subcommand.
    static func definition(for subcommand: Subcommand) -> CommandDefinition {
        // Every Subcommand value is declared by a command file whose definition is listed above.
        guard let definition = definition(path: subcommand.path) else {
            preconditionFailure("\(subcommand) is not in CommandRegistry.commands")
        }
        return definition
    }

    /// The subcommands one word below `parent` (below the tool when nil), in help order.
    static func children(of parent: Subcommand?) -> [CommandDefinition] {
        commands.filter { definition in
            var words = definition.subcommand.path.split(separator: " ")
            words.removeLast()
            return words.joined(separator: " ") == (parent?.path ?? "")
        }
    }

    /// The word that names a subcommand below its parent: `pki` for `mint pki`.
    static func lastWord(_ subcommand: Subcommand) -> String {
        subcommand.path.split(separator: " ").last.map(String.init) ?? subcommand.path
    }

    /// Runs a parsed command with the definition it belongs to.
    static func execute(_ command: Command, io: CommandIO) -> Int32 {
        for definition in commands {
            if let status = definition.execute(command, io) { return status }
        }
        // Help and version are answered by main; every other command is some definition's.
        preconditionFailure("no subcommand runs \(command)")
    }
}
