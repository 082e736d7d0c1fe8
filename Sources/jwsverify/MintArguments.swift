import Foundation
import JWSVerify
import JWSVerifyTesting

/// The options of `mint pki`, exactly as given on the command line.
struct MintPKIOptions: Equatable, Sendable {
    /// `--out`: the directory to write.
    var out: String
    /// `--seed`: makes keys and serial numbers repeatable; nil for random.
    var seed: UInt64?
    /// `--force`: replace existing files.
    var force = false
}

/// The options of `mint token`, exactly as given on the command line.
///
/// A nil field takes the library's default (``PayloadParameters``).
struct MintTokenOptions: Equatable, Sendable {
    /// `--pki`: a directory written by `mint pki`.
    var pki: String
    /// `--kind`.
    var kind: TestPayloadKind
    /// `--type`: the notification type.
    var notificationType: String?
    /// `--subtype`: the notification subtype.
    var notificationSubtype: String?
    /// `--bundle-id`.
    var bundleId: String?
    /// `--app-apple-id`.
    var appAppleId: Int64?
    /// `--environment`, canonical spelling (`Sandbox` or `Production`).
    var environment: String?
    /// `--product-id`.
    var productId: String?
    /// `--signed-date`; nil for now.
    var signedDate: Date?
    /// `--set` assignments, in order, as written (`key=value`, dotted keys for nested members).
    var assignments: [String] = []
    /// `--payload`: a JSON object file merged into the payload.
    var payloadFile: String?
    /// `--count`.
    var count = 1
    /// `--seed`: makes identifiers repeatable; nil for random.
    var seed: UInt64?

    /// The library's parameters: the given values, the library's defaults for the rest. Giving
    /// `--type` without `--subtype` means no subtype (the default subtype belongs to the default type).
    var parameters: PayloadParameters {
        var parameters = PayloadParameters(signedDate: signedDate, seed: seed)
        if let bundleId { parameters.bundleId = bundleId }
        if let appAppleId { parameters.appAppleId = appAppleId }
        if let environment { parameters.environment = environment }
        if let productId { parameters.productId = productId }
        if let notificationType {
            parameters.notificationType = notificationType
            parameters.notificationSubtype = nil
        }
        if let notificationSubtype { parameters.notificationSubtype = notificationSubtype }
        return parameters
    }
}

extension Arguments {
    /// The values `mint token --kind` accepts.
    static let mintKindValues = TestPayloadKind.allCases.map(\.rawValue)
    /// The values `mint token --environment` accepts, in canonical spelling.
    static let mintEnvironmentValues = ["Sandbox", "Production"]
    /// The most tokens one `mint token` run makes: the library's identifiers stay distinct up to this count.
    static let maximumMintCount = 100_000

    /// Reads the value of an option, reporting a missing one as a usage error.
    private static func take(
        _ value: () -> Result<String, UsageError>, _ apply: (String) -> UsageError?
    ) -> UsageError? {
        switch value() {
        case .success(let string): return apply(string)
        case .failure(let error): return error
        }
    }

    /// `The value 'x' is invalid for '--name <label>'` with an optional hint.
    private static func invalid(
        _ value: String, _ name: String, _ subcommand: Subcommand, _ hint: String = ""
    ) -> UsageError {
        UsageError(
            message: "The value '\(value)' is invalid for '\(HelpText.valueLabel(name))'\(hint)", subcommand: subcommand
        )
    }

    /// The error for an option that `mint` subcommands do not know.
    private static func unknownOption(_ name: String, _ subcommand: Subcommand) -> UsageError {
        if name == "--version" {
            return UsageError(
                message: "Unknown option '--version' (it belongs before the subcommand)", subcommand: subcommand)
        }
        return UsageError(message: "Unknown option '\(name)'", subcommand: subcommand)
    }

    /// Parses a `--seed` value: a decimal 64-bit unsigned integer.
    private static func seed(_ string: String, _ subcommand: Subcommand) -> Result<UInt64, UsageError> {
        guard let seed = UInt64(string) else {
            return .failure(
                invalid(string, "--seed", subcommand, ". Please provide a number from 0 to \(UInt64.max)."))
        }
        return .success(seed)
    }

    /// Parses the arguments after `mint pki`.
    static func parseMintPKI(_ arguments: ArraySlice<String>) -> Result<MintPKIOptions, UsageError> {
        let subcommand = Subcommand.mintPKI
        var out: String?
        var seed: UInt64?
        var force = false
        let walked = walk(arguments, subcommand: subcommand) { name, value, inline in
            switch name {
            case "--out":
                return take(value) { string in
                    guard !string.isEmpty else { return invalid(string, name, subcommand) }
                    out = string
                    return nil
                }
            case "--seed":
                return take(value) { string in
                    switch Self.seed(string, subcommand) {
                    case .success(let number): seed = number
                    case .failure(let error): return error
                    }
                    return nil
                }
            case "--force":
                guard inline == nil else {
                    return UsageError(message: "Unexpected value for flag '\(name)'", subcommand: subcommand)
                }
                force = true
                return nil
            default:
                return unknownOption(name, subcommand)
            }
        }
        switch walked {
        case .failure(let error): return .failure(error)
        case .success(let positionals):
            if let first = positionals.first {
                return .failure(UsageError(message: "Unexpected argument '\(first)'", subcommand: subcommand))
            }
        }
        guard let out else {
            return .failure(
                UsageError(
                    message: "Missing expected argument '\(HelpText.valueLabel("--out"))'", subcommand: subcommand))
        }
        return .success(MintPKIOptions(out: out, seed: seed, force: force))
    }

    /// Parses the arguments after `mint token`.
    static func parseMintToken(_ arguments: ArraySlice<String>) -> Result<MintTokenOptions, UsageError> {
        let subcommand = Subcommand.mintToken
        var pki: String?
        var kind: TestPayloadKind?
        var options = MintTokenOptions(pki: "", kind: .transaction)
        let walked = walk(arguments, subcommand: subcommand) { name, value, _ in
            func text(_ set: (String) -> Void) -> UsageError? {
                take(value) { string in
                    guard !string.isEmpty else { return invalid(string, name, subcommand) }
                    set(string)
                    return nil
                }
            }
            switch name {
            case "--pki": return text { pki = $0 }
            case "--kind":
                return take(value) { string in
                    guard let value = TestPayloadKind(name: string) else {
                        return invalid(string, name, subcommand, ". Please provide one of \(listed(mintKindValues)).")
                    }
                    kind = value
                    return nil
                }
            case "--type":
                return take(value) { string in
                    guard NotificationTypeV2(rawValue: string).name != nil else {
                        return invalid(
                            string, name, subcommand,
                            ". Please provide a notificationType Apple documents, such as 'DID_RENEW'; to send any"
                                + " other value, use '--set notificationType=\(string)'.")
                    }
                    options.notificationType = string
                    return nil
                }
            case "--subtype":
                return take(value) { string in
                    guard Subtype(rawValue: string).name != nil else {
                        return invalid(
                            string, name, subcommand,
                            ". Please provide a subtype Apple documents, such as 'BILLING_RECOVERY'; to send any other"
                                + " value, use '--set subtype=\(string)'.")
                    }
                    options.notificationSubtype = string
                    return nil
                }
            case "--bundle-id": return text { options.bundleId = $0 }
            case "--product-id": return text { options.productId = $0 }
            case "--app-apple-id":
                return take(value) { string in
                    guard let number = Int64(string), number >= 0 else { return invalid(string, name, subcommand) }
                    options.appAppleId = number
                    return nil
                }
            case "--environment":
                return take(value) { string in
                    guard
                        let canonical = mintEnvironmentValues.first(where: { $0.lowercased() == string.lowercased() })
                    else {
                        return invalid(
                            string, name, subcommand, ". Please provide one of \(listed(mintEnvironmentValues)).")
                    }
                    options.environment = canonical
                    return nil
                }
            case "--signed-date":
                return take(value) { string in
                    switch parseTime(string) {
                    case .fixed(let date)?: options.signedDate = date
                    case .now?: options.signedDate = nil
                    case .signed?, nil:
                        return invalid(
                            string, name, subcommand,
                            ". Please provide 'now' or an ISO 8601 date-time such as 2023-01-05T21:22:34Z.")
                    }
                    return nil
                }
            case "--set":
                return take(value) { string in
                    do {
                        _ = try PayloadOverrides.parsePathAssignment(string)
                    } catch {
                        return invalid(
                            string, name, subcommand,
                            ". Please provide key=value, such as quantity=2 or data.status=2 for a nested field.")
                    }
                    options.assignments.append(string)
                    return nil
                }
            case "--payload": return text { options.payloadFile = $0 }
            case "--count":
                return take(value) { string in
                    guard let count = Int(string), (1...maximumMintCount).contains(count) else {
                        return invalid(
                            string, name, subcommand, ". Please provide a number from 1 to \(maximumMintCount).")
                    }
                    options.count = count
                    return nil
                }
            case "--seed":
                return take(value) { string in
                    switch Self.seed(string, subcommand) {
                    case .success(let number): options.seed = number
                    case .failure(let error): return error
                    }
                    return nil
                }
            default:
                return unknownOption(name, subcommand)
            }
        }
        switch walked {
        case .failure(let error): return .failure(error)
        case .success(let positionals):
            if let first = positionals.first {
                return .failure(UsageError(message: "Unexpected argument '\(first)'", subcommand: subcommand))
            }
        }
        guard let pki else {
            return .failure(
                UsageError(
                    message: "Missing expected argument '\(HelpText.valueLabel("--pki"))'", subcommand: subcommand))
        }
        guard let kind else {
            return .failure(
                UsageError(
                    message: "Missing expected argument '\(HelpText.valueLabel("--kind"))'", subcommand: subcommand))
        }
        if kind != .notification {
            for (given, option) in [(options.notificationType, "--type"), (options.notificationSubtype, "--subtype")]
            where given != nil {
                return .failure(
                    UsageError(message: "'\(option)' requires '--kind notification'", subcommand: subcommand))
            }
        }
        options.pki = pki
        options.kind = kind
        return .success(options)
    }
}
