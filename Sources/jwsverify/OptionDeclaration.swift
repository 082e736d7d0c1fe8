/// Why an option's value was refused: the hint appended to `The value 'x' is invalid for '--name <label>'`.
///
/// An empty hint on an option with ``OptionDeclaration/allowedValues`` becomes
/// `. Please provide one of 'a', 'b' and 'c'.`, derived from those values.
struct InvalidValue: Error, Equatable, Sendable {
    /// The text after the message: empty, or a sentence starting with `. `.
    var hint: String

    /// A refusal, with an optional hint such as `. Please provide a number from 1 to 10.`.
    init(hint: String = "") {
        self.hint = hint
    }
}

/// One command-line option, declared once: its names, value, help, default, allowed values, and how it
/// sets the options of its subcommand.
///
/// Parsing (``CommandLineGrammar/parseOptions(_:declarations:into:subcommand:)``), the help screens,
/// the synopsis and the usage errors all read these declarations, as `swift-argument-parser` derives
/// them from `@Option(help:)`; no option's name is written anywhere else.
@dynamicMemberLookup
struct OptionDeclaration<Options>: Sendable {
    /// Everything but the setter: names, value label, help, default, allowed values (read through
    /// dynamic members: `declaration.name`, `declaration.help`, ...).
    let summary: OptionSummary
    /// Parses the value (an empty string for a flag) into the options, or throws why it is refused.
    let apply: @Sendable (inout Options, String) throws(InvalidValue) -> Void

    /// A field of the summary.
    subscript<Value>(dynamicMember field: KeyPath<OptionSummary, Value>) -> Value { summary[keyPath: field] }

    /// Whether a spelled name (`--quiet`, `-q`) names this option.
    func isNamed(_ spelled: String) -> Bool {
        spelled == summary.name || spelled == summary.shortName
    }

    /// Declares an option that takes a value.
    ///
    /// - Parameters:
    ///   - name: The long name, `--name`.
    ///   - label: The value placeholder, `<n>`.
    ///   - help: The help text.
    ///   - defaultValue: The default shown in help, if any.
    ///   - allowedValues: The accepted values, listed when a value is refused.
    ///   - repeats: Whether every value is kept.
    ///   - required: Whether the subcommand needs it.
    ///   - apply: Parses a value into the options; throws ``InvalidValue`` for a bad one.
    /// - Returns: the declaration.
    static func value(
        _ name: String, label: String, help: String, defaultValue: String? = nil, allowedValues: [String] = [],
        repeats: Bool = false, required: Bool = false,
        apply: @escaping @Sendable (inout Options, String) throws(InvalidValue) -> Void
    ) -> Self {
        OptionDeclaration(
            summary: OptionSummary(
                name: name, shortName: nil, valueLabel: label, help: help, defaultValue: defaultValue,
                allowedValues: allowedValues, repeats: repeats, isRequired: required),
            apply: apply)
    }

    /// Declares a flag: an option without a value that sets a `Bool` to true.
    ///
    /// - Parameters:
    ///   - name: The long name, `--name`.
    ///   - shortName: The short name, `-n`, if any.
    ///   - help: The help text.
    ///   - keyPath: The property it sets.
    /// - Returns: the declaration.
    static func flag(
        _ name: String, shortName: String? = nil, help: String, _ keyPath: WritableKeyPath<Options, Bool> & Sendable
    ) -> Self {
        OptionDeclaration(
            summary: OptionSummary(
                name: name, shortName: shortName, valueLabel: nil, help: help, defaultValue: nil, allowedValues: [],
                repeats: false, isRequired: false),
            apply: { options, _ in options[keyPath: keyPath] = true })
    }

    /// The same option setting a part of larger options: `ledger import` takes verify's trust options, declared
    /// once, into the verifier part of its own.
    func lifted<Outer>(_ keyPath: WritableKeyPath<Outer, Options> & Sendable) -> OptionDeclaration<Outer> {
        let apply = self.apply
        return OptionDeclaration<Outer>(summary: summary) { outer, value throws(InvalidValue) in
            try apply(&outer[keyPath: keyPath], value)
        }
    }

    /// The same option with another help text (`batch` words `--json` and `--quiet` its own way).
    func withHelp(_ help: String) -> Self {
        var summary = summary
        summary.help = help
        return OptionDeclaration(summary: summary, apply: apply)
    }
}

/// What help screens and the synopsis know of an option: an ``OptionDeclaration`` without its setter.
struct OptionSummary: Equatable, Sendable {
    /// The long name.
    var name: String
    /// The short name, if any.
    var shortName: String?
    /// The value placeholder; nil for a flag.
    var valueLabel: String?
    /// The help text.
    var help: String
    /// The default shown in help, if any.
    var defaultValue: String?
    /// The accepted values, if restricted.
    var allowedValues: [String]
    /// Whether every value is kept.
    var repeats: Bool
    /// Whether the subcommand needs it.
    var isRequired: Bool

    /// `--root <file>`, or `--json` for a flag.
    var spelling: String { valueLabel.map { "\(name) \($0)" } ?? name }

    /// The label of its help row: `-q, --quiet` or `--root <file>`.
    var helpLabel: String { shortName.map { "\($0), \(spelling)" } ?? spelling }

    /// The description of its help row: the help, then `(default: …)` when there is a default.
    var helpDescription: String { defaultValue.map { "\(help) (default: \($0))" } ?? help }

    /// Its synopsis word: `--out <directory>` when required, else `[--seed <n>]`, with `...` when it repeats.
    var synopsis: String {
        let word = spelling + (repeats ? " ..." : "")
        return isRequired ? word : "[\(word)]"
    }
}

/// Value parsers that several declarations use.
enum OptionValue {
    /// `a, b or c`, as help texts list alternatives.
    static func alternatives(_ values: [String]) -> String {
        guard values.count > 1 else { return values.joined() }
        return values.dropLast().joined(separator: ", ") + " or " + values[values.count - 1]
    }

    /// The string itself, refused when empty.
    static func nonEmpty(_ string: String) throws(InvalidValue) -> String {
        guard !string.isEmpty else { throw InvalidValue() }
        return string
    }

    /// A decimal whole number in `range`; anything else (a sign, letters, overflow) is refused with the range.
    static func number<N: FixedWidthInteger>(_ string: String, in range: ClosedRange<N>) throws(InvalidValue) -> N {
        guard let number = N(string, radix: 10), range.contains(number) else {
            throw InvalidValue(hint: ". Please provide a whole number from \(range.lowerBound) to \(range.upperBound).")
        }
        return number
    }

    /// The value among `values` that equals `string` ignoring letter case, in its canonical spelling.
    static func caseInsensitiveChoice(_ string: String, of values: [String]) throws(InvalidValue) -> String {
        guard let canonical = values.first(where: { $0.lowercased() == string.lowercased() }) else {
            throw InvalidValue()
        }
        return canonical
    }
}
