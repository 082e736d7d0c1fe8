import Foundation
import JWSVerify

/// The options that several subcommands declare under one name, each subcommand with its own help,
/// default, accepted values and property; the name, value label and parsing live here once.
///
/// Each function takes the subcommand's `help` text, the `defaultValue` its help shows, whether it is `required`,
/// and the `keyPath` of the property it sets (or a `set` function), and returns the declaration.
extension OptionDeclaration {
    /// `--json`: JSON output (`verify`, `batch`, `inspect`).
    static func json(help: String, _ keyPath: WritableKeyPath<Options, Bool> & Sendable) -> Self {
        .flag("--json", help: help, keyPath)
    }

    /// `--product-id <id>`: the product (`mint token`, `sign`).
    static func productId(
        help: String, defaultValue: String? = nil, _ keyPath: WritableKeyPath<Options, String?> & Sendable
    ) -> Self {
        text("--product-id", label: "<id>", help: help, defaultValue: defaultValue, keyPath)
    }

    /// An option whose value is non-empty text, kept as given (`sign`'s identifiers and files).
    static func text(
        _ name: String, label: String, help: String, defaultValue: String? = nil,
        _ keyPath: WritableKeyPath<Options, String?> & Sendable
    ) -> Self {
        .value(name, label: label, help: help, defaultValue: defaultValue) { options, string throws(InvalidValue) in
            options[keyPath: keyPath] = try OptionValue.nonEmpty(string)
        }
    }

    /// `--key <file>`, required: the In-App Purchase key, a .p8 file (`sign`, `api`).
    static func key(_ keyPath: WritableKeyPath<Options, String> & Sendable) -> Self {
        .value(
            "--key", label: "<file>", help: "The In-App Purchase key: an App Store Connect .p8 file (PKCS #8 P-256).",
            required: true
        ) { options, string throws(InvalidValue) in options[keyPath: keyPath] = try OptionValue.nonEmpty(string) }
    }

    /// `--key-id <id>`, required: the key's identifier (`sign`, `api`).
    static func keyId(_ keyPath: WritableKeyPath<Options, String> & Sendable) -> Self {
        .value("--key-id", label: "<id>", help: "The key's identifier in App Store Connect.", required: true) {
            options, string throws(InvalidValue) in options[keyPath: keyPath] = try OptionValue.nonEmpty(string)
        }
    }

    /// `--issuer-id <id>`: your issuer id in App Store Connect (`sign`'s JWS kinds, `api`).
    static func issuerId(help: String, _ keyPath: WritableKeyPath<Options, String?> & Sendable) -> Self {
        text("--issuer-id", label: "<id>", help: help, keyPath)
    }

    /// `-q`, `--quiet`: nothing on standard output, on every subcommand (``CommandIO/quieted(_:)``).
    static func quiet(
        help: String = "Print nothing; report through the exit status only.",
        _ keyPath: WritableKeyPath<Options, Bool> & Sendable
    ) -> Self {
        .flag("--quiet", shortName: "-q", help: help, keyPath)
    }

    /// `--kind <kind>`: the payload kind (`verify`, `batch`, `inspect`: a ``PayloadKind`` or `auto`;
    /// `mint token`: a `TestPayloadKind`).
    static func kind<Kind>(
        values: [String], help: String = "", defaultValue: String? = nil, required: Bool = false,
        parse: @escaping @Sendable (String) -> Kind?, _ keyPath: WritableKeyPath<Options, Kind> & Sendable
    ) -> Self {
        .value(
            "--kind", label: "<kind>", help: OptionValue.alternatives(values) + "." + help, defaultValue: defaultValue,
            allowedValues: values, required: required
        ) { options, string throws(InvalidValue) in
            guard let kind = parse(string) else { throw InvalidValue() }
            options[keyPath: keyPath] = kind
        }
    }

    /// `--bundle-id <id>`: the bundle id expected (`verify`) or minted (`mint token`).
    static func bundleId(
        help: String, defaultValue: String?, allowsEmpty: Bool, _ keyPath: WritableKeyPath<Options, String?> & Sendable
    ) -> Self {
        .value("--bundle-id", label: "<id>", help: help, defaultValue: defaultValue) {
            options, string throws(InvalidValue) in
            options[keyPath: keyPath] = allowsEmpty ? string : try OptionValue.nonEmpty(string)
        }
    }

    /// `--app-apple-id <n>`: the app's Apple id, a number from 0 to `Int64.max`.
    static func appAppleId(
        help: String, defaultValue: String? = nil, _ keyPath: WritableKeyPath<Options, Int64?> & Sendable
    ) -> Self {
        .value("--app-apple-id", label: "<n>", help: help, defaultValue: defaultValue) {
            options, string throws(InvalidValue) in
            options[keyPath: keyPath] = try OptionValue.number(string, in: 0...Int64.max)
        }
    }

    /// `--environment <environment>`: one of `values` in any letter case, set in its canonical spelling.
    static func environment(
        values: [String], help: String = "", defaultValue: String?, repeats: Bool = false,
        set: @escaping @Sendable (inout Options, String) -> Void
    ) -> Self {
        .value(
            "--environment", label: "<environment>", help: OptionValue.alternatives(values) + "." + help,
            defaultValue: defaultValue, allowedValues: values, repeats: repeats
        ) { options, string throws(InvalidValue) in
            set(&options, try OptionValue.caseInsensitiveChoice(string, of: values))
        }
    }

    /// `--seed <n>`: makes `mint pki` and `mint token` repeatable; a decimal 64-bit unsigned integer.
    static func seed(help: String, _ keyPath: WritableKeyPath<Options, UInt64?> & Sendable) -> Self {
        .value("--seed", label: "<n>", help: "\(help): 0 to \(UInt64.max).", defaultValue: "random") {
            options, string throws(InvalidValue) in
            options[keyPath: keyPath] = try OptionValue.number(string, in: 0...UInt64.max)
        }
    }

    /// `--root <file>`: a trusted root certificate file, DER or PEM, repeatable (`verify`, `batch`, `receipt`).
    static func root(
        help: String, defaultValue: String, _ keyPath: WritableKeyPath<Options, [String]> & Sendable
    ) -> Self {
        .value("--root", label: "<file>", help: help, defaultValue: defaultValue, repeats: true) { options, path in
            options[keyPath: keyPath].append(path)
        }
    }

    /// `--xcode-certificate <file>`: the StoreKit Testing certificate exported from Xcode (`verify`, `batch`,
    /// `receipt`).
    static func xcodeCertificate(help: String, _ keyPath: WritableKeyPath<Options, String?> & Sendable) -> Self {
        .value("--xcode-certificate", label: "<file>", help: help) { options, path in
            options[keyPath: keyPath] = path
        }
    }

    /// `--at <time>`: when the certificates must be valid, `signed`, `now` or an ISO 8601 date-time
    /// (``Arguments/parseTime(_:)``).
    static func at(help: String, _ keyPath: WritableKeyPath<Options, ValidationTimeOption> & Sendable) -> Self {
        .value(OptionName.at, label: "<time>", help: help, defaultValue: "signed") { options, string throws(InvalidValue) in
            guard let time = Arguments.parseTime(string) else {
                throw InvalidValue(
                    hint: ". Please provide 'signed', 'now' or an ISO 8601 date-time such as 2023-01-05T21:22:34Z.")
            }
            options[keyPath: keyPath] = time
        }
    }

    /// A date of `mint token`, `mint receipt` (`--signed-date`, `--created`) and `api` (`--start`, `--end`): `now`
    /// (nil, the default unless `defaultValue` says otherwise) or an ISO 8601 date-time such as `example`.
    static func mintDate(
        _ name: String, help: String, example: String, defaultValue: String? = "now",
        _ keyPath: WritableKeyPath<Options, Date?> & Sendable
    ) -> Self {
        .value(name, label: "<time>", help: help, defaultValue: defaultValue) { options, string throws(InvalidValue) in
            switch Arguments.parseTime(string) {
            case .fixed(let date)?: options[keyPath: keyPath] = date
            case .now?: options[keyPath: keyPath] = nil
            case .signed?, nil:
                throw InvalidValue(hint: ". Please provide 'now' or an ISO 8601 date-time such as \(example).")
            }
        }
    }

    /// `--pki <directory>`, required: the test PKI directory that `mint token` and `mint receipt` sign with.
    static func pki(help: String, _ keyPath: WritableKeyPath<Options, String> & Sendable) -> Self {
        .value("--pki", label: "<directory>", help: help, required: true) { options, string throws(InvalidValue) in
            options[keyPath: keyPath] = try OptionValue.nonEmpty(string)
        }
    }

    /// `--out <path>`: where `mint pki` (a directory, required) and `mint receipt` (a file) write.
    static func out(
        label: String, help: String, defaultValue: String? = nil, required: Bool,
        set: @escaping @Sendable (inout Options, String) -> Void
    ) -> Self {
        .value("--out", label: label, help: help, defaultValue: defaultValue, required: required) {
            options, string throws(InvalidValue) in
            set(&options, try OptionValue.nonEmpty(string))
        }
    }

    /// `--device-guid <hex>`: the device identifier an app receipt is bound to (`receipt`, `mint receipt`), read by
    /// ``AppReceiptVerifier/deviceIdentifier(hex:)``.
    static func deviceGuid(help: String, _ keyPath: WritableKeyPath<Options, [UInt8]?> & Sendable) -> Self {
        .value("--device-guid", label: "<hex>", help: help) { options, string throws(InvalidValue) in
            guard let bytes = AppReceiptVerifier.deviceIdentifier(hex: string) else {
                throw InvalidValue(
                    hint: ". Please provide the identifier's bytes in hex (0a1b2c3d4e5f), as a UUID"
                        + " (E621E1F8-C36C-495A-93FC-0C247A3E6E5F) or as a MAC address (0a:1b:2c:3d:4e:5f), at most"
                        + " \(AppReceiptVerifier.maximumDeviceIdentifierBytes) bytes.")
            }
            options[keyPath: keyPath] = bytes
        }
    }
}

/// Option names that two subcommands declare with different values or help, written once.
enum OptionName {
    /// `--at`: a validation time (verify's trust options), or the time entitlements are evaluated at (`ledger`).
    static let at = "--at"
    /// `--progress`: progress lines on standard error (`batch`, `ledger import`).
    static let progress = "--progress"
    /// `--app-account-token`: a UUID (`sign offer-v1`, `ledger entitlements`).
    static let appAccountToken = "--app-account-token"
}
