/// The options that several subcommands declare under one name, each subcommand with its own help,
/// default, accepted values and property; the name, value label and parsing live here once.
extension OptionDeclaration {
    /// `--json`: JSON output (`verify`, `batch`, `inspect`).
    static func json(help: String, _ keyPath: WritableKeyPath<Options, Bool> & Sendable) -> Self {
        .flag("--json", help: help, keyPath)
    }

    /// `--kind <kind>`: the payload kind (`verify`, `batch`, `inspect`: a ``PayloadKind`` or `auto`;
    /// `mint token`: a `TestPayloadKind`).
    ///
    /// - Parameters:
    ///   - values: The accepted values, listed in help and in the error for another value.
    ///   - help: The help text after the list of values.
    ///   - defaultValue: The default shown in help, if any.
    ///   - required: Whether the subcommand needs it.
    ///   - parse: The kind a value names, nil when it names none.
    ///   - keyPath: The property it sets.
    /// - Returns: the declaration.
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
    ///
    /// - Parameters:
    ///   - help: The help text.
    ///   - defaultValue: The default shown in help, if any.
    ///   - allowsEmpty: Whether an empty value is accepted.
    ///   - keyPath: The property it sets.
    /// - Returns: the declaration.
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
            guard let number = Int64(string), number >= 0 else { throw InvalidValue() }
            options[keyPath: keyPath] = number
        }
    }

    /// `--environment <environment>`: one of `values` in any letter case, set in its canonical spelling.
    ///
    /// - Parameters:
    ///   - values: The accepted values, canonical spelling, listed in help and in the error for another value.
    ///   - help: The help text after the list of values.
    ///   - defaultValue: The default shown in help, if any.
    ///   - repeats: Whether the option may be given several times (each value is passed to `set`).
    ///   - set: Sets the property from the canonical spelling.
    /// - Returns: the declaration.
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
            guard let seed = UInt64(string) else {
                throw InvalidValue(hint: ". Please provide a number from 0 to \(UInt64.max).")
            }
            options[keyPath: keyPath] = seed
        }
    }

    /// `--root <file>`: a trusted root certificate file, DER or PEM, repeatable (`verify`, `batch`, `receipt`).
    ///
    /// - Parameters:
    ///   - help: The help text.
    ///   - defaultValue: The root used when none is given, as help shows it.
    ///   - keyPath: The list the paths are appended to, in order.
    /// - Returns: the declaration.
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
        .value("--at", label: "<time>", help: help, defaultValue: "signed") { options, string throws(InvalidValue) in
            guard let time = Arguments.parseTime(string) else {
                throw InvalidValue(
                    hint: ". Please provide 'signed', 'now' or an ISO 8601 date-time such as 2023-01-05T21:22:34Z.")
            }
            options[keyPath: keyPath] = time
        }
    }

    /// `--pki <directory>`, required: the test PKI directory that `mint token` and `mint receipt` sign with.
    static func pki(help: String, _ keyPath: WritableKeyPath<Options, String> & Sendable) -> Self {
        .value("--pki", label: "<directory>", help: help, required: true) { options, string throws(InvalidValue) in
            options[keyPath: keyPath] = try OptionValue.nonEmpty(string)
        }
    }

    /// `--out <path>`: where `mint pki` (a directory, required) and `mint receipt` (a file) write.
    ///
    /// - Parameters:
    ///   - label: The value label: `<directory>` or `<file>`.
    ///   - help: The help text.
    ///   - defaultValue: The default shown in help, if any.
    ///   - required: Whether the subcommand needs it.
    ///   - set: Sets the property from the (non-empty) path.
    /// - Returns: the declaration.
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
    /// ``OptionValue/deviceIdentifier(_:)``.
    static func deviceGuid(help: String, _ keyPath: WritableKeyPath<Options, [UInt8]?> & Sendable) -> Self {
        .value("--device-guid", label: "<hex>", help: help) { options, string throws(InvalidValue) in
            guard let bytes = OptionValue.deviceIdentifier(string) else {
                throw InvalidValue(
                    hint: ". Please provide the identifier's bytes in hex (0a1b2c3d4e5f), as a UUID"
                        + " (E621E1F8-C36C-495A-93FC-0C247A3E6E5F) or as a MAC address (0a:1b:2c:3d:4e:5f), at most"
                        + " \(OptionValue.maximumDeviceIdentifierBytes) bytes.")
            }
            options[keyPath: keyPath] = bytes
        }
    }
}

extension OptionValue {
    /// The most bytes `--device-guid` takes (an `identifierForVendor` has 16, a MAC address 6).
    static let maximumDeviceIdentifierBytes = 64

    /// The bytes of a device identifier written in hex: pairs of hex digits in either case, which `-` (the UUID
    /// form of `identifierForVendor`) or `:` (a MAC address) may separate; nil for anything else, for no digits,
    /// and for more than ``maximumDeviceIdentifierBytes`` bytes.
    static func deviceIdentifier(_ string: String) -> [UInt8]? {
        let digits = Array(string.utf8.filter { $0 != UInt8(ascii: "-") && $0 != UInt8(ascii: ":") })
        guard !digits.isEmpty, digits.count % 2 == 0, digits.count <= 2 * maximumDeviceIdentifierBytes else {
            return nil
        }
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }
}
