import Foundation
import JWSVerify
import Testing

@testable import jwsverify

/// The pure argument parser, called directly.
@Suite("Argument parsing")
struct ArgumentsTests {
    private func options(_ arguments: [String]) throws -> VerifyOptions {
        guard case .success(.verify(let options)) = Arguments.parse(arguments) else {
            Issue.record("\(arguments) did not parse as verify: \(Arguments.parse(arguments))")
            throw CancellationError()
        }
        return options
    }

    private func usageError(_ arguments: [String]) -> UsageError? {
        guard case .failure(let error) = Arguments.parse(arguments) else { return nil }
        return error
    }

    /// No arguments: verify standard input with every default.
    @Test("no arguments verifies standard input with the defaults")
    func noArgumentsIsVerifyOfStandardInput() throws {
        #expect(try options([]) == VerifyOptions())
        #expect(try options(["-"]).input == .standardInput)
        #expect(try options(["verify"]).input == .standardInput)
    }

    /// A bare path, or `verify` and a path, names the token file.
    @Test("a positional argument is the token file, with or without the verify subcommand")
    func positionalIsTheFile() throws {
        #expect(try options(["token.jws"]).input == .file("token.jws"))
        #expect(try options(["verify", "token.jws"]).input == .file("token.jws"))
        #expect(try options(["--", "-token"]).input == .file("-token"))
    }

    /// Every option of verify, in both spellings.
    @Test("every verify option parses, as --name value and --name=value")
    func everyOptionParses() throws {
        let parsed = try options([
            "--root", "a.der", "--root=b.pem", "--bundle-id", "com.example", "--app-apple-id=1234",
            "--environment", "production", "--at", "2023-01-05T21:22:34Z", "--kind", "app-transaction", "--json", "-q",
            "file",
        ])
        var expected = VerifyOptions()
        expected.input = .file("file")
        expected.roots = ["a.der", "b.pem"]
        expected.bundleId = "com.example"
        expected.appAppleId = 1234
        expected.environment = .production
        expected.at = .fixed(Date(timeIntervalSince1970: 1_672_953_754))
        expected.kind = .appTransaction
        expected.json = true
        expected.quiet = true
        #expect(parsed == expected)
        #expect(try options(["--environment", "LocalTesting"]).environment == .localTesting)
        #expect(try options(["--kind", "auto"]).kind == nil)
        #expect(try options(["--at", "now"]).at == .now)
        #expect(try options(["--online"]).online)
        #expect(try options(["--environment", "Xcode", "--xcode-certificate", "c.cer"]).xcodeCertificate == "c.cer")
    }

    /// `--at` accepts signed, now, date-times with fractional seconds or offsets, and dates.
    @Test("--at accepts signed, now and ISO 8601 forms")
    func atForms() {
        #expect(Arguments.parseTime("signed") == .signed)
        #expect(Arguments.parseTime("now") == .now)
        #expect(Arguments.parseTime("2023-01-05T21:22:34.500Z") == .fixed(Date(timeIntervalSince1970: 1_672_953_754.5)))
        #expect(Arguments.parseTime("2023-01-05T23:22:34+02:00") == .fixed(Date(timeIntervalSince1970: 1_672_953_754)))
        #expect(Arguments.parseTime("2023-01-05") == .fixed(Date(timeIntervalSince1970: 1_672_876_800)))
        #expect(Arguments.parseTime("yesterday") == nil)
    }

    /// Help and version, for the tool and for each subcommand.
    @Test("help and version are recognized anywhere before --")
    func helpAndVersion() {
        #expect(Arguments.parse(["--help"]) == .success(.help(nil)))
        #expect(Arguments.parse(["-h"]) == .success(.help(nil)))
        #expect(Arguments.parse(["--bundle-id", "x", "--help"]) == .success(.help(nil)))
        #expect(Arguments.parse(["inspect", "--help"]) == .success(.help(.inspect)))
        #expect(Arguments.parse(["batch", "-h"]) == .success(.help(.batch)))
        #expect(Arguments.parse(["help", "batch"]) == .success(.help(.batch)))
        #expect(Arguments.parse(["help"]) == .success(.help(nil)))
        #expect(Arguments.parse(["--version"]) == .success(.version))
        #expect(Arguments.parse(["--", "--help"]) == .success(.verify(VerifyOptions(input: .file("--help")))))
    }

    /// `inspect` and `batch` parse their own options.
    @Test("inspect and batch parse their options")
    func subcommands() {
        #expect(
            Arguments.parse(["inspect", "--json", "--kind", "notification", "t"])
                == .success(.inspect(InspectOptions(input: .file("t"), kind: .notification, json: true))))
        var batch = VerifyOptions()
        batch.bundleId = "com.example"
        #expect(Arguments.parse(["batch", "--bundle-id", "com.example", "-"]) == .success(.batch(batch)))
    }

    /// Each kind of mistake gives argument-parser's message and names the subcommand.
    @Test("usage errors carry argument-parser style messages")
    func usageErrors() {
        #expect(
            usageError(["--frobnicate"]) == UsageError(message: "Unknown option '--frobnicate'", subcommand: .verify))
        #expect(usageError(["batch", "--frobnicate"])?.subcommand == .batch)
        #expect(usageError(["--root"])?.message == "Missing value for '--root <file>'")
        #expect(usageError(["--bundle-id", "--json"])?.message == "Missing value for '--bundle-id <id>'")
        #expect(usageError(["--app-apple-id", "x1"])?.message == "The value 'x1' is invalid for '--app-apple-id <n>'")
        #expect(
            usageError(["--environment", "Staging"])?.message.hasPrefix(
                "The value 'Staging' is invalid for '--environment <environment>'") == true)
        #expect(usageError(["--kind", "receipt"])?.message.contains("'auto', 'transaction', 'renewal'") == true)
        #expect(
            usageError(["--at", "soon"])?.message.hasPrefix("The value 'soon' is invalid for '--at <time>'") == true)
        #expect(usageError(["a", "b"])?.message == "Unexpected argument 'b'")
        #expect(usageError(["--json=yes"])?.message == "Unexpected value for flag '--json'")
        #expect(
            usageError(["inspect", "--root", "x"])
                == UsageError(message: "Unknown option '--root'", subcommand: .inspect))
        #expect(usageError(["help", "frobnicate"])?.message == "Unknown subcommand 'frobnicate'")
        #expect(
            usageError(["--xcode-certificate", "c.cer"])?.message
                == "'--xcode-certificate' requires '--environment Xcode'")
    }

    /// `--online` validates at the current time, so a validation time makes no sense with it.
    @Test("--online together with --at is a usage error")
    func onlineWithAtIsRefused() {
        #expect(
            usageError(["--online", "--at", "now"])?.message.hasPrefix("'--online' cannot be combined with '--at'")
                == true)
        #expect(usageError(["--at=signed", "--online"]) != nil)
    }

    /// The three lines of a usage error, as argument-parser prints them.
    @Test("a usage error prints Error, Usage and the help hint")
    func usageErrorText() {
        #expect(
            UsageError(message: "Unknown option '--x'", subcommand: .batch).text
                == "Error: Unknown option '--x'\nUsage: jwsverify batch [<options>] [<file>]\n  See 'jwsverify batch --help' for more information.\n"
        )
        #expect(
            UsageError(message: "m", subcommand: .verify).text.hasSuffix(
                "  See 'jwsverify --help' for more information.\n"))
    }

    /// The help screens have argument-parser's sections, aligned rows, defaults and the exit codes.
    @Test("help screens have OVERVIEW, USAGE, ARGUMENTS and OPTIONS with aligned rows")
    func helpLayout() {
        for subcommand in [nil] + Subcommand.allCases.map(Optional.some) {
            let text = HelpText.screen(subcommand)
            for section in ["OVERVIEW: ", "\nUSAGE: jwsverify", "\nARGUMENTS:\n", "\nOPTIONS:\n", "\nEXIT CODES:\n"] {
                #expect(text.contains(section), "\(String(describing: subcommand)) lacks \(section)")
            }
            #expect(text.contains("  -h, --help              Show help information."))
            #expect(text.split(separator: "\n").allSatisfy { $0.count <= 80 }, "a line is over 80 columns")
        }
        let root = HelpText.screen(nil)
        #expect(root.contains("  --at <time>             When the certificates must be valid"))
        #expect(root.contains("(default: signed)"))
        #expect(root.contains("  --environment <environment>\n                          Sandbox, Production"))
        #expect(root.contains("\nSUBCOMMANDS:\n"))
        #expect(root.contains("  --version               Show the version."))
        for code in [0, 1, 64, 66, 75] { #expect(root.contains("\n  \(code) "), "exit code \(code) is not listed") }
    }

    /// The date text used for payload dates and certificate validity.
    @Test("dates print as ISO 8601, with milliseconds only when present")
    func dateText() {
        #expect(ISO8601Text.iso8601(milliseconds: 1_672_956_154_000) == "2023-01-05T22:02:34Z")
        #expect(ISO8601Text.iso8601(milliseconds: 1_697_679_936_049.7297) == "2023-10-19T01:45:36.049Z")
        #expect(ISO8601Text.iso8601(milliseconds: 0) == "1970-01-01T00:00:00Z")
        #expect(ISO8601Text.iso8601(milliseconds: -1) == "1969-12-31T23:59:59.999Z")
        #expect(ISO8601Text.iso8601(milliseconds: 951_782_400_000) == "2000-02-29T00:00:00Z")
        #expect(ISO8601Text.iso8601(milliseconds: .nan) == "nan")
    }
}
