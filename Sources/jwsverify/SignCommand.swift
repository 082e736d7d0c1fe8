import Foundation
import JWSSigning
import JWSVerify

extension Subcommand {
    /// `jwsverify sign KIND`.
    static let sign = Subcommand(path: "sign")
}

/// What `sign` signs: one of Apple's four signature creators.
enum SignKind: String, CaseIterable, Equatable, Sendable {
    /// ``PromotionalOfferV2SignatureCreator``.
    case offerV2 = "offer-v2"
    /// ``IntroductoryOfferEligibilitySignatureCreator``.
    case introEligibility = "intro-eligibility"
    /// ``AdvancedCommerceInAppSignatureCreator``.
    case advancedCommerce = "advanced-commerce"
    /// ``PromotionalOfferSignatureCreator`` (V1).
    case offerV1 = "offer-v1"
}

/// The options of `sign`, exactly as given on the command line.
struct SignOptions: Equatable, Sendable {
    /// The positional KIND.
    var kind: SignKind = .offerV2
    /// `--key`: the `.p8` file.
    var keyFile = ""
    /// `--key-id`.
    var keyId = ""
    /// `--issuer-id` (the JWS kinds).
    var issuerId: String?
    /// `--bundle-id`.
    var bundleId: String?
    /// `--product-id`.
    var productId: String?
    /// `--offer-id`.
    var offerId: String?
    /// `--transaction-id`.
    var transactionId: String?
    /// `--allow-intro-offer`.
    var allowIntroOffer: Bool?
    /// `--app-account-token` (V1).
    var appAccountToken: String?
    /// `--nonce`: nil for a fresh one.
    var nonce: UUID?
    /// `--timestamp`: milliseconds since 1970; nil for now.
    var timestamp: Int64?
    /// `--request`: the Advanced Commerce request JSON file.
    var requestFile: String?
    /// `--json`.
    var json = false
    /// `-q`, `--quiet`.
    var quiet = false
}

/// `jwsverify sign KIND`: Apple's signatures with an In-App Purchase key, made by `JWSSigning`.
enum SignCommand {
    // MARK: Options

    static let key = OptionDeclaration<SignOptions>.key(\.keyFile)

    static let keyId = OptionDeclaration<SignOptions>.keyId(\.keyId)

    static let issuerId = OptionDeclaration<SignOptions>.issuerId(
        help: "Your issuer ID (offer-v2, intro-eligibility, advanced-commerce).", \.issuerId)

    static let bundleId = OptionDeclaration<SignOptions>.bundleId(
        help: "Your app's bundle ID (required).", defaultValue: nil, allowsEmpty: false, \.bundleId)

    static let productId = OptionDeclaration<SignOptions>.productId(
        help: "The product (offer-v2, intro-eligibility, offer-v1).", \.productId)

    static let offerId = OptionDeclaration<SignOptions>.text(
        "--offer-id", label: "<id>", help: "The promotional offer's identifier (offer-v2, offer-v1).", \.offerId)

    static let transactionId = OptionDeclaration<SignOptions>.text(
        "--transaction-id", label: "<id>",
        help: "A transaction of the customer, such as their appTransactionId (offer-v2: optional; intro-eligibility).",
        \.transactionId)

    static let allowIntroOffer = OptionDeclaration<SignOptions>.value(
        "--allow-intro-offer", label: "<bool>",
        help: "Whether the customer may have the introductory offer"
            + " (intro-eligibility).", allowedValues: ["true", "false"]
    ) { options, string throws(InvalidValue) in
        guard let value = Bool(string) else { throw InvalidValue() }
        options.allowIntroOffer = value
    }

    static let appAccountToken = OptionDeclaration<SignOptions>.value(
        OptionName.appAccountToken, label: "<uuid>", help: "The purchase's app account token (offer-v1).",
        defaultValue: "none"
    ) { options, string throws(InvalidValue) in
        guard UUID(uuidString: string) != nil else { throw InvalidValue(hint: ". Please provide a UUID.") }
        options.appAccountToken = string
    }

    static let nonce = OptionDeclaration<SignOptions>.value(
        "--nonce", label: "<uuid>", help: "The nonce; give one only to reproduce a signature.", defaultValue: "fresh"
    ) { options, string throws(InvalidValue) in
        guard let uuid = UUID(uuidString: string) else { throw InvalidValue(hint: ". Please provide a UUID.") }
        options.nonce = uuid
    }

    /// `--timestamp`: up to 9999-12-31T23:59:59.999Z the milliseconds are exact through `Date`, and so is `iat`.
    static let timestamp = OptionDeclaration<SignOptions>.value(
        "--timestamp", label: "<ms>", help: "The time in milliseconds since 1970, up to 9999 (iat: its whole seconds).",
        defaultValue: "now"
    ) { options, string throws(InvalidValue) in
        options.timestamp = try OptionValue.number(string, in: 0...253_402_300_799_999)
    }

    static let request = OptionDeclaration<SignOptions>.text(
        "--request", label: "<file>", help: "The Advanced Commerce in-app request, a JSON object (advanced-commerce).",
        \.requestFile)

    static let json = OptionDeclaration<SignOptions>.json(
        help: "Print the signature with its decoded header and claims (V1: its Retention Messaging fields).", \.json)

    static let quiet = OptionDeclaration<SignOptions>.quiet(\.quiet)

    static let declarations = [
        key, keyId, issuerId, bundleId, productId, offerId, transactionId, allowIntroOffer, appAccountToken, nonce,
        timestamp, request, json, quiet,
    ]

    /// Each kind's required and accepted options beyond `--key`, `--key-id`, `--bundle-id`, `--nonce`,
    /// `--timestamp` and `--json`.
    static func options(of kind: SignKind) -> (required: [String], optional: [String]) {
        switch kind {
        case .offerV2: return ([issuerId.name, productId.name, offerId.name], [transactionId.name])
        case .introEligibility:
            return ([issuerId.name, productId.name, allowIntroOffer.name, transactionId.name], [])
        case .advancedCommerce: return ([issuerId.name, request.name], [])
        case .offerV1: return ([productId.name, offerId.name], [appAccountToken.name])
        }
    }

    // MARK: Definition

    /// `sign` in ``CommandRegistry``.
    static let definition = CommandDefinition(
        .sign, summary: "Sign with an In-App Purchase key, as Apple's signature creators do.",
        help: HelpContent(
            overview: "Make Apple's signatures with your In-App Purchase key: offer-v2, intro-eligibility,"
                + " advanced-commerce (JWS) or offer-v1 (base64 DER).",
            discussion: "Prints the signature alone. offer-v2: --issuer-id --product-id --offer-id [--transaction-id];"
                + " intro-eligibility: --issuer-id --product-id --allow-intro-offer --transaction-id;"
                + " advanced-commerce:"
                + " --issuer-id --request; offer-v1: --product-id --offer-id [--app-account-token]. The key never"
                + " appears in any output.",
            argument: ArgumentDeclaration(
                label: "<kind>", help: OptionValue.alternatives(SignKind.allCases.map(\.rawValue)) + "."),
            exitCodes: [
                (ExitCode.verified, "Signed."),
                (ExitCode.notVerified, "The key is not a PKCS #8 P-256 private key, or signing failed."),
                (ExitCode.usage, "Usage error."),
                (ExitCode.noInput, "The key or request file is missing, unreadable or invalid."),
            ]),
        options: declarations, parse: parse,
        execute: { command, io in
            guard case .sign(let options) = command else { return nil }
            return io.quieted(options.quiet).emit(run(options))
        })

    /// Parses the arguments after `sign`: one KIND, the common options, and that kind's.
    @Sendable static func parse(_ arguments: ArraySlice<String>) -> Result<Command, UsageError> {
        CommandLineGrammar.parseOptions(arguments, declarations: declarations, into: SignOptions(), subcommand: .sign)
            .flatMap { parsed -> Result<Command, UsageError> in
                func usage(_ message: String) -> Result<Command, UsageError> {
                    .failure(UsageError(message: message, subcommand: .sign))
                }
                let kinds = OptionValue.alternatives(SignKind.allCases.map { "'\($0.rawValue)'" })
                guard let word = parsed.positionals.first else { return usage("Missing <kind>: \(kinds)") }
                guard let kind = SignKind(rawValue: word) else {
                    return usage("Unknown kind '\(word)'; expected \(kinds)")
                }
                if parsed.positionals.count > 1 { return usage("Unexpected argument '\(parsed.positionals[1])'") }
                var options = parsed.options
                options.kind = kind
                let (required, optional) = Self.options(of: kind)
                let common = [key.name, keyId.name, bundleId.name, nonce.name, timestamp.name, json.name, quiet.name]
                for name in [key.name, keyId.name, bundleId.name] + required where !parsed.given.contains(name) {
                    return usage("Missing '\(name)' for '\(kind.rawValue)'")
                }
                for name in parsed.given where !(common + required + optional).contains(name) {
                    return usage("'\(name)' does not apply to '\(kind.rawValue)'")
                }
                return .success(.sign(options))
            }
    }

    // MARK: Run

    /// Reads the key (and the request), signs, and prints the signature (or its JSON).
    static func run(_ options: SignOptions) -> CommandResult {
        let signingKey: ES256SigningKey
        switch Self.signingKey(options.keyFile) {
        case .failure(let failure): return failure
        case .success(let key): signingKey = key
        }
        let now = options.timestamp.map { Date(timeIntervalSince1970: Double($0) / 1000) } ?? Date()
        let inputs = SignatureInputs.fixed(nonce: options.nonce ?? UUID(), now: now)
        let bundle = options.bundleId ?? "", issuer = options.issuerId ?? ""
        do {
            switch options.kind {
            case .offerV2:
                let creator = PromotionalOfferV2SignatureCreator(
                    signingKey: signingKey, keyId: options.keyId, issuerId: issuer, bundleId: bundle
                ).with(inputs)
                return printed(
                    try creator.createSignature(
                        productId: options.productId ?? "", offerIdentifier: options.offerId ?? "",
                        transactionId: options.transactionId), options)
            case .introEligibility:
                let creator = IntroductoryOfferEligibilitySignatureCreator(
                    signingKey: signingKey, keyId: options.keyId, issuerId: issuer, bundleId: bundle
                ).with(inputs)
                return printed(
                    try creator.createSignature(
                        productId: options.productId ?? "", allowIntroductoryOffer: options.allowIntroOffer ?? false,
                        transactionId: options.transactionId ?? ""), options)
            case .advancedCommerce:
                // Its bytes are signed as they are: the strict parser refuses a member Apple might read either way.
                let json: [UInt8]
                switch ByteSource.open(path: options.requestFile ?? "", option: request.name).flatMap({
                    $0.readJSONObject(limit: 1 << 20)
                }) {
                case .failure(let failure): return .inputFailure(failure)
                case .success(let read): json = read.bytes
                }
                let creator = AdvancedCommerceInAppSignatureCreator(
                    signingKey: signingKey, keyId: options.keyId, issuerId: issuer, bundleId: bundle
                ).with(inputs)
                return printed(try creator.createSignature(requestJSON: Data(json)), options)
            case .offerV1:
                let creator = PromotionalOfferSignatureCreator(
                    signingKey: signingKey, keyId: options.keyId, bundleId: bundle)
                let nonce = options.nonce ?? UUID()
                let timestamp = options.timestamp ?? Int64(now.timeIntervalSince1970 * 1000)
                let signature = try creator.createSignature(
                    productIdentifier: options.productId ?? "", subscriptionOfferID: options.offerId ?? "",
                    applicationUsername: options.appAccountToken ?? "", nonce: nonce, timestamp: timestamp)
                guard options.json else { return CommandResult(stdout: signature + "\n", status: ExitCode.verified) }
                // The library's Retention Messaging promotionalOfferSignatureV1: its UUIDs as signed, lower-cased.
                let answer = PromotionalOfferSignatureV1(
                    encodedSignature: signature, productId: options.productId ?? "", nonce: nonce, timestamp: timestamp,
                    keyId: options.keyId, offerIdentifier: options.offerId ?? "",
                    appAccountToken: options.appAccountToken.flatMap(UUID.init(uuidString:)))
                let object = try JSONParser.parseValue(Array(JSONEncoder().encode(answer)))
                return CommandResult(stdout: JSONWriter.write(object, pretty: true) + "\n", status: ExitCode.verified)
            }
        } catch {
            return MintCommand.failure("cannot sign: \(error)")
        }
    }

    /// The JWS alone, or with its decoded header and claims.
    static func printed(_ token: String, _ options: SignOptions) -> CommandResult {
        guard options.json else { return CommandResult(stdout: token + "\n", status: ExitCode.verified) }
        let parts = token.split(separator: ".")
        func decoded(_ index: Int) -> JSONValue {
            (parts.count == 3 ? Base64.decodeURL(parts[index]) : nil).flatMap { try? JSONParser.parseValue($0) }
                ?? .null
        }
        let object: JSONValue = .object([
            "kind": .string(options.kind.rawValue), "signature": .string(token), "header": decoded(0),
            "claims": decoded(1),
        ])
        return CommandResult(stdout: JSONWriter.write(object, pretty: true) + "\n", status: ExitCode.verified)
    }

    /// Reads the `--key` file, PEM or DER: the result of exit 66 when it cannot be read, 1 when it holds no key. The
    /// bytes go to the library as they are (it tells PEM from DER), in the one buffer they were read into, zeroed after.
    static func signingKey(_ path: String) -> Result<ES256SigningKey, CommandResult> {
        switch ByteSource.open(path: path, option: key.name).flatMap({ $0.readWhole(limit: 65_536) }) {
        case .failure(let failure): return .failure(.inputFailure(failure))
        case .success(var bytes):
            defer { for index in bytes.indices { bytes[index] = 0 } }
            do {
                return .success(try ES256SigningKey(derRepresentation: bytes))
            } catch {
                return .failure(MintCommand.failure("\(key.name) \(EscapedText.escaped(path)): \(error)"))
            }
        }
    }
}
