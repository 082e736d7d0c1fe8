import Foundation
import Testing

@testable import jwsverify

/// The option declarations of every subcommand, checked against the help, synopsis, parser and errors
/// derived from them.
@Suite("Option declarations")
struct OptionDeclarationTests {
    /// Every subcommand's definition with the words that name it.
    private static let commands = CommandRegistry.commands.map {
        (definition: $0, words: $0.subcommand.path.split(separator: " ").map(String.init))
    }

    /// Arguments that satisfy a subcommand's required options, given before the option under test.
    private static func required(_ definition: CommandDefinition) -> [String] {
        switch definition.subcommand {
        case .mintPKI: return ["--out", "d"]
        case .mintToken: return ["--pki", "d", "--kind", "notification"]
        case .mintReceipt: return ["--pki", "d"]
        default: return []
        }
    }

    /// Each declared option has a help row (its label, then its help) on its subcommand's screen, and
    /// its synopsis word in the synopsis (optional ones may be folded into `[<options>]`).
    @Test("every declared option appears in its subcommand's help and synopsis")
    func everyOptionIsInHelpAndSynopsis() {
        for (definition, _) in Self.commands {
            let screen = HelpText.screen(definition.subcommand)
            let synopsis = HelpText.synopsis(definition.subcommand)
            // A synopsis longer than a line wraps onto the lines under it.
            let unwrapped = screen.replacingOccurrences(of: "\n       ", with: " ")
            #expect(unwrapped.contains("\nUSAGE: \(synopsis)\n"), "\(definition.subcommand)")
            for option in definition.options {
                let firstWords = option.help.split(separator: " ").prefix(2).joined(separator: " ")
                #expect(
                    screen.contains("\n  \(option.helpLabel) ") || screen.contains("\n  \(option.helpLabel)\n"),
                    "\(definition.subcommand) help lacks \(option.helpLabel)")
                #expect(screen.contains(firstWords), "\(definition.subcommand) help lacks the help of \(option.name)")
                if let defaultValue = option.defaultValue {
                    let words = "(default: \(defaultValue))".split(separator: " ").joined(separator: " ")
                    let unwrapped = screen.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                    #expect(
                        unwrapped.contains(words), "\(definition.subcommand) help lacks the default of \(option.name)")
                }
                if option.isRequired {
                    #expect(synopsis.contains(" \(option.synopsis)"), "\(synopsis) lacks \(option.name)")
                } else {
                    #expect(
                        synopsis.contains(" \(option.synopsis)") || synopsis.contains(" [<options>]"),
                        "\(synopsis) lacks \(option.name)")
                }
            }
        }
        #expect(HelpText.synopsis(.mintPKI) == "jwsverify mint pki --out <directory> [<options>]")
        #expect(HelpText.synopsis(.inspect) == "jwsverify inspect [--kind <kind>] [--json] [--quiet] [<file>]")
    }

    /// Within a subcommand no two declarations share a name, and none takes the names of help or version.
    @Test("option names are distinct within a subcommand and leave -h, --help and --version alone")
    func namesAreDistinct() {
        for (definition, _) in Self.commands {
            let names = definition.options.flatMap { [$0.name] + ($0.shortName.map { [$0] } ?? []) }
            #expect(Set(names).count == names.count, "\(definition.subcommand) declares a name twice: \(names)")
            for reserved in CommandLineGrammar.helpNames + [CommandLineGrammar.versionName] {
                #expect(!names.contains(reserved), "\(definition.subcommand) declares \(reserved)")
            }
        }
    }

    /// For every option, a value the real parser refuses yields a usage error naming that option's flag and
    /// value label; a value option without its value names it too; a flag given a value names itself.
    /// Only `--root`, `--bundle-id` (of verify, batch and receipt) and `--xcode-certificate` accept every string.
    @Test("each option's bad value gives a usage error naming that flag")
    func badValuesNameTheFlag() {
        let candidates = ["", "not-a-value", "-1", "0", "100001", "signed", "a..b=1", "18446744073709551616"]
        var acceptsEverything: Set<String> = []
        for (definition, words) in Self.commands where !definition.options.isEmpty {
            let prefix = words + Self.required(definition)
            for option in definition.options {
                let spelled = option.spelling
                func error(_ arguments: [String]) -> UsageError? {
                    guard case .failure(let error) = Arguments.parse(prefix + arguments) else { return nil }
                    return error
                }
                guard let label = option.valueLabel else {
                    #expect(
                        error(["\(option.name)=yes"])
                            == UsageError(
                                message: "Unexpected value for flag '\(option.name)'", subcommand: definition.subcommand
                            ))
                    continue
                }
                #expect(
                    error([option.name])
                        == UsageError(
                            message: "Missing value for '\(option.name) \(label)'", subcommand: definition.subcommand))
                var refused = false
                for candidate in candidates {
                    guard let usage = error(["\(option.name)=\(candidate)"]),
                        usage.message.hasPrefix("The value '\(candidate)' is invalid")
                    else { continue }
                    refused = true
                    #expect(usage.subcommand == definition.subcommand)
                    #expect(
                        usage.message.hasPrefix("The value '\(candidate)' is invalid for '\(spelled)'"),
                        "\(definition.subcommand) \(option.name)=\(candidate): \(usage.message)")
                    #expect(!usage.message.contains("appAppleId"), "\(usage.message)")
                }
                if !option.allowedValues.isEmpty {
                    let message = error(["\(option.name)=not-a-value"])?.message ?? ""
                    #expect(
                        message.hasSuffix(
                            ". Please provide one of \(CommandLineGrammar.listed(option.allowedValues))."),
                        "\(option.name): \(message)")
                }
                if !refused { acceptsEverything.insert("\(definition.subcommand) \(option.name)") }
            }
        }
        #expect(
            acceptsEverything == [
                "verify --root", "verify --bundle-id", "verify --xcode-certificate", "batch --root",
                "batch --bundle-id", "batch --xcode-certificate", "receipt --root", "receipt --bundle-id",
                "receipt --xcode-certificate", "api --root", "ledger import --root", "ledger import --bundle-id",
                "ledger import --xcode-certificate", "ledger reconcile --root",
            ])
    }

    /// An option no subcommand declares is named in the error, with the subcommand's synopsis.
    @Test("an unknown option names itself, for every subcommand")
    func unknownOptionNamesItself() {
        for (definition, words) in Self.commands {
            #expect(
                Arguments.parse(words + Self.required(definition) + ["--frobnicate=1"])
                    == .failure(UsageError(message: "Unknown option '--frobnicate'", subcommand: definition.subcommand))
            )
        }
        #expect(
            Arguments.parse(["inspect", "--version"])
                == .failure(
                    UsageError(
                        message: "Unknown option '--version' (it belongs before the subcommand)", subcommand: .inspect)
                ))
    }

    /// `--environment Production` without `--app-apple-id`: the error names the flag to add, never the
    /// library's parameter `appAppleId`; the same for Xcode without `--xcode-certificate`. The library
    /// decides (its remedy); the CLI only words it.
    @Test("a Production environment without --app-apple-id names --app-apple-id")
    func productionWithoutAppAppleIdNamesTheFlag() throws {
        func message(_ options: VerifyOptions) -> String? {
            switch VerificationRunner.tokenMode(options, roots: [], xcodeCertificate: nil) {
            case .success: return nil
            case .failure(let error):
                return FlagAdvice.configurationMessage(
                    error, roots: [], xcodeCertificatePath: options.xcodeCertificate, xcodeCertificate: nil)
            }
        }
        var options = VerifyOptions()
        options.environment = .production
        #expect(message(options)?.hasPrefix("'--environment Production' requires '--app-apple-id' (") == true)
        #expect(message(options)?.hasSuffix(" (invalidConfiguration)") == true)
        #expect(message(options)?.contains("appAppleId") == false)
        options.appAppleId = 1
        #expect(message(options) == nil)
        options.environment = .xcode
        #expect(message(options)?.hasPrefix("'--environment Xcode' requires '--xcode-certificate': in Xcode") == true)
        options.online = true
        #expect(
            message(options)?.hasPrefix(
                "'--online' cannot be combined with '--environment Xcode': nobody revokes") == true)

        for subcommand in [[], ["batch"]] {
            let run = try CLI.run(subcommand + ["--environment", "production"], stdin: "x")
            #expect(run.status == 64)
            #expect(run.stdout.isEmpty)
            #expect(
                run.stderr.hasPrefix("Error: '--environment Production' requires '--app-apple-id' ("), "\(run.stderr)")
            #expect(!run.stderr.contains("appAppleId"))
        }
    }

    /// No option name is spelled as a string literal in more than one place in `Sources/jwsverify`.
    @Test("each option name is written once in Sources/jwsverify")
    func eachNameIsWrittenOnce() throws {
        let folder = CLI.packageRoot.appendingPathComponent("Sources/jwsverify")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".swift") }
        let sources = try files.map { try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }
        let names = Set(
            CommandRegistry.commands.flatMap(\.options).flatMap { [$0.name] + ($0.shortName.map { [$0] } ?? []) })
        for name in names {
            let count = sources.map { $0.components(separatedBy: "\"\(name)\"").count - 1 }.reduce(0, +)
            #expect(count == 1, "\"\(name)\" is written \(count) times")
        }
    }
}
