import Foundation
import JWSVerify

/// What a verifier of signed data (a token or an app receipt) trusts and expects, exactly as given on the
/// command line: the options `verify`, `batch` and `receipt` share, declared once (``TrustOptionGroup``).
@dynamicMemberLookup
struct TrustOptions: Equatable, Sendable {
    /// `--root` files, in order; empty means the bundled root of what is verified.
    var roots: [String] = []
    /// `--bundle-id`.
    var bundleId: String?
    /// `--app-apple-id`.
    var appAppleId: Int64?
    /// `--environment`, each given once, in canonical spelling; empty when not configured.
    var environments: [AppStoreEnvironment] = []
    /// `--xcode-certificate`.
    var xcodeCertificate: String?
    /// `--at`.
    var at: ValidationTimeOption = .signed

    /// The only `--environment`, or nil when none or several were given.
    var environment: AppStoreEnvironment? {
        get { environments.count == 1 ? environments[0] : nil }
        set { environments = newValue.map { [$0] } ?? [] }
    }

    /// Reads a trust option through the options that hold it (`options.roots`).
    subscript<Value>(dynamicMember field: WritableKeyPath<TrustOptions, Value>) -> Value {
        get { self[keyPath: field] }
        set { self[keyPath: field] = newValue }
    }
}

extension TrustOptions {
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
        switch TokenInput.readCertificateFiles(roots: roots, xcodeCertificate: xcodeCertificate) {
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

/// The trust options' declarations for one subcommand, whose options hold a ``TrustOptions``.
struct TrustOptionGroup<Options>: Sendable {
    /// `--root <file>`.
    let root: OptionDeclaration<Options>
    /// `--bundle-id <id>`.
    let bundleId: OptionDeclaration<Options>
    /// `--app-apple-id <n>`.
    let appAppleId: OptionDeclaration<Options>
    /// `--environment <environment>`.
    let environment: OptionDeclaration<Options>
    /// `--xcode-certificate <file>`.
    let xcodeCertificate: OptionDeclaration<Options>
    /// `--at <time>`.
    let at: OptionDeclaration<Options>

    /// The declarations, in help order.
    var declarations: [OptionDeclaration<Options>] { [root, bundleId, appAppleId, environment, xcodeCertificate, at] }

    /// Declares the group with a subcommand's help, setting the trust options at `trust`.
    init(_ help: TrustOptionHelp, _ trust: WritableKeyPath<Options, TrustOptions> & Sendable) {
        typealias Declaration = OptionDeclaration<TrustOptions>
        let environment = Declaration.environment(
            values: help.environmentValues.map(\.rawValue), help: help.environment,
            defaultValue: help.environmentDefault, repeats: true
        ) { options, canonical in
            let environment = AppStoreEnvironment(rawValue: canonical)
            if !options.environments.contains(environment) { options.environments.append(environment) }
        }
        self.environment = environment.lifted(trust)
        root = Declaration.root(
            help: "A trusted root certificate, DER or PEM; repeat for several.", defaultValue: help.rootDefault,
            \.roots
        ).lifted(trust)
        bundleId = Declaration.bundleId(
            help: help.bundleId, defaultValue: "not checked; the report says so", allowsEmpty: true, \.bundleId
        ).lifted(trust)
        appAppleId = Declaration.appAppleId(
            help: help.appAppleId(environment.name), defaultValue: help.appAppleIdDefault, \.appAppleId
        ).lifted(trust)
        xcodeCertificate = Declaration.xcodeCertificate(
            help: help.xcodeCertificate(environment.name), \.xcodeCertificate
        ).lifted(trust)
        at = Declaration.at(help: help.at, \.at).lifted(trust)
    }

    /// The usage error of trust options that contradict each other: `--xcode-certificate` without
    /// `--environment Xcode`.
    func conflict(_ options: TrustOptions, subcommand: Subcommand) -> UsageError? {
        guard options.xcodeCertificate != nil && !options.environments.contains(.xcode) else { return nil }
        return UsageError(
            message: "'\(xcodeCertificate.name)' requires '\(environment.name) \(AppStoreEnvironment.xcode.rawValue)'",
            subcommand: subcommand)
    }
}
