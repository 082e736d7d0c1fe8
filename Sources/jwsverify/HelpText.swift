import JWSVerify
import JWSVerifyTesting

/// The help screens of `jwsverify`, laid out as `swift-argument-parser` lays them out.
///
/// Sections `OVERVIEW:`, `USAGE:`, `ARGUMENTS:`, `OPTIONS:` (then `SUBCOMMANDS:` and `EXIT CODES:`), rows
/// indented by 2 with descriptions starting at column 26, wrapped at 80 columns; a label too long for
/// its column puts the description on the next line.
enum HelpText {
    /// The version `--version` prints.
    static let version = "0.1.0"

    private static let width = 80
    private static let labelColumn = 26

    /// The one-line synopsis printed after `Usage:`.
    static func synopsis(_ subcommand: Subcommand) -> String {
        switch subcommand {
        case .verify: return "jwsverify [verify] [<options>] [<file>]"
        case .inspect: return "jwsverify inspect [--kind <kind>] [--json] [<file>]"
        case .batch: return "jwsverify batch [<options>] [<file>]"
        case .mint: return "jwsverify mint <subcommand>"
        case .mintPKI: return "jwsverify mint pki --out <directory> [--seed <n>] [--force]"
        case .mintToken: return "jwsverify mint token --pki <directory> --kind <kind> [<options>]"
        }
    }

    /// The command that shows the help of a subcommand.
    static func helpCommand(_ subcommand: Subcommand) -> String {
        subcommand == .verify ? "jwsverify --help" : "jwsverify \(subcommand.rawValue) --help"
    }

    /// The option with its value placeholder, as error messages name it (`--root <file>`).
    static func valueLabel(_ name: String) -> String {
        switch name {
        case "--root", "--xcode-certificate": return "\(name) <file>"
        case "--bundle-id": return "\(name) <id>"
        case "--app-apple-id": return "\(name) <n>"
        case "--environment": return "\(name) <environment>"
        case "--at": return "\(name) <time>"
        case "--kind": return "\(name) <kind>"
        case "--out", "--pki": return "\(name) <directory>"
        case "--seed", "--count": return "\(name) <n>"
        case "--type": return "\(name) <type>"
        case "--subtype": return "\(name) <subtype>"
        case "--product-id": return "\(name) <id>"
        case "--signed-date": return "\(name) <time>"
        case "--set": return "\(name) <key=value>"
        case "--payload": return "\(name) <file>"
        default: return name
        }
    }

    /// The help screen of a subcommand, or of the tool when nil.
    static func screen(_ subcommand: Subcommand?) -> String {
        switch subcommand {
        case nil, .verify?: return verifyScreen(root: subcommand == nil)
        case .inspect?: return inspectScreen
        case .batch?: return batchScreen
        case .mint?: return mintScreen
        case .mintPKI?: return mintPKIScreen
        case .mintToken?: return mintTokenScreen
        }
    }

    private static let fileArgument = [
        ("<file>", "The file holding the token; '-' or none reads standard input. Surrounding whitespace is ignored.")
    ]

    private static let verificationOptions: [(String, String)] = [
        (
            "--root <file>",
            "A trusted root certificate, DER or PEM; repeat for several. (default: the bundled Apple Root CA - G3)"
        ),
        ("--bundle-id <id>", "The bundle id the payload must carry. (default: not checked; the report says so)"),
        ("--app-apple-id <n>", "The app's Apple id, checked in Production; required with '--environment Production'."),
        (
            "--environment <environment>",
            "Sandbox, Production, Xcode or LocalTesting. LocalTesting tokens are signed by nobody: they are decoded and"
                + " reported NOT VERIFIED. (default: not configured; the environment is taken from the payload)"
        ),
        (
            "--xcode-certificate <file>",
            "The StoreKit Testing certificate exported from Xcode, for '--environment Xcode'."
        ),
        (
            "--at <time>",
            "When the certificates must be valid: signed, now, or an ISO 8601 date-time. (default: signed)"
        ),
        ("--online", "Check revocation with OCSP, at the current time; cannot be combined with '--at'."),
        ("--kind <kind>", "auto, transaction, renewal, app-transaction, notification or realtime. (default: auto)"),
    ]

    private static let exitCodes: [(String, String)] = ExitCode.table.map { (ExitCode.label($0.code), $0.meaning) }

    private static func verifyScreen(root: Bool) -> String {
        var sections: [(String, [(String, String)])] = [
            ("ARGUMENTS", fileArgument),
            (
                "OPTIONS",
                verificationOptions + [
                    ("--json", "Print one JSON object (schemaVersion 1), on success and on failure."),
                    ("-q, --quiet", "Print nothing; report through the exit status only."),
                ] + (root ? [("--version", "Show the version.")] : []) + [("-h, --help", "Show help information.")]
            ),
        ]
        if root {
            sections.append(
                (
                    "SUBCOMMANDS",
                    [
                        ("verify (default)", "Verify one token and explain every check."),
                        ("inspect", "Decode a token without verifying anything: header, chain, payload."),
                        ("batch", "Verify one token per line on all cores; one JSON result per line."),
                        ("mint", "Make a test PKI and App Store-like signed test tokens for your server's tests."),
                    ]
                ))
        }
        sections.append(("EXIT CODES", exitCodes))
        var text = render(
            overview: "Verify an App Store signed JWS token locally and explain every check.",
            discussion: "Checks the x5c certificate chain, the ES256 signature, the payload and the app claims of"
                + " StoreKit 2 transactions, renewal infos, app transactions, App Store Server Notifications V2 and"
                + " Retention Messaging realtime requests, without sending the token anywhere.",
            usage: synopsis(.verify), sections: sections)
        if root { text += "\n  See 'jwsverify help <subcommand>' for detailed help.\n" }
        return text
    }

    private static var inspectScreen: String {
        render(
            overview: "Decode a token without verifying it: header, x5c certificates and payload, labelled UNVERIFIED.",
            discussion: "Nothing is checked: anybody can make a token that decodes to anything. Use 'jwsverify verify'"
                + " before trusting a token.",
            usage: synopsis(.inspect),
            sections: [
                ("ARGUMENTS", fileArgument),
                (
                    "OPTIONS",
                    [
                        (
                            "--kind <kind>",
                            "auto, transaction, renewal, app-transaction, notification or realtime. (default: auto)"
                        ),
                        ("--json", "Print one JSON object (schemaVersion 1)."),
                        ("-h, --help", "Show help information."),
                    ]
                ),
                (
                    "EXIT CODES",
                    [
                        (ExitCode.label(ExitCode.verified), "Decoded."),
                        (
                            ExitCode.label(ExitCode.notVerified),
                            "Not a compact JWS with JSON header and payload (malformedToken)."
                        ),
                        (ExitCode.label(ExitCode.usage), "Usage error."),
                        (ExitCode.label(ExitCode.noInput), "Input missing, unreadable or empty."),
                    ]
                ),
            ])
    }

    private static var batchScreen: String {
        render(
            overview: "Verify many tokens, one per line, on all cores.",
            discussion: "Each line is a bare token or an NDJSON object with a 'token' string field. Writes one compact"
                + " JSON result per input line, in input order, each with its 1-based 'line'; blank and over-long lines"
                + " are reported as malformedToken, never dropped. A summary goes to standard error, with a progress"
                + " line when standard error is a terminal.",
            usage: synopsis(.batch),
            sections: [
                ("ARGUMENTS", [("<file>", "The file of token lines; '-' or none reads standard input.")]),
                (
                    "OPTIONS",
                    verificationOptions + [
                        ("--json", "Accepted for symmetry with verify; batch always writes JSON."),
                        ("-q, --quiet", "Print neither results nor summary; report through the exit status only."),
                        ("-h, --help", "Show help information."),
                    ]
                ),
                (
                    "EXIT CODES",
                    [
                        (ExitCode.label(ExitCode.verified), "Every token verified."),
                        (ExitCode.label(ExitCode.notVerified), "At least one token not verified."),
                        (ExitCode.label(ExitCode.usage), "Usage error, or a configuration the verifier refuses."),
                        (ExitCode.label(ExitCode.noInput), "Input missing, unreadable or empty."),
                        (
                            ExitCode.label(ExitCode.retryable),
                            "Every failure was retryable (revocation status unavailable)."
                        ),
                    ]
                ),
            ])
    }

    private static var mintScreen: String {
        render(
            overview: "Make a test PKI and signed test tokens that look exactly like the App Store's.",
            discussion: "For integration tests of a server that verifies App Store tokens, without a device or"
                + " Apple's sandbox. 'mint pki' writes a test root, intermediate and leaf; 'mint token' signs"
                + " transactions, renewal infos, app transactions, notifications and realtime requests with them."
                + " The tokens verify only where the test root is trusted: never deploy it to production.",
            usage: synopsis(.mint),
            sections: [
                ("OPTIONS", [("-h, --help", "Show help information.")]),
                (
                    "SUBCOMMANDS",
                    [
                        ("pki", "Write a test root, intermediate and leaf certificate with their private keys."),
                        ("token", "Mint signed test tokens, one per line."),
                    ]
                ),
            ]) + "\n  See 'jwsverify help mint <subcommand>' for detailed help.\n"
    }

    private static var mintPKIScreen: String {
        let validity = TestPKI.defaultValidity
        return render(
            overview: "Write a test PKI: a root, an intermediate and a leaf certificate, with their private keys.",
            discussion: "Shaped like Apple's chain: a self-signed P-384 root, a P-384 intermediate with Apple's"
                + " intermediate marker (\(TestPKI.intermediateMarkerOID)) and a P-256 leaf with the receipt"
                + " signing marker (\(TestPKI.leafMarkerOID)), valid \(ISO8601Text.iso8601(validity.lowerBound)) to"
                + " \(ISO8601Text.iso8601(validity.upperBound)). Subject names end in 'NOT APPLE'. Writes"
                + " root.der, intermediate.der and leaf.der with PEM copies, and the private keys root.key.pem,"
                + " intermediate.key.pem and leaf.key.pem (PKCS#8, mode 0600). Existing files are replaced only with"
                + " '--force'. Trust root.der in tests only.",
            usage: synopsis(.mintPKI),
            sections: [
                (
                    "OPTIONS",
                    [
                        ("--out <directory>", "The directory to write; created when missing."),
                        (
                            "--seed <n>",
                            "Makes the keys and serial numbers repeatable: 0 to \(UInt64.max). (default: random)"
                        ),
                        ("--force", "Replace existing PKI files in the directory."),
                        ("-h, --help", "Show help information."),
                    ]
                ),
                (
                    "EXIT CODES",
                    [
                        (ExitCode.label(ExitCode.verified), "Written."),
                        (ExitCode.label(ExitCode.notVerified), "A file or directory could not be written."),
                        (ExitCode.label(ExitCode.usage), "Usage error, or PKI files exist and '--force' is not given."),
                    ]
                ),
            ])
    }

    private static var mintTokenScreen: String {
        let defaults = PayloadParameters()
        return render(
            overview: "Mint signed test tokens that look exactly like the App Store's, one per line.",
            discussion: "Header {\"alg\":\"ES256\",\"x5c\":[leaf, intermediate, root]}, a payload with every field"
                + " Apple sends for a monthly subscription bought with an introductory offer, and an ES256 signature"
                + " by the test leaf. A notification carries a signed transaction and renewal info (an app transaction"
                + " for RESCIND_CONSENT; none for TEST, EXTERNAL_PURCHASE_TOKEN and SUMMARY) minted with the same"
                + " PKI and options. Verify with 'jwsverify --root <directory>/root.der'.",
            usage: synopsis(.mintToken),
            sections: [
                (
                    "OPTIONS",
                    [
                        ("--pki <directory>", "A directory written by 'jwsverify mint pki'."),
                        ("--kind <kind>", "transaction, renewal, app-transaction, notification or realtime."),
                        (
                            "--type <type>",
                            "The notificationType, such as DID_RENEW; '--kind notification' only."
                                + " (default: \(defaults.notificationType))"
                        ),
                        (
                            "--subtype <subtype>",
                            "The subtype, such as BILLING_RECOVERY. (default: \(defaults.notificationSubtype ?? "none")"
                                + " with the default type, else none)"
                        ),
                        ("--bundle-id <id>", "The bundleId. (default: \(defaults.bundleId))"),
                        ("--app-apple-id <n>", "The appAppleId. (default: \(defaults.appAppleId))"),
                        (
                            "--environment <environment>",
                            "Sandbox or Production. (default: \(defaults.environment))"
                        ),
                        ("--product-id <id>", "The productId. (default: \(defaults.productId))"),
                        (
                            "--signed-date <time>",
                            "The signedDate, 'now' or an ISO 8601 date-time; the other dates follow it. (default: now)"
                        ),
                        (
                            "--set <key=value>",
                            "Set a payload field; repeat for several. The value is JSON when it parses as JSON, else a"
                                + " string; a dotted key (data.status=2) sets a nested field."
                        ),
                        (
                            "--payload <file>",
                            "A JSON object merged into the payload, objects member by member, before '--set'."
                        ),
                        ("--count <n>", "How many distinct tokens: 1 to \(Arguments.maximumMintCount). (default: 1)"),
                        ("--seed <n>", "Makes the identifiers repeatable: 0 to \(UInt64.max). (default: random)"),
                        ("-h, --help", "Show help information."),
                    ]
                ),
                (
                    "EXIT CODES",
                    [
                        (ExitCode.label(ExitCode.verified), "Minted."),
                        (ExitCode.label(ExitCode.notVerified), "A token could not be signed."),
                        (ExitCode.label(ExitCode.usage), "Usage error."),
                        (
                            ExitCode.label(ExitCode.noInput),
                            "The '--pki' directory or '--payload' file is missing, unreadable or invalid."
                        ),
                    ]
                ),
            ])
    }

    private static func render(
        overview: String, discussion: String, usage: String, sections: [(String, [(String, String)])]
    ) -> String {
        var lines = wrap("OVERVIEW: " + overview, indent: 0, width: width)
        lines.append("")
        lines += wrap(discussion, indent: 0, width: width)
        lines.append("")
        lines.append("USAGE: " + usage)
        for (title, rows) in sections {
            lines.append("")
            lines.append("\(title):")
            for (label, description) in rows {
                let head = "  " + label
                let body = wrap(description, indent: labelColumn, width: width)
                if head.count <= labelColumn - 2 {
                    let first = body[0].dropFirst(labelColumn)
                    lines.append(head.padding(toLength: labelColumn, withPad: " ", startingAt: 0) + first)
                    lines += body.dropFirst()
                } else {
                    lines.append(head)
                    lines += body
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Wraps words to `width` columns, every line indented by `indent` spaces.
    static func wrap(_ text: String, indent: Int, width: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if !current.isEmpty && indent + current.count + 1 + word.count > width {
                lines.append(pad + current)
                current = ""
            }
            current += current.isEmpty ? String(word) : " " + word
        }
        lines.append(pad + current)
        return lines
    }
}
