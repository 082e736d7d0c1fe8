import Foundation

/// The top level of the `jwsverify` command line, as a pure function: which subcommand, help or
/// version; the subcommand's own ``CommandDefinition/parse`` reads the rest.
enum Arguments {
    /// The word that asks for the help of a subcommand: `jwsverify help mint pki`.
    static let helpCommandWord = "help"

    /// Parses the arguments that follow the program name.
    ///
    /// Imitates `swift-argument-parser`: the subcommand's words come first (none means the default,
    /// `verify`), `-h`/`--help` anywhere before `--` asks for help, `--version` before any subcommand
    /// word asks for the version, and the grammar of ``CommandLineGrammar`` reads the options.
    ///
    /// - Parameter arguments: `CommandLine.arguments` without the first element.
    /// - Returns: the command, or the usage error to report (exit 64).
    static func parse(_ arguments: [String]) -> Result<Command, UsageError> {
        var rest = arguments[...]
        if rest.first == helpCommandWord {
            rest.removeFirst()
            guard !rest.isEmpty else { return .success(.help(nil)) }
            let topic = rest.joined(separator: " ")
            guard let definition = CommandRegistry.definition(path: topic) else {
                return .failure(
                    UsageError(
                        message: "Unknown subcommand '\(topic)'", subcommand: CommandRegistry.defaultCommand.subcommand)
                )
            }
            return .success(.help(definition.subcommand))
        }
        var definition = CommandRegistry.defaultCommand
        var named = false
        var parent: Subcommand?
        while let word = rest.first,
            let child = CommandRegistry.children(of: parent).first(where: {
                CommandRegistry.lastWord($0.subcommand) == word
            })
        {
            definition = child
            named = true
            parent = child.subcommand
            rest.removeFirst()
        }
        let beforeSeparator = rest.prefix { $0 != CommandLineGrammar.endOfOptions }
        if beforeSeparator.contains(where: CommandLineGrammar.helpNames.contains) {
            return .success(.help(named ? definition.subcommand : nil))
        }
        if !named, beforeSeparator.contains(CommandLineGrammar.versionName) {
            return .success(.version)
        }
        return definition.parse(rest)
    }

    /// Parses `signed`, `now`, or an ISO 8601 date-time (`2023-01-05T21:22:34Z`, with optional fractional
    /// seconds or a numeric offset) or date (`2023-01-05`, midnight UTC).
    static func parseTime(_ string: String) -> ValidationTimeOption? {
        switch string {
        case "signed": return .signed
        case "now": return .now
        default:
            let formatter = ISO8601DateFormatter()
            for options: ISO8601DateFormatter.Options in [
                [.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds], [.withFullDate],
            ] {
                formatter.formatOptions = options
                if let date = formatter.date(from: string) { return .fixed(date) }
            }
            return nil
        }
    }
}
