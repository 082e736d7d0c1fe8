import Foundation

/// The help screens and synopses of `jwsverify`, derived from ``CommandRegistry`` and laid out as
/// `swift-argument-parser` lays them out.
///
/// Sections `OVERVIEW:`, `USAGE:`, `ARGUMENTS:`, `OPTIONS:` (then `SUBCOMMANDS:` and `EXIT CODES:`), rows
/// indented by 2 with descriptions starting at column 26, wrapped at 80 columns; a label too long for
/// its column puts the description on the next line.
enum HelpText {
    /// The version `--version` prints.
    static let version = "0.1.0"
    /// The program name.
    static let program = "jwsverify"

    private static let width = 80
    private static let labelColumn = 26

    /// The one-line synopsis printed after `Usage:`, derived from the subcommand's declarations.
    ///
    /// Its words (`[verify]` for the default subcommand), `<subcommand>` for a group, the required
    /// options, the optional ones one by one when the line fits in 80 columns (else `[<options>]`), then
    /// the positional argument.
    static func synopsis(_ subcommand: Subcommand) -> String {
        let definition = CommandRegistry.definition(for: subcommand)
        let isDefault = subcommand == CommandRegistry.defaultCommand.subcommand
        var head = [program, isDefault ? "[\(subcommand.path)]" : subcommand.path]
        if !CommandRegistry.children(of: subcommand).isEmpty { head.append("<subcommand>") }
        head += definition.options.filter(\.isRequired).map(\.synopsis)
        let tail = definition.help.argument.map { ["[\($0.label)]"] } ?? []
        let optional = definition.options.filter { !$0.isRequired }.map(\.synopsis)
        let full = (head + optional + tail).joined(separator: " ")
        if optional.isEmpty || full.count <= width { return full }
        return (head + ["[<options>]"] + tail).joined(separator: " ")
    }

    /// The command that shows the help of a subcommand.
    static func helpCommand(_ subcommand: Subcommand) -> String {
        let words = subcommand == CommandRegistry.defaultCommand.subcommand ? [] : [subcommand.path]
        return ([program] + words + [CommandLineGrammar.helpNames[1]]).joined(separator: " ")
    }

    /// The help screen of a subcommand, or of the tool when nil (the default subcommand's screen with
    /// `--version` and the top-level subcommands).
    static func screen(_ subcommand: Subcommand?) -> String {
        let definition = subcommand.map(CommandRegistry.definition(for:)) ?? CommandRegistry.defaultCommand
        let help = definition.help
        var sections: [(String, [(String, String)])] = []
        if let argument = help.argument { sections.append(("ARGUMENTS", [(argument.label, argument.help)])) }
        var options = definition.options.map { ($0.helpLabel, $0.helpDescription) }
        if subcommand == nil { options.append(CommandLineGrammar.versionRow) }
        options.append(CommandLineGrammar.helpRow)
        sections.append(("OPTIONS", options))
        // The tool's screen lists the top-level subcommands, a group's screen its own.
        let children = CommandRegistry.children(of: subcommand)
        if !children.isEmpty {
            let rows = children.map { child in
                let word = CommandRegistry.lastWord(child.subcommand)
                let isDefault = subcommand == nil && child.subcommand == CommandRegistry.defaultCommand.subcommand
                return (isDefault ? "\(word) (default)" : word, child.summary)
            }
            sections.append(("SUBCOMMANDS", rows))
        }
        if !help.exitCodes.isEmpty {
            sections.append(("EXIT CODES", help.exitCodes.map { (ExitCode.label($0.code), $0.meaning) }))
        }
        var text = render(
            overview: help.overview, discussion: help.discussion, usage: synopsis(definition.subcommand),
            sections: sections)
        if !children.isEmpty {
            let path = ([program, Arguments.helpCommandWord] + (subcommand.map { [$0.path] } ?? []))
            text += "\n  See '\(path.joined(separator: " ")) <subcommand>' for detailed help.\n"
        }
        return text
    }

    private static func render(
        overview: String, discussion: String, usage: String, sections: [(String, [(String, String)])]
    ) -> String {
        var lines = wrap("OVERVIEW: " + overview, indent: 0, width: width)
        lines.append("")
        lines += wrap(discussion, indent: 0, width: width)
        lines.append("")
        // A synopsis too long for one line goes on under itself.
        let synopsis = wrap(usage, indent: 7, width: width)
        lines.append("USAGE: " + synopsis[0].dropFirst(7))
        lines += synopsis.dropFirst()
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
