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
        #expect(
            usageError(["--app-apple-id", "x1"])?.message
                == "The value 'x1' is invalid for '--app-apple-id <n>'. Please provide a whole number from 0 to"
                + " 9223372036854775807.")
        #expect(
            usageError(["--environment", "Staging"])?.message.hasPrefix(
                "The value 'Staging' is invalid for '--environment <environment>'") == true)
        #expect(usageError(["--kind", "receipt"])?.message.contains("'auto', 'transaction', 'renewal'") == true)
        #expect(
            usageError(["--at", "soon"])?.message.hasPrefix("The value 'soon' is invalid for '--at <time>'") == true)
        #expect(usageError(["inspect", "a", "b"])?.message == "Unexpected argument 'b'")
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
            // As in argument-parser, ARGUMENTS appears only for commands that take positionals (sign: a kind; api: an
            // endpoint), and
            // the mint and ledger groups (which run nothing themselves) have SUBCOMMANDS instead of EXIT CODES.
            let takesFile = [nil, .verify, .receipt, .inspect, .batch, .sign, .api, .ledgerImport].contains(subcommand)
            var sections = ["OVERVIEW: ", "\nUSAGE: jwsverify", "\nOPTIONS:\n"]
            sections += takesFile ? ["\nARGUMENTS:\n"] : []
            sections += [.mint, .ledger].contains(subcommand) ? ["\nSUBCOMMANDS:\n"] : ["\nEXIT CODES:\n"]
            for section in sections {
                #expect(text.contains(section), "\(String(describing: subcommand)) lacks \(section)")
            }
            if !takesFile { #expect(!text.contains("\nARGUMENTS:\n")) }
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

    // MARK: mint

    private func mintToken(_ arguments: [String]) throws -> MintTokenOptions {
        guard case .success(.mintToken(let options)) = Arguments.parse(["mint", "token"] + arguments) else {
            Issue.record("\(arguments) did not parse as mint token: \(Arguments.parse(["mint", "token"] + arguments))")
            throw CancellationError()
        }
        return options
    }

    /// `mint pki` takes `--out`, `--seed` and `--force`; `--out` is required.
    @Test("mint pki parses --out, --seed and --force")
    func mintPKI() {
        #expect(
            Arguments.parse(["mint", "pki", "--out", "dir"]) == .success(.mintPKI(MintPKIOptions(out: "dir"))))
        #expect(
            Arguments.parse(["mint", "pki", "--seed=18446744073709551615", "--force", "--out", "d"])
                == .success(.mintPKI(MintPKIOptions(out: "d", seed: .max, force: true))))
        #expect(
            usageError(["mint", "pki"])
                == UsageError(message: "Missing expected argument '--out <directory>'", subcommand: .mintPKI))
        #expect(
            usageError(["mint", "pki", "--out", "d", "--seed", "-1"])?.message
                == "The value '-1' is invalid for '--seed <n>'. Please provide a whole number from 0 to \(UInt64.max).")
        #expect(
            usageError(["mint", "pki", "--out", "d", "--seed", "x"])?.message.hasPrefix(
                "The value 'x' is invalid for '--seed <n>'") == true)
        #expect(
            usageError(["mint", "pki", "--out", "d", "--force=yes"])?.message == "Unexpected value for flag '--force'")
        #expect(usageError(["mint", "pki", "--out", "d", "extra"])?.message == "Unexpected argument 'extra'")
        #expect(usageError(["mint", "pki", "--kind", "transaction"])?.message == "Unknown option '--kind'")
    }

    /// Every `mint token` option, in both spellings; unset options stay nil and take the library's defaults.
    @Test("mint token parses every option, as --name value and --name=value")
    func mintTokenOptions() throws {
        let parsed = try mintToken([
            "--pki", "pki", "--kind=notification", "--type", "DID_RENEW", "--subtype=BILLING_RECOVERY", "--bundle-id",
            "com.example.app", "--app-apple-id", "42", "--environment", "production", "--product-id", "p",
            "--signed-date", "2030-01-02T03:04:05Z", "--set", "data.status=2", "--set=quantity=3", "--payload",
            "p.json", "--count", "5", "--seed", "7",
        ])
        var expected = MintTokenOptions(pki: "pki", kind: .notification)
        expected.notificationType = "DID_RENEW"
        expected.notificationSubtype = "BILLING_RECOVERY"
        expected.bundleId = "com.example.app"
        expected.appAppleId = 42
        expected.environment = "Production"
        expected.productId = "p"
        expected.signedDate = Date(timeIntervalSince1970: 1_893_553_445)
        expected.assignments = ["data.status=2", "quantity=3"]
        expected.payloadFile = "p.json"
        expected.count = 5
        expected.seed = 7
        #expect(parsed == expected)

        let parameters = parsed.parameters
        #expect(parameters.bundleId == "com.example.app")
        #expect(parameters.appAppleId == 42)
        #expect(parameters.environment == "Production")
        #expect(parameters.notificationType == "DID_RENEW")
        #expect(parameters.notificationSubtype == "BILLING_RECOVERY")
        #expect(parameters.seed == 7)
        #expect(parameters.signedDate == Date(timeIntervalSince1970: 1_893_553_445))

        let defaults = try mintToken(["--pki", "d", "--kind", "app-transaction"])
        #expect(defaults == MintTokenOptions(pki: "d", kind: .appTransaction))
        #expect(defaults.parameters.bundleId == "com.example.jwsverify")
        #expect(defaults.parameters.environment == "Sandbox")
        #expect(defaults.parameters.notificationType == "SUBSCRIBED")
        #expect(defaults.parameters.notificationSubtype == "INITIAL_BUY")
        #expect(try mintToken(["--pki", "d", "--kind", "appTransaction"]).kind == .appTransaction)
        #expect(try mintToken(["--pki", "d", "--kind", "notification", "--signed-date", "now"]).signedDate == nil)
    }

    /// A notification type given alone drops the default subtype, which belongs to the default type.
    @Test("--type without --subtype means no subtype; --subtype alone keeps the default type")
    func mintTypeAndSubtype() throws {
        let typeOnly = try mintToken(["--pki", "d", "--kind", "notification", "--type", "REFUND"]).parameters
        #expect(typeOnly.notificationType == "REFUND")
        #expect(typeOnly.notificationSubtype == nil)
        let subtypeOnly = try mintToken(["--pki", "d", "--kind", "notification", "--subtype", "RESUBSCRIBE"])
            .parameters
        #expect(subtypeOnly.notificationType == "SUBSCRIBED")
        #expect(subtypeOnly.notificationSubtype == "RESUBSCRIBE")
    }

    /// `mint token` mistakes carry argument-parser's messages and name `mint token`.
    @Test("mint token usage errors carry argument-parser style messages")
    func mintTokenUsageErrors() {
        func message(_ arguments: [String]) -> String? {
            let error = usageError(["mint", "token"] + arguments)
            #expect(error == nil || error?.subcommand == .mintToken, "\(arguments)")
            return error?.message
        }
        #expect(message(["--kind", "transaction"]) == "Missing expected argument '--pki <directory>'")
        #expect(message(["--pki", "d"]) == "Missing expected argument '--kind <kind>'")
        #expect(message(["--pki"]) == "Missing value for '--pki <directory>'")
        #expect(
            message(["--pki", "d", "--kind", "auto"])
                == "The value 'auto' is invalid for '--kind <kind>'. Please provide one of 'transaction', 'renewal',"
                + " 'app-transaction', 'notification' and 'realtime'.")
        #expect(
            message(["--pki", "d", "--kind", "transaction", "--set", "novalue"])?.hasPrefix(
                "The value 'novalue' is invalid for '--set <key=value>'") == true)
        #expect(message(["--pki", "d", "--kind", "transaction", "--set", "=1"]) != nil)
        #expect(message(["--pki", "d", "--kind", "transaction", "--set", "data.=1"]) != nil)
        #expect(message(["--pki", "d", "--kind", "transaction", "--set", ".a=1"]) != nil)
        #expect(
            message(["--pki", "d", "--kind", "renewal", "--subtype", "UPGRADE"])
                == "'--subtype' requires '--kind notification'")
        #expect(
            message(["--pki", "d", "--kind", "notification", "--type", "did_renew"])?.contains(
                "use '--set notificationType=did_renew'") == true)
        #expect(message(["--pki", "d", "--kind", "notification", "--subtype", "NOPE"]) != nil)
        #expect(message(["--pki", "d", "--kind", "transaction", "--count", "100001"]) != nil)
        #expect(message(["--pki", "d", "--kind", "transaction", "--count", "100000"]) == nil)
        #expect(message(["--pki", "d", "--kind", "transaction", "--app-apple-id", "-4"]) != nil)
        #expect(
            message(["--pki", "d", "--kind", "transaction", "--environment", "LocalTesting"])?.hasSuffix(
                "Please provide one of 'Sandbox' and 'Production'.") == true)
        #expect(message(["--pki", "d", "--kind", "transaction", "--signed-date", "signed"]) != nil)
        #expect(message(["--pki", "d", "--kind", "transaction", "--bundle-id", ""]) != nil)
        #expect(message(["--pki", "d", "--kind", "transaction", "file"]) == "Unexpected argument 'file'")
        #expect(
            message(["--pki", "d", "--kind", "transaction", "--version"])
                == "Unknown option '--version' (it belongs before the subcommand)")
    }

    /// Help for `mint` and its subcommands, wherever `--help` appears; a bare `mint` shows its help.
    @Test("mint help is recognized for the group and each subcommand")
    func mintHelp() {
        #expect(Arguments.parse(["mint"]) == .success(.help(.mint)))
        #expect(Arguments.parse(["mint", "--help"]) == .success(.help(.mint)))
        #expect(Arguments.parse(["mint", "pki", "-h"]) == .success(.help(.mintPKI)))
        #expect(Arguments.parse(["mint", "token", "--kind", "x", "--help"]) == .success(.help(.mintToken)))
        #expect(Arguments.parse(["help", "mint"]) == .success(.help(.mint)))
        #expect(Arguments.parse(["help", "mint", "pki"]) == .success(.help(.mintPKI)))
        #expect(Arguments.parse(["help", "mint", "token"]) == .success(.help(.mintToken)))
        #expect(Arguments.parse(["help", "mint", "receipt"]) == .success(.help(.mintReceipt)))
        #expect(Arguments.parse(["mint", "receipt", "--help"]) == .success(.help(.mintReceipt)))
        #expect(usageError(["help", "mint", "coin"])?.message == "Unknown subcommand 'mint coin'")
        #expect(
            usageError(["mint", "coin"])
                == UsageError(
                    message: "Unknown subcommand 'coin'; expected 'pki', 'token' or 'receipt'", subcommand: .mint))
        #expect(usageError(["mint", "--out", "d"])?.message == "Unknown option '--out'")
        // Two-word subcommands are reached through `mint`, not as one argument.
        #expect(Arguments.parse(["mint pki"]) == .success(.verify(VerifyOptions(input: .file("mint pki")))))
        #expect(
            UsageError(message: "m", subcommand: .mintPKI).text.hasSuffix(
                "  See 'jwsverify mint pki --help' for more information.\n"))
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
