import Foundation
import JWSVerify

/// The subcommands of `jwsverify`. `verify` is the default when none is named.
///
/// The raw value is how the command line names it; `mint` has subcommands of its own (`mint pki`,
/// `mint token`), whose raw values hold both words.
enum Subcommand: String, CaseIterable, Sendable {
    case verify, inspect, batch, mint
    case mintPKI = "mint pki"
    case mintToken = "mint token"

    /// The subcommand named by one word after `jwsverify`; nil for anything else.
    init?(topLevel word: String) {
        guard let value = Subcommand(rawValue: word), !value.rawValue.contains(" ") else { return nil }
        self = value
    }
}

/// Where a token (or, for `batch`, the token lines) comes from.
enum InputSource: Equatable, Sendable {
    /// Standard input: no FILE argument, or `-`.
    case standardInput
    /// A file path.
    case file(String)
}

/// The `--at` option: when the certificates must be valid.
enum ValidationTimeOption: Equatable, Sendable {
    /// The payload's signed date (`--at signed`, the default).
    case signed
    /// The current time (`--at now`).
    case now
    /// A fixed instant (`--at 2023-01-05T21:22:34Z`).
    case fixed(Date)

    /// The library's equivalent.
    var validationTime: ValidationTime {
        switch self {
        case .signed: return .signedDate
        case .now: return .current
        case .fixed(let date): return .fixed(date)
        }
    }
}

/// The options shared by `verify` and `batch`, exactly as given on the command line.
struct VerifyOptions: Equatable, Sendable {
    /// The token file, or standard input.
    var input: InputSource = .standardInput
    /// `--root` files, in order; empty means the bundled Apple Root CA - G3.
    var roots: [String] = []
    /// `--bundle-id`.
    var bundleId: String?
    /// `--app-apple-id`.
    var appAppleId: Int64?
    /// `--environment`, canonical spelling; nil when not configured.
    var environment: Environment?
    /// `--xcode-certificate`.
    var xcodeCertificate: String?
    /// `--at`.
    var at: ValidationTimeOption = .signed
    /// `--online`.
    var online = false
    /// `--kind`; nil for `auto`.
    var kind: PayloadKind?
    /// `--json`.
    var json = false
    /// `-q`, `--quiet`.
    var quiet = false
}

/// The options of `inspect`.
struct InspectOptions: Equatable, Sendable {
    /// The token file, or standard input.
    var input: InputSource = .standardInput
    /// `--kind`; nil for `auto`.
    var kind: PayloadKind?
    /// `--json`.
    var json = false
}

/// What the command line asks for.
enum Command: Equatable, Sendable {
    /// `jwsverify [verify] …`
    case verify(VerifyOptions)
    /// `jwsverify inspect …`
    case inspect(InspectOptions)
    /// `jwsverify batch …`
    case batch(VerifyOptions)
    /// `jwsverify mint pki …`
    case mintPKI(MintPKIOptions)
    /// `jwsverify mint token …`
    case mintToken(MintTokenOptions)
    /// `--help`, `-h` or `help [subcommand]`: the help of a subcommand, or of the tool (nil).
    case help(Subcommand?)
    /// `--version`.
    case version
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

/// The command-line grammar of `jwsverify`, as a pure function.
enum Arguments {
    /// The values `--kind` accepts.
    static let kindValues = ["auto"] + PayloadKind.allCases.map(\.rawValue)
    /// The values `--environment` accepts, in canonical spelling.
    static let environmentValues = ["Sandbox", "Production", "Xcode", "LocalTesting"]

    /// Parses the arguments that follow the program name.
    ///
    /// Imitates `swift-argument-parser`: `--name value` and `--name=value`, `--` ends the options,
    /// `-` is standard input, a later value of a non-repeatable option replaces an earlier one, and
    /// `-h`/`--help` anywhere asks for help.
    ///
    /// - Parameter arguments: `CommandLine.arguments` without the first element.
    /// - Returns: the command, or the usage error to report (exit 64).
    static func parse(_ arguments: [String]) -> Result<Command, UsageError> {
        var rest = arguments[...]
        var subcommand = Subcommand.verify
        var named = false
        if let first = rest.first {
            if first == "help" {
                rest.removeFirst()
                guard !rest.isEmpty else { return .success(.help(nil)) }
                let topic = rest.joined(separator: " ")
                guard let topicCommand = Subcommand(rawValue: topic) else {
                    return .failure(UsageError(message: "Unknown subcommand '\(topic)'", subcommand: .verify))
                }
                return .success(.help(topicCommand))
            }
            if let value = Subcommand(topLevel: first) {
                subcommand = value
                named = true
                rest.removeFirst()
            }
        }
        if subcommand == .mint, let word = rest.first, let nested = Subcommand(rawValue: "mint \(word)") {
            subcommand = nested
            rest.removeFirst()
        }
        let beforeSeparator = rest.prefix { $0 != "--" }
        if beforeSeparator.contains(where: { $0 == "-h" || $0 == "--help" }) {
            return .success(.help(named ? subcommand : nil))
        }
        if !named, beforeSeparator.contains("--version") {
            return .success(.version)
        }
        switch subcommand {
        case .verify: return parseVerify(rest, subcommand: .verify).map(Command.verify)
        case .batch: return parseVerify(rest, subcommand: .batch).map(Command.batch)
        case .inspect: return parseInspect(rest)
        case .mint:
            // Like argument-parser, a command group run without a subcommand shows its help.
            guard let word = rest.first else { return .success(.help(.mint)) }
            let message =
                word.hasPrefix("-") && word != "-"
                ? "Unknown option '\(word)'" : "Unknown subcommand '\(word)'; expected 'pki' or 'token'"
            return .failure(UsageError(message: message, subcommand: .mint))
        case .mintPKI: return parseMintPKI(rest).map(Command.mintPKI)
        case .mintToken: return parseMintToken(rest).map(Command.mintToken)
        }
    }

    /// One token of the command line after splitting `--name=value`.
    private enum Token {
        case positional(String)
        case option(name: String, inlineValue: String?)
    }

    /// Walks the arguments, handing options to `handle` and collecting positionals.
    ///
    /// `handle` gets the option's name (without an `=value` part), a function that takes its value (the
    /// inline one, or the next argument unless that is an option), and the inline value, if any.
    static func walk(
        _ arguments: ArraySlice<String>, subcommand: Subcommand,
        handle: (_ name: String, _ value: () -> Result<String, UsageError>, _ inline: String?) -> UsageError?
    ) -> Result<[String], UsageError> {
        var positionals: [String] = []
        var index = arguments.startIndex
        var optionsEnded = false
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = argument
            var inline: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            let value: () -> Result<String, UsageError> = {
                if let inline { return .success(inline) }
                guard index < arguments.endIndex, !(arguments[index].hasPrefix("-") && arguments[index] != "-") else {
                    return .failure(
                        UsageError(message: "Missing value for '\(HelpText.valueLabel(name))'", subcommand: subcommand))
                }
                defer { index += 1 }
                return .success(arguments[index])
            }
            if let error = handle(name, value, inline) { return .failure(error) }
        }
        return .success(positionals)
    }

    private static func input(from positionals: [String], subcommand: Subcommand) -> Result<InputSource, UsageError> {
        guard positionals.count <= 1 else {
            return .failure(UsageError(message: "Unexpected argument '\(positionals[1])'", subcommand: subcommand))
        }
        guard let path = positionals.first, path != "-" else { return .success(.standardInput) }
        return .success(.file(path))
    }

    private static func parseVerify(
        _ arguments: ArraySlice<String>, subcommand: Subcommand
    ) -> Result<
        VerifyOptions, UsageError
    > {
        var options = VerifyOptions()
        var atGiven = false
        func invalid(_ value: String, _ name: String, _ hint: String = "") -> UsageError {
            UsageError(
                message: "The value '\(value)' is invalid for '\(HelpText.valueLabel(name))'\(hint)",
                subcommand: subcommand)
        }
        let walked = walk(arguments, subcommand: subcommand) { name, value, inline in
            func take(_ apply: (String) -> UsageError?) -> UsageError? {
                switch value() {
                case .success(let string): return apply(string)
                case .failure(let error): return error
                }
            }
            func flag(_ set: () -> Void) -> UsageError? {
                if inline != nil {
                    return UsageError(message: "Unexpected value for flag '\(name)'", subcommand: subcommand)
                }
                set()
                return nil
            }
            switch name {
            case "--root":
                return take {
                    options.roots.append($0)
                    return nil
                }
            case "--bundle-id":
                return take {
                    options.bundleId = $0
                    return nil
                }
            case "--app-apple-id":
                return take { string in
                    guard let number = Int64(string), number >= 0 else { return invalid(string, name) }
                    options.appAppleId = number
                    return nil
                }
            case "--environment":
                return take { string in
                    guard let canonical = environmentValues.first(where: { $0.lowercased() == string.lowercased() })
                    else {
                        return invalid(string, name, ". Please provide one of \(listed(environmentValues)).")
                    }
                    options.environment = Environment(rawValue: canonical)
                    return nil
                }
            case "--xcode-certificate":
                return take {
                    options.xcodeCertificate = $0
                    return nil
                }
            case "--at":
                return take { string in
                    guard let time = parseTime(string) else {
                        return invalid(
                            string, name,
                            ". Please provide 'signed', 'now' or an ISO 8601 date-time such as 2023-01-05T21:22:34Z.")
                    }
                    options.at = time
                    atGiven = true
                    return nil
                }
            case "--kind":
                return take { string in
                    guard kindValues.contains(string) else {
                        return invalid(string, name, ". Please provide one of \(listed(kindValues)).")
                    }
                    options.kind = PayloadKind(rawValue: string)
                    return nil
                }
            case "--online": return flag { options.online = true }
            case "--json": return flag { options.json = true }
            case "-q", "--quiet": return flag { options.quiet = true }
            case "--version":
                return UsageError(
                    message: "Unknown option '--version' (it belongs before the subcommand)", subcommand: subcommand)
            default:
                return UsageError(message: "Unknown option '\(name)'", subcommand: subcommand)
            }
        }
        let positionals: [String]
        switch walked {
        case .success(let value): positionals = value
        case .failure(let error): return .failure(error)
        }
        if options.online && atGiven {
            return .failure(
                UsageError(
                    message: "'--online' cannot be combined with '--at': online checks validate at the current time",
                    subcommand: subcommand))
        }
        if options.xcodeCertificate != nil && options.environment != .xcode {
            return .failure(
                UsageError(message: "'--xcode-certificate' requires '--environment Xcode'", subcommand: subcommand))
        }
        switch input(from: positionals, subcommand: subcommand) {
        case .success(let source): options.input = source
        case .failure(let error): return .failure(error)
        }
        return .success(options)
    }

    private static func parseInspect(_ arguments: ArraySlice<String>) -> Result<Command, UsageError> {
        var options = InspectOptions()
        let walked = walk(arguments, subcommand: .inspect) { name, value, inline in
            switch name {
            case "--json":
                guard inline == nil else {
                    return UsageError(message: "Unexpected value for flag '\(name)'", subcommand: .inspect)
                }
                options.json = true
                return nil
            case "--kind":
                switch value() {
                case .failure(let error): return error
                case .success(let string):
                    guard kindValues.contains(string) else {
                        return UsageError(
                            message:
                                "The value '\(string)' is invalid for '--kind <kind>'. Please provide one of \(listed(kindValues)).",
                            subcommand: .inspect)
                    }
                    options.kind = PayloadKind(rawValue: string)
                    return nil
                }
            default:
                return UsageError(message: "Unknown option '\(name)'", subcommand: .inspect)
            }
        }
        switch walked.flatMap({ input(from: $0, subcommand: .inspect) }) {
        case .success(let source): options.input = source
        case .failure(let error): return .failure(error)
        }
        return .success(.inspect(options))
    }

    /// `'a', 'b' and 'c'`, as argument-parser lists allowed values.
    static func listed(_ values: [String]) -> String {
        let quoted = values.map { "'\($0)'" }
        guard quoted.count > 1 else { return quoted.joined() }
        return quoted.dropLast().joined(separator: ", ") + " and " + quoted[quoted.count - 1]
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
