import Foundation
import JWSVerify
import JWSVerifyTesting

extension Subcommand {
    /// `jwsverify mint`, the group of `mint pki`, `mint token` and `mint receipt`.
    static let mint = Subcommand(path: "mint")
}

/// `jwsverify mint`: the group of ``MintPKICommand``, ``MintTokenCommand`` and ``MintReceiptCommand``, which runs nothing
/// itself, and what its subcommands share.
enum MintCommand {
    /// `mint` in ``CommandRegistry``: without a subcommand it shows its help, as argument-parser's groups do.
    static let definition = CommandDefinition(
        .mint, summary: "Make a test PKI and App Store-like signed tokens and app receipts for your tests.",
        help: HelpContent(
            overview: "Make a test PKI and signed test tokens that look exactly like the App Store's.",
            discussion: "For integration tests of a server that verifies App Store tokens or app receipts, without a"
                + " device or Apple's sandbox. 'mint pki' writes a test root, intermediate and leaf; 'mint token' signs"
                + " transactions, renewal infos, app transactions, notifications and realtime requests with them;"
                + " 'mint receipt' signs StoreKit 1 app receipts with the RSA PKI of 'mint pki --receipt'. They"
                + " verify only where the test root is trusted: never deploy it to production.",
            argument: nil, exitCodes: []),
        options: [OptionDeclaration<Never>](), parse: parse, execute: { _, _ in nil })

    /// Parses `mint` followed by something that is not one of its subcommands (those are found first).
    ///
    /// - Returns: the help of `mint` when nothing follows; else `Unknown option` or `Unknown subcommand`.
    @Sendable static func parse(_ arguments: ArraySlice<String>) -> Result<Command, UsageError> {
        guard let word = arguments.first else { return .success(.help(.mint)) }
        if CommandLineGrammar.isOptionLike(word) {
            return .failure(CommandLineGrammar.unknownOption(CommandLineGrammar.split(word).name, subcommand: .mint))
        }
        let expected = CommandRegistry.children(of: .mint).map { "'\(CommandRegistry.lastWord($0.subcommand))'" }
        return .failure(
            UsageError(
                message: "Unknown subcommand '\(word)'; expected \(OptionValue.alternatives(expected))",
                subcommand: .mint))
    }

    /// `Error: <message>` on standard error (escaped: it may quote a key's, a request's or a token's bytes), exit 1.
    static func failure(_ message: String) -> CommandResult {
        CommandResult(stderr: "Error: \(EscapedText.escaped(message))\n", status: ExitCode.notVerified)
    }

    /// `text` as one POSIX shell word: unchanged when it has only safe characters, else in single quotes.
    @Sendable static func shellQuoted(_ text: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=+,@%")
        if !text.isEmpty, text.allSatisfy(safe.contains) { return text }
        return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Why `mint token` (`receipts` false) or `mint receipt` cannot use the `--pki` directory, with the command that
    /// makes one.
    static func loadFailure(_ error: TestPKIDirectory.LoadError, path: String, receipts: Bool) -> InputFailure {
        let option = receipts ? MintReceiptCommand.pki.name : MintTokenCommand.pki.name
        let hint =
            "; make one with '\(HelpText.program) \(Subcommand.mintPKI.path)"
            + (receipts ? " \(MintPKICommand.receipt.name)" : "") + " \(MintPKICommand.out.name) \(shellQuoted(path))'"
        let shown = receipts ? EscapedText.escaped(path) : path
        switch error {
        case .noSuchDirectory where !receipts:
            return InputFailure(message: "cannot open \(option) directory '\(path)': no such directory" + hint)
        case .noSuchDirectory, .notADirectory:
            return InputFailure(message: "\(option) '\(shown)' is not a directory" + hint)
        case .missingFiles(let missing):
            return InputFailure(
                message: "\(option) directory '\(path)' has no \(missing.joined(separator: ", "))" + hint)
        case .unreadable(let underlying):
            return InputFailure(
                message: "cannot load the \(receipts ? "receipt " : "")test PKI in \(option) directory '\(shown)':"
                    + " \(underlying)" + (receipts ? hint : ""))
        }
    }
}
