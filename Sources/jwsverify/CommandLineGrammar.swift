/// A subcommand of `jwsverify`, named by its words after the program name (`inspect`, `mint pki`).
///
/// Each command file declares its own value (`extension Subcommand { static let inspect = … }`);
/// ``CommandRegistry`` lists them.
struct Subcommand: Hashable, Sendable, CustomStringConvertible {
    /// The words that name it on the command line, space-separated: `mint token`.
    let path: String

    /// Every subcommand, in the order of ``CommandRegistry/commands``.
    static var allCases: [Subcommand] { CommandRegistry.commands.map(\.subcommand) }

    /// The path, as `String(describing:)` shows it.
    var description: String { path }
}

/// Where a token (or, for `batch`, the token lines) comes from.
enum InputSource: Equatable, Sendable {
    /// Standard input: no FILE argument, or `-`.
    case standardInput
    /// A file path.
    case file(String)
}

/// A command line that cannot be run, reported as `swift-argument-parser` does: `Error:`, `Usage:`, a hint.
struct UsageError: Error, Equatable, Sendable {
    /// What is wrong, one sentence.
    var message: String
    /// The subcommand whose synopsis to print.
    var subcommand: Subcommand

    /// The three lines written to standard error.
    var text: String {
        "Error: \(message)\nUsage: \(HelpText.synopsis(subcommand))\n  See '\(HelpText.helpCommand(subcommand))' for more information.\n"
    }
}

/// The positional argument of a subcommand (`[<file>]`), declared once for its help row and synopsis.
struct ArgumentDeclaration: Equatable, Sendable {
    /// The placeholder, `<file>`.
    var label: String
    /// The help text.
    var help: String

    /// The optional token or token-lines file of `verify`, `inspect` and `batch`; `-` is standard input.
    static func file(help: String) -> ArgumentDeclaration {
        ArgumentDeclaration(label: "<file>", help: help)
    }
}

/// The options of one command line after the option walk: the options struct as the declarations set
/// it, the positional arguments, and which options were given.
struct ParsedOptions<Options> {
    /// The options, defaults overwritten by what was given.
    var options: Options
    /// The arguments that are not options, in order (after `--`, everything).
    var positionals: [String]
    /// The long names of the options given at least once.
    var given: Set<String>
    /// The subcommand whose usage errors these are.
    var subcommand: Subcommand

    /// Whether `declaration` was given.
    func gave(_ declaration: OptionDeclaration<Options>) -> Bool {
        given.contains(declaration.name)
    }

    /// The one optional file argument: none or `-` is standard input.
    ///
    /// - Returns: the input, or `Unexpected argument` for a second positional.
    func input() -> Result<InputSource, UsageError> {
        guard positionals.count <= 1 else {
            return .failure(UsageError(message: "Unexpected argument '\(positionals[1])'", subcommand: subcommand))
        }
        guard let path = positionals.first, path != CommandLineGrammar.standardInputName else {
            return .success(.standardInput)
        }
        return .success(.file(path))
    }

    /// Checks a subcommand that takes no positional argument, then that every required option was given.
    ///
    /// - Parameter declarations: The subcommand's options; those marked required must have been given.
    /// - Returns: the options, `Unexpected argument` for a positional, or `Missing expected argument`
    ///   naming the first required option (in declaration order) that is missing.
    func optionsWithoutArguments(requiring declarations: [OptionDeclaration<Options>]) -> Result<Options, UsageError> {
        if let first = positionals.first {
            return .failure(UsageError(message: "Unexpected argument '\(first)'", subcommand: subcommand))
        }
        if let missing = declarations.first(where: { $0.isRequired && !gave($0) }) {
            return .failure(
                UsageError(message: "Missing expected argument '\(missing.spelling)'", subcommand: subcommand))
        }
        return .success(options)
    }
}

/// The command-line grammar every subcommand shares, imitating `swift-argument-parser`.
///
/// `--name value` and `--name=value`; a flag refuses `=value`; `--` ends the options; `-` is a
/// positional (standard input); a value may not start with `-` unless it is `-` (write `--name=-x`);
/// a later value of a non-repeatable option replaces an earlier one; `-h`/`--help` anywhere before `--`
/// asks for help (``Arguments/parse(_:)`` looks for them before any subcommand parses).
enum CommandLineGrammar {
    /// The names that ask for help, anywhere before `--`.
    static let helpNames = ["-h", "--help"]
    /// The name that asks for the version, before any subcommand.
    static let versionName = "--version"
    /// The argument after which everything is positional.
    static let endOfOptions = "--"
    /// The positional that means standard input.
    static let standardInputName = "-"
    /// The help row of ``helpNames``.
    static let helpRow = (label: helpNames.joined(separator: ", "), help: "Show help information.")
    /// The help row of ``versionName``, on the tool's own screen.
    static let versionRow = (label: versionName, help: "Show the version.")

    /// Walks the arguments of one subcommand, applying each option through its declaration.
    ///
    /// - Parameters:
    ///   - arguments: The arguments after the subcommand's words.
    ///   - declarations: The subcommand's options.
    ///   - options: The options struct with its defaults.
    ///   - subcommand: The subcommand, for usage errors.
    /// - Returns: the options, positionals and given names; or the first usage error: an unknown option,
    ///   a flag with a value, a missing value, or a value the declaration refuses.
    static func parseOptions<Options>(
        _ arguments: ArraySlice<String>, declarations: [OptionDeclaration<Options>], into options: Options,
        subcommand: Subcommand
    ) -> Result<ParsedOptions<Options>, UsageError> {
        var parsed = ParsedOptions(options: options, positionals: [], given: [], subcommand: subcommand)
        var index = arguments.startIndex
        var optionsEnded = false
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == standardInputName || !argument.hasPrefix("-") {
                parsed.positionals.append(argument)
                continue
            }
            if argument == endOfOptions {
                optionsEnded = true
                continue
            }
            let (name, inline) = split(argument)
            guard let declaration = declarations.first(where: { $0.isNamed(name) }) else {
                return .failure(unknownOption(name, subcommand: subcommand))
            }
            let value: String
            if let label = declaration.valueLabel {
                if let inline {
                    value = inline
                } else if index < arguments.endIndex, !isOptionLike(arguments[index]) {
                    value = arguments[index]
                    index += 1
                } else {
                    return .failure(UsageError(message: "Missing value for '\(name) \(label)'", subcommand: subcommand))
                }
            } else {
                guard inline == nil else {
                    return .failure(UsageError(message: "Unexpected value for flag '\(name)'", subcommand: subcommand))
                }
                value = ""
            }
            do {
                try declaration.apply(&parsed.options, value)
            } catch {
                let hint =
                    error.hint.isEmpty && !declaration.allowedValues.isEmpty
                    ? ". Please provide one of \(listed(declaration.allowedValues))." : error.hint
                let label = declaration.valueLabel.map { "\(name) \($0)" } ?? name
                return .failure(
                    UsageError(message: "The value '\(value)' is invalid for '\(label)'\(hint)", subcommand: subcommand)
                )
            }
            parsed.given.insert(declaration.name)
        }
        return .success(parsed)
    }

    /// An option argument as its name and inline value: `--name=value` splits at the first `=`; a short
    /// option (`-q`) never has an inline value.
    static func split(_ argument: String) -> (name: String, inline: String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    /// Whether an argument is an option rather than a value: it starts with `-` and is not `-` itself nor a
    /// negative number (`--app-apple-id -5` reaches the option, which says which numbers it takes).
    static func isOptionLike(_ argument: String) -> Bool {
        argument.hasPrefix("-") && argument != standardInputName
            && !("0"..."9").contains(argument.dropFirst().first ?? "-")
    }

    /// The error for an option the subcommand does not declare: `--version` is told where it belongs, and a name
    /// close to a declared one gets `Did you mean` (``suggestion(for:among:)``).
    static func unknownOption(_ name: String, subcommand: Subcommand) -> UsageError {
        if name == versionName {
            return UsageError(
                message: "Unknown option '\(name)' (it belongs before the subcommand)", subcommand: subcommand)
        }
        let names = CommandRegistry.definition(path: subcommand.path)?.options.map(\.name) ?? []
        let advice = suggestion(for: name, among: names).map { ". Did you mean '\($0)'?" } ?? ""
        return UsageError(message: "Unknown option '\(name)'\(advice)", subcommand: subcommand)
    }

    /// The declared name that a mistyped one most likely means, compared by letters and digits only, in lower case:
    /// the same letters (`--bundleid`, `--Bundle_ID`), else the only name they begin (`--env`, `--bundle`), else the
    /// only nearest name within one edit per four letters (`--enviroment`, `--qiuet`; a swap of neighbours is one
    /// edit); nil when nothing is that close or two names are as close.
    static func suggestion(for name: String, among names: [String]) -> String? {
        func letters(_ string: String) -> [Character] {
            Array(string.lowercased().filter { $0.isLetter || $0.isNumber })
        }
        let typed = letters(name)
        guard typed.count >= 2 else { return nil }
        let candidates = names.map { (name: $0, letters: letters($0)) }
        if let same = candidates.first(where: { $0.letters == typed }) { return same.name }
        let extended = candidates.filter { $0.letters.starts(with: typed) }
        if extended.count == 1 { return extended[0].name }
        let distances = candidates.map { (name: $0.name, edits: editDistance($0.letters, typed)) }
        guard let nearest = distances.min(by: { $0.edits < $1.edits }), nearest.edits <= max(1, typed.count / 4),
            distances.filter({ $0.edits == nearest.edits }).count == 1
        else { return nil }
        return nearest.name
    }

    /// Insertions, deletions, substitutions and swaps of neighbours that turn `a` into `b` (optimal string alignment).
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var d = (0...a.count).map { i in (0...b.count).map { j in i == 0 ? j : (j == 0 ? i : 0) } }
        for i in 1...a.count {
            for j in 1...b.count {
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }

    /// `'a', 'b' and 'c'`, as argument-parser lists allowed values.
    static func listed(_ values: [String]) -> String {
        let quoted = values.map { "'\($0)'" }
        guard quoted.count > 1 else { return quoted.joined() }
        return quoted.dropLast().joined(separator: ", ") + " and " + quoted[quoted.count - 1]
    }
}
