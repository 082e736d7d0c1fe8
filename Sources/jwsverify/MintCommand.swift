import Foundation
import JWSVerify
import JWSVerifyTesting

/// `jwsverify mint pki` and `jwsverify mint token`: a test PKI and signed test tokens, made by
/// ``TestPKI`` and ``TokenMinter`` of `JWSVerifyTesting`.
enum MintCommand {
    /// The files `mint pki` writes, in the order it lists them, with what each one is.
    static let pkiFiles: [(name: String, description: String)] = [
        (TestPKI.FileName.rootDER, "root certificate (P-384), DER: trust this one in your tests"),
        (TestPKI.FileName.rootPEM, "root certificate, PEM"),
        (TestPKI.FileName.intermediateDER, "intermediate certificate (P-384, Apple's intermediate marker), DER"),
        (TestPKI.FileName.intermediatePEM, "intermediate certificate, PEM"),
        (TestPKI.FileName.leafDER, "leaf certificate (P-256, receipt signing marker) that signs tokens, DER"),
        (TestPKI.FileName.leafPEM, "leaf certificate, PEM"),
        (TestPKI.FileName.rootKey, "root private key, PKCS#8 PEM, mode 0600"),
        (TestPKI.FileName.intermediateKey, "intermediate private key, PKCS#8 PEM, mode 0600"),
        (TestPKI.FileName.leafKey, "leaf private key, PKCS#8 PEM, mode 0600"),
    ]

    /// How many token lines are collected before they are written.
    private static let linesPerWrite = 64

    // MARK: mint pki

    /// Runs `mint pki`: generates a hierarchy and writes it, refusing to replace existing files without
    /// `--force`.
    ///
    /// - Returns: the list of files and the next commands (exit 0); a usage error when files exist
    ///   (exit 64); `Error:` and exit 1 when the PKI cannot be made or written.
    static func runPKI(_ options: MintPKIOptions) -> CommandResult {
        let directory = URL(fileURLWithPath: options.out)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            return failure("cannot write the test PKI: '\(options.out)' exists and is not a directory")
        }
        let existing = pkiFiles.map(\.name).filter { name in
            (try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)) != nil
        }
        if !existing.isEmpty, !options.force {
            return .usage(
                UsageError(
                    message: "'\(options.out)' already holds \(existing.joined(separator: ", ")); pass '--force' to"
                        + " replace the PKI files", subcommand: .mintPKI))
        }
        let pki: TestPKI
        do {
            pki = try TestPKI.generate(seed: options.seed)
            try pki.write(to: directory)
        } catch {
            return failure("cannot write the test PKI to '\(options.out)': \(error)")
        }
        return CommandResult(stdout: pkiReport(pki, directory: options.out), status: ExitCode.verified)
    }

    /// What `mint pki` prints: the files, the validity and the next commands.
    static func pkiReport(_ pki: TestPKI, directory: String) -> String {
        let width = pkiFiles.map(\.name.count).max() ?? 0
        var lines = ["Wrote a test PKI to '\(directory)' (test certificates, NOT Apple's):"]
        for file in pkiFiles {
            lines.append("  " + file.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + file.description)
        }
        lines.append(
            "Valid from \(ISO8601Text.iso8601(pki.root.notBefore)) to \(ISO8601Text.iso8601(pki.root.notAfter)).")
        lines.append("Trust \(TestPKI.FileName.rootDER) only in tests; never deploy it to production.")
        lines.append("")
        let root = URL(fileURLWithPath: directory).appendingPathComponent(TestPKI.FileName.rootDER).path
        let defaults = PayloadParameters()
        lines.append("Next, mint a token and verify it:")
        lines.append("  jwsverify mint token --pki \(shellQuoted(directory)) --kind transaction > token.txt")
        lines.append(
            "  jwsverify --root \(shellQuoted(root)) --bundle-id \(shellQuoted(defaults.bundleId))"
                + " --environment \(defaults.environment) token.txt")
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: mint token

    /// Runs `mint token`: loads the PKI and the payload file, then mints the tokens and hands them to
    /// `standardOutput`, one per line, a few lines at a time (memory stays flat whatever `--count`).
    ///
    /// - Returns: exit 0 with nothing more to print; 66 when the PKI directory or the payload file cannot
    ///   be used; 1 when a token cannot be signed (the tokens before it have been written).
    static func runToken(_ options: MintTokenOptions, standardOutput: (String) -> Void) -> CommandResult {
        let pki: TestPKI
        switch loadPKI(options.pki) {
        case .failure(let failure): return .inputFailure(failure)
        case .success(let value): pki = value
        }
        var merge: [String: JSONValue] = [:]
        if let path = options.payloadFile {
            switch readPayloadFile(path) {
            case .failure(let failure): return .inputFailure(failure)
            case .success(let object): merge = object
            }
        }
        let overrides: PayloadOverrides
        do {
            overrides = try PayloadOverrides(pathAssignments: options.assignments, merge: merge)
        } catch {
            return .usage(UsageError(message: "\(error)", subcommand: .mintToken))
        }
        var parameters = options.parameters
        // One seed for the whole run, as TokenMinter.mint(_:parameters:overrides:count:) draws it, so that
        // the tokens differ by their index.
        if parameters.seed == nil { parameters.seed = UInt64.random(in: .min ... .max) }
        let minter = TokenMinter(pki: pki)
        var pending = ""
        for index in 0..<options.count {
            do {
                let payload = try minter.defaultPayload(options.kind, parameters: parameters, index: index)
                pending += try minter.sign(overrides.apply(to: payload)) + "\n"
            } catch {
                standardOutput(pending)
                return failure("cannot sign token \(index + 1) of \(options.count): \(error)")
            }
            if (index + 1) % linesPerWrite == 0 {
                standardOutput(pending)
                pending = ""
            }
        }
        if !pending.isEmpty { standardOutput(pending) }
        return CommandResult(status: ExitCode.verified)
    }

    /// Loads the hierarchy that `mint pki` wrote, explaining what is missing.
    static func loadPKI(_ path: String) -> Result<TestPKI, InputFailure> {
        let directory = URL(fileURLWithPath: path)
        let hint = "; make one with 'jwsverify mint pki --out \(shellQuoted(path))'"
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) else {
            return .failure(InputFailure(message: "cannot open --pki directory '\(path)': no such directory" + hint))
        }
        guard isDirectory.boolValue else {
            return .failure(InputFailure(message: "--pki '\(path)' is not a directory" + hint))
        }
        func exists(_ name: String) -> Bool {
            FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path)
        }
        let names = TestPKI.FileName.self
        let missing =
            [
                (names.rootDER, names.rootPEM), (names.intermediateDER, names.intermediatePEM),
                (names.leafDER, names.leafPEM),
            ]
            .filter { !exists($0.0) && !exists($0.1) }.map(\.0)
            + [names.rootKey, names.intermediateKey, names.leafKey].filter { !exists($0) }
        guard missing.isEmpty else {
            return .failure(
                InputFailure(
                    message: "--pki directory '\(path)' has no \(missing.joined(separator: ", "))" + hint))
        }
        do {
            return .success(try TestPKI.load(from: directory))
        } catch {
            return .failure(InputFailure(message: "cannot load the test PKI in --pki directory '\(path)': \(error)"))
        }
    }

    /// Reads the `--payload` file: one JSON object (at most 16 MiB).
    static func readPayloadFile(_ path: String) -> Result<[String: JSONValue], InputFailure> {
        let limit = 16 * 1024 * 1024
        let input: ByteSource
        switch ByteSource.open(path: path, role: "--payload file ") {
        case .failure(let failure): return .failure(failure)
        case .success(let value): input = value
        }
        switch input.readAll(keepingAtMost: limit) {
        case .failure(let failure):
            return .failure(failure)
        case .success(let (bytes, total)):
            guard total <= limit else {
                return .failure(InputFailure(message: "\(input.name) is over \(limit) bytes"))
            }
            guard case .object(let members)? = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)) else {
                return .failure(InputFailure(message: "\(input.name) does not hold a JSON object"))
            }
            return .success(members)
        }
    }

    /// `Error: <message>` on standard error, exit 1.
    private static func failure(_ message: String) -> CommandResult {
        CommandResult(stderr: "Error: \(message)\n", status: ExitCode.notVerified)
    }

    /// `text` as one POSIX shell word: unchanged when it has only safe characters, else in single quotes.
    static func shellQuoted(_ text: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=+,@%")
        if !text.isEmpty, text.allSatisfy(safe.contains) { return text }
        return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
