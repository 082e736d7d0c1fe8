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
}
