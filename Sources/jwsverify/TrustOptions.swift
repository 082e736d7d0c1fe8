import Foundation
import JWSVerify

/// The trust options of ``VerifyOptions`` (`--root`, `--bundle-id`, `--app-apple-id`, `--environment`,
/// `--xcode-certificate`, `--at`), which `verify`, `batch` and `receipt` share, declared once (``TrustOptionGroup``).
extension VerifyOptions {
    /// Why the trust options configure no verifier.
    enum ConfigurationFailure: Error {
        /// A certificate file cannot be read or is empty (exit 66).
        case input(InputFailure)
        /// The library refuses the configuration: its error in the words of the flags and files given (exit 64).
        case refused(String)

        /// What is wrong, in one sentence.
        var message: String {
            switch self {
            case .input(let failure): return failure.message
            case .refused(let message): return message
            }
        }

        /// The result to exit with.
        func result(subcommand: Subcommand) -> CommandResult {
            switch self {
            case .input(let failure): return .inputFailure(failure)
            case .refused(let message): return .usage(UsageError(message: message, subcommand: subcommand))
            }
        }
    }

    /// Reads the `--root` and `--xcode-certificate` files and configures a verifier of `signedData` (`tokens`,
    /// `receipts`) with them.
    ///
    /// - Parameters:
    ///   - signedData: What the verifier verifies, as the refusal names it.
    ///   - make: Configures the verifier from the files' contents; the library's error when it refuses.
    /// - Returns: the verifier, or why there is none.
    func configure<Runner>(
        signedData: String,
        _ make: (_ roots: [VerificationRunner.RootFile], _ xcodeCertificate: Data?) -> Result<Runner, VerificationError>
    ) -> Result<Runner, ConfigurationFailure> {
        switch Self.readCertificateFiles(roots: roots, xcodeCertificate: xcodeCertificate) {
        case .failure(let failure): return .failure(.input(failure))
        case .success(let files):
            return make(files.roots, files.xcodeCertificate).mapError { error in
                .refused(
                    FlagAdvice.configurationMessage(
                        error, roots: files.roots, xcodeCertificatePath: xcodeCertificate,
                        xcodeCertificate: files.xcodeCertificate, signedData: signedData))
            }
        }
    }
}

/// How a subcommand words the help of the trust options: the texts differ between tokens and receipts, the
/// names, value labels and parsing do not.
struct TrustOptionHelp: Sendable {
    /// `--root`'s default, as help shows it.
    var rootDefault: String
    /// `--bundle-id`'s help.
    var bundleId: String
    /// `--bundle-id`'s default, as help shows it; nil when it is required.
    var bundleIdDefault: String? = "not checked; the report says so"
    /// `--app-apple-id`'s help, given `--environment`'s name.
    var appAppleId: @Sendable (_ environment: String) -> String
    /// `--app-apple-id`'s default, if help shows one.
    var appAppleIdDefault: String?
    /// The values `--environment` accepts, in canonical spelling and help order.
    var environmentValues: [AppStoreEnvironment]
    /// `--environment`'s help after the list of values.
    var environment: String
    /// `--environment`'s default, as help shows it.
    var environmentDefault: String
    /// `--xcode-certificate`'s help, given `--environment`'s name.
    var xcodeCertificate: @Sendable (_ environment: String) -> String
    /// `--at`'s help.
    var at: String
}

/// The trust options' declarations for one subcommand, whose help words them its own way.
struct TrustOptionGroup: Sendable {
    let root: OptionDeclaration<VerifyOptions>
    let bundleId: OptionDeclaration<VerifyOptions>
    let appAppleId: OptionDeclaration<VerifyOptions>
    let environment: OptionDeclaration<VerifyOptions>
    let xcodeCertificate: OptionDeclaration<VerifyOptions>
    let at: OptionDeclaration<VerifyOptions>

    /// The declarations, in help order.
    var declarations: [OptionDeclaration<VerifyOptions>] {
        [root, bundleId, appAppleId, environment, xcodeCertificate, at]
    }

    /// Declares the group with a subcommand's help.
    init(_ help: TrustOptionHelp) {
        typealias Declaration = OptionDeclaration<VerifyOptions>
        environment = Declaration.environment(
            values: help.environmentValues.map(\.rawValue), help: help.environment,
            defaultValue: help.environmentDefault, repeats: true
        ) { options, canonical in
            let environment = AppStoreEnvironment(rawValue: canonical)
            if !options.environments.contains(environment) { options.environments.append(environment) }
        }
        root = Declaration.root(
            help: "A trusted root certificate, DER or PEM; repeat for several.", defaultValue: help.rootDefault,
            \.roots)
        bundleId = Declaration.bundleId(
            help: help.bundleId, defaultValue: help.bundleIdDefault, allowsEmpty: true, \.bundleId)
        appAppleId = Declaration.appAppleId(
            help: help.appAppleId(environment.name), defaultValue: help.appAppleIdDefault, \.appAppleId)
        xcodeCertificate = Declaration.xcodeCertificate(
            help: help.xcodeCertificate(environment.name), \.xcodeCertificate)
        at = Declaration.at(help: help.at, \.at)
    }

    /// The usage error of trust options that contradict each other: `--xcode-certificate` without
    /// `--environment Xcode`.
    func conflict(_ options: VerifyOptions, subcommand: Subcommand) -> UsageError? {
        guard options.xcodeCertificate != nil && !options.environments.contains(.xcode) else { return nil }
        return UsageError(
            message: "'\(xcodeCertificate.name)' requires '\(environment.name) \(AppStoreEnvironment.xcode.rawValue)'",
            subcommand: subcommand)
    }
}

extension VerifyOptions {
    /// Reads the `--root` and `--xcode-certificate` files (``readCertificate(_:option:)``).
    ///
    /// - Parameters:
    ///   - roots: The `--root` paths, in order.
    ///   - xcodeCertificate: The `--xcode-certificate` path, if one was given.
    /// - Returns: the files' contents, or the ``InputFailure`` (exit 66) of the first that cannot be read.
    static func readCertificateFiles(
        roots: [String], xcodeCertificate: String?
    ) -> Result<(roots: [VerificationRunner.RootFile], xcodeCertificate: Data?), InputFailure> {
        var files: [VerificationRunner.RootFile] = []
        for path in roots {
            switch readCertificate(path, option: VerifyCommand.trust.root.name) {
            case .failure(let failure): return .failure(failure)
            case .success(let data): files.append(.init(path: path, contents: data))
            }
        }
        guard let path = xcodeCertificate else { return .success((files, nil)) }
        return readCertificate(path, option: VerifyCommand.trust.xcodeCertificate.name).map { (files, $0) }
    }

    /// Reads a certificate file given with `--root` or `--xcode-certificate`, at most 1 MiB.
    ///
    /// - Returns: the bytes; an ``InputFailure`` (exit 66) naming the option and the file: `--root /x: cannot open:
    ///   No such file or directory`, `--root /x: empty file, not a certificate`, `--root /x: over 1048576 bytes`.
    static func readCertificate(_ path: String, option: String) -> Result<Data, InputFailure> {
        ByteSource.open(path: path, option: option).flatMap { input in
            input.readWhole(limit: 1 << 20).flatMap { bytes in
                bytes.isEmpty
                    ? .failure(InputFailure(message: "\(input.name): empty file, not a certificate"))
                    : .success(Data(bytes))
            }
        }
    }
}
