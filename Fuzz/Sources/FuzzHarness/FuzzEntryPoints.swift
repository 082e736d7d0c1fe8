import Foundation
import JWSVerifyTesting

@testable import JWSVerify

/// The functions each libFuzzer target calls with one input, and which
/// `Tests/JWSVerifyTests/Hardening/RegressionTests.swift` calls with every file of `Fuzz/regressions/`.
///
/// Besides "must not crash", each entry point checks properties that must hold for every input
/// (oracles); a broken property stops the process with `preconditionFailure`, which libFuzzer reports
/// as a crash and saves the input.
public enum FuzzEntryPoints {
    /// The fuzz targets, by name.
    public static let targets: [String: @Sendable ([UInt8]) -> Void] = [
        "jws-parser": jwsParser, "verifier": verifier, "models": models, "inspect": inspect, "chains": chains,
        "receipts": receipts,
    ]

    // MARK: - chains

    /// A crafted chain and leaf generated from the bytes, verified by a warm verifier, a cold verifier
    /// and OpenSSL's `X509_verify_cert` on the full chain (see ``ChainsDifferential``).
    ///
    /// Oracles: warm and cold give the same code and check; what the verifier accepts OpenSSL accepts,
    /// with a valid P-256 leaf key; a chain OpenSSL rejects fails the chain check with OpenSSL's code.
    ///
    /// With `JWSVERIFY_CHAINS_CONTINUE=1` in the environment a broken property is written to standard
    /// error instead of stopping the process: to measure the target's speed, or survey findings, on
    /// code that still breaks properties.
    public static func chains(_ bytes: [UInt8]) {
        let violations = ChainsDifferential.violations(bytes)
        if let first = violations.first {
            // Optimized builds drop preconditionFailure's message: write it out first.
            FileHandle.standardError.write(Data("chains: property broken: \(first)\n".utf8))
            if chainsContinue { return }
            preconditionFailure("property broken: \(first)")
        }
    }

    /// `JWSVERIFY_CHAINS_CONTINUE=1`: report broken properties of `chains` without stopping.
    static let chainsContinue = ProcessInfo.processInfo.environment["JWSVERIFY_CHAINS_CONTINUE"] == "1"

    // MARK: - jws-parser

    /// `CompactJWS(parsing:)` on the bytes, the same on the bytes as a `String`, the strict base64
    /// decoders, and `JSONParser` on the bytes.
    ///
    /// Oracles: a parsed token's segments are the canonical base64url of what was decoded (one byte
    /// form per token); the `String` and byte initializers agree; whatever base64 decodes re-encodes
    /// to the same text; a JSON object that parses re-encodes to text that parses to the same values.
    public static func jwsParser(_ bytes: [UInt8]) {
        let parsed = try? CompactJWS(parsing: bytes)
        if let parsed {
            let segments = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
            check(segments.count == 3, "a parsed token has three segments")
            check(Base64.encodeURL(parsed.headerJSON).utf8.elementsEqual(segments[0]), "header segment is canonical")
            check(Base64.encodeURL(parsed.payload).utf8.elementsEqual(segments[1]), "payload segment is canonical")
            check(Base64.encodeURL(parsed.signature).utf8.elementsEqual(segments[2]), "signature segment is canonical")
            check(parsed.signingInput == Array(bytes[0..<(segments[0].count + 1 + segments[1].count)]), "signing input")
            check(bytes.count <= CompactJWS.defaultMaximumBytes, "size limit")
        }
        if let text = String(validating: bytes, as: UTF8.self) {
            let fromString = try? CompactJWS(parsing: text)
            check((fromString == nil) == (parsed == nil), "String and [UInt8] parsing agree")
        }
        // The strict decoders on the whole input.
        if let decoded = Base64.decodeURL(bytes[...]) {
            check(Base64.encodeURL(decoded).utf8.elementsEqual(bytes), "base64url decoding is canonical")
        }
        if let decoded = Base64.decodeStandard(bytes) {
            check(Base64.encodeStandard(decoded).utf8.elementsEqual(bytes), "base64 decoding is canonical")
        }
        // The JSON parser on the whole input, and with a small depth limit.
        if let object = try? JSONParser.parseObject(bytes) {
            reencodeIsStable(.object(object), depthLimit: JSONParser.defaultMaximumDepth)
            check(object.count <= bytes.count, "members")
        }
        _ = try? JSONParser.parseObject(bytes, maximumDepth: 2)
        if let parsed, !parsed.payload.isEmpty {
            _ = try? JSONParser.parseObject(parsed.payload, maximumDepth: 4)
        }
    }

    /// JSON text of `value` parses back, and encoding what it parses to gives the same text.
    private static func reencodeIsStable(_ value: JSONValue, depthLimit: Int) {
        guard let first = try? sortedEncoder.encode(value) else {
            preconditionFailure("a parsed JSON value does not encode")
        }
        guard let reparsed = try? JSONParser.parseObject(Array(first), maximumDepth: depthLimit) else {
            preconditionFailure(
                "JSONEncoder output of a parsed value does not parse: \(String(decoding: first, as: UTF8.self))")
        }
        guard let second = try? sortedEncoder.encode(JSONValue.object(reparsed)) else {
            preconditionFailure("a re-parsed JSON value does not encode")
        }
        // Values, not spelling: -0.0 is written -0 and read back as the integer 0 (see `roundTrip`).
        check(canonical(first) == canonical(second), "JSON re-encoding keeps the values")
    }

    // MARK: - verifier

    /// The configuration of the fuzzed verifier: `TestVectors/generated`'s.
    public static let bundleId = "com.example.jwsverify"
    /// The app Apple id of the fuzzed verifier (`TestVectors/generated`'s).
    public static let appAppleId: Int64 = 1234
    /// The clock of the fuzzed verifier (read only for payloads without a date): 2026-03-15T12:00:00Z,
    /// fixed so that a saved input replays the same way.
    public static let now = Date(timeIntervalSince1970: 1_773_576_000)

    static let cachedVerifier = makeVerifier(cacheCapacity: 64)
    static let uncachedVerifier = makeVerifier(cacheCapacity: 0)

    static func makeVerifier(cacheCapacity: Int) -> SignedDataVerifier {
        let now = now
        do {
            return try SignedDataVerifier(
                rootCertificates: [FuzzVectors.rootDER], bundleId: bundleId, appAppleId: appAppleId,
                environment: .sandbox, chainCacheCapacity: cacheCapacity, clock: { now })
        } catch {
            fatalError("the fuzzed verifier cannot be configured: \(error)")
        }
    }

    /// The whole verification path on the bytes as a token: `verifyAndDecode(_:as:)` with the kind
    /// recognized from the payload and with a kind chosen by the input (so every kind is fuzzed), and
    /// `verifyAndDecodeNotification` without nested tokens.
    ///
    /// Oracles: a verified token is within the size limit, has `alg` ES256, no `crit` and three `x5c`
    /// entries, its chain ends at the configured root, and its payload carries the configured claims;
    /// every error's code belongs to its check; "recognize" gives the verdict of the recognized kind;
    /// nested tokens only add failures; asking again (cache warm) gives the same verdict, and so does
    /// a verifier without caches (for one input in eight).
    public static func verifier(_ bytes: [UInt8]) {
        let token = String(decoding: bytes, as: UTF8.self)
        let verifier = cachedVerifier
        let digest = bytes.reduce(UInt32(0), { $0 &* 31 &+ UInt32($1) })
        let recognized = PayloadKind.recognize(token: token)
        let automatic = verifier.verifyAndDecode(token, as: nil)
        checkResult(automatic, token: token)
        if recognized == nil {
            check(!automatic.isVerified, "a token of no recognizable kind is not verified")
        }
        let named = PayloadKind.allCases[Int(digest % UInt32(PayloadKind.allCases.count))]
        let explicit = verifier.verifyAndDecode(token, as: named)
        checkResult(explicit, token: token)
        if named == recognized {
            check(automatic.error?.code == explicit.error?.code, "recognize gives the kind's verdict")
        }
        if named == .notification || recognized == .notification {
            let withNested = named == .notification ? explicit : automatic
            let outer = verifier.verifyAndDecodeNotification(token, verifyingNestedTokens: false)
            checkResult(outer.map(DecodedPayload.notification), token: token)
            if outer.isVerified {
                check(
                    withNested.isVerified || withNested.error?.message.hasPrefix("nested") == true,
                    "nested verification only adds failures")
            } else {
                check(!withNested.isVerified, "nested verification only adds failures")
            }
        }

        // The caches change nothing. Only for tokens whose chain was checked (the rest fail before).
        guard let kind = recognized,
            automatic.error.map({ [.chain, .signature, .payload, .claims, .nestedTokens].contains($0.check) }) ?? true
        else { return }
        if digest % 4 == 0 {
            let again = verifier.verifyAndDecode(token, as: kind)
            check(again.error?.code == automatic.error?.code, "the same token twice gives the same verdict")
        }
        if digest % 8 == 0 {
            let cold = uncachedVerifier.verifyAndDecode(token, as: kind)
            check(cold.error?.code == automatic.error?.code, "a verifier without caches gives the same verdict")
        }
    }

    /// The checks each code belongs to (Docs/ErrorCodes.md).
    static let checkOfCode: [VerificationError.Code: VerificationError.Check] = [
        .malformedToken: .format, .unsupportedAlgorithm: .header, .missingCertificateChain: .header,
        .invalidChainLength: .header, .invalidCertificate: .chain, .untrustedChain: .chain,
        .certificateExpired: .chain, .missingAppleExtension: .chain, .unsupportedKey: .chain,
        .invalidSignature: .signature, .revokedCertificate: .revocation, .revocationUnavailable: .revocation,
        .payloadDecodingFailed: .payload, .invalidAppIdentifier: .claims, .invalidEnvironment: .claims,
    ]

    private static func checkResult(_ result: VerificationResult<DecodedPayload>, token: String) {
        switch result {
        case .failed(let failure):
            let error = failure.error
            if error.check == .nestedTokens {
                // A notification's nested token failed: its own code and check, and the member named.
                check(checkOfCode[error.code] == error.nestedCheck, "a nested code \(error.code) is of its nested check")
                check(
                    ["signedTransactionInfo", "signedRenewalInfo", "signedAppTransactionInfo"].contains(
                        error.nestedField ?? ""), "a nested failure names its member")
                check(failure.kind == .notification, "only a notification has nested tokens")
            } else {
                check(checkOfCode[error.code] == error.check, "code \(error.code) is of its check")
                check(error.nestedField == nil && error.nestedCheck == nil, "only nested failures name a member")
            }
            check(!failure.error.message.isEmpty, "an error says why")
        case .verified(let verified):
            check(token.utf8.count <= CompactJWS.defaultMaximumBytes, "a verified token is within the size limit")
            check(
                verified.header.alg == "ES256" && verified.header.crit == nil, "a verified token is ES256 without crit")
            check(
                verified.header.x5c?.count == 3 && verified.chain.count == 3,
                "a verified token has a 3-certificate chain")
            check(verified.chain[2].der == FuzzVectors.rootDER, "a verified chain ends at the configured root")
            switch verified.payload {
            case .transaction(let payload):
                check(payload.bundleId == bundleId && payload.environment == .sandbox, "transaction claims")
            case .renewalInfo(let payload):
                check(payload.environment == .sandbox, "renewal claims")
            case .appTransaction(let payload):
                check(payload.bundleId == bundleId && payload.receiptType == .sandbox, "app transaction claims")
            case .realtimeRequest(let payload):
                check(payload.environment == .sandbox, "realtime claims")
            case .notification(let decoded):
                let claims = decoded.notification.claims
                check(!claims.namesNoApp && claims.bundleId == bundleId, "notification bundle id")
                check(claims.environment == .sandbox, "notification environment")
            }
        }
    }

    // MARK: - models

    /// Every payload model decoded from the bytes, through `JSONDecoder` (`Codable`) and through the
    /// verifier's own path (`JSONParser` tree, `init(json:)`), each re-encoded.
    ///
    /// Oracles: a decoded model encodes; the encoding decodes again (both paths) and re-encodes to the
    /// same bytes; when both paths decode the input, they hold the same JSON values.
    public static func models(_ bytes: [UInt8]) {
        let data = Data(bytes)
        let tree = try? JSONParser.parseObject(bytes)
        // Every model through the tree (cheap); for one input in eight, one model chosen by the input
        // also through JSONDecoder and the round trips (Foundation's coders cost nearly all the time
        // under AddressSanitizer: doing them on every input held the target to about 1,000 runs/s).
        let digest = Int(bytes.reduce(UInt32(0), { $0 &* 31 &+ UInt32($1) }) % 1024)
        let models: [(_ data: Data, _ tree: [String: JSONValue]?, _ full: Bool) -> Void] = [
            { roundTrip(JWSTransactionDecodedPayload.self, $0, $1, full: $2) },
            { roundTrip(JWSRenewalInfoDecodedPayload.self, $0, $1, full: $2) },
            { roundTrip(AppTransaction.self, $0, $1, full: $2) },
            { roundTrip(ResponseBodyV2DecodedPayload.self, $0, $1, full: $2) },
            { roundTrip(DecodedRealtimeRequestBody.self, $0, $1, full: $2) },
            // Nested types on their own too.
            { roundTrip(NotificationData.self, $0, $1, full: $2) },
            { roundTrip(AdvancedCommerceTransactionInfo.self, $0, $1, full: $2) },
            { roundTrip(AdvancedCommerceRenewalInfo.self, $0, $1, full: $2) },
        ]
        let full = digest % 8 == 0 ? (digest / 8) % models.count : nil
        for (index, model) in models.enumerated() {
            model(data, tree, index == full)
        }
        if digest % 32 == 1, let header = try? JSONDecoder().decode(JWSHeader.self, from: data) {
            mustEncode(header)
        }
        if let tree {
            mustEncode(JWSHeader(members: tree))
            _ = PayloadKind.recognize(keys: tree.keys)
        }
    }

    private static let sortedEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    @discardableResult
    private static func mustEncode<T: Encodable>(_ value: T) -> Data {
        do {
            return try sortedEncoder.encode(value)
        } catch {
            preconditionFailure("a decoded \(T.self) does not encode: \(error)")
        }
    }

    /// Decodes `T` from the tree and, when `full`, from `data` with `JSONDecoder`, and checks the round trips.
    ///
    /// Round trips keep JSON values, not their spelling: `JSONEncoder` writes an integral
    /// ``JSONValue/double(_:)`` (`-0.0`, `1.0`, `9.4991773576e17`) as `-0`, `1` or `9.4991773576e+17`,
    /// which both decoders read back as ``JSONValue/integer(_:)`` (Docs/Security.md, "Findings"), so
    /// every comparison is of ``canonical(_:)`` forms.
    private static func roundTrip<T: Codable & Hashable & JSONObjectDecodable>(
        _ type: T.Type, _ data: Data, _ tree: [String: JSONValue]?, full: Bool
    ) {
        let viaTree = tree.flatMap { try? T(json: JSONObjectReader(object: $0)) }
        guard full else { return }
        let viaCodable = try? JSONDecoder().decode(T.self, from: data)
        if let viaCodable {
            let first = mustEncode(viaCodable)
            guard let again = try? JSONDecoder().decode(T.self, from: first) else {
                preconditionFailure("\(T.self) encoding does not decode: \(String(decoding: first, as: UTF8.self))")
            }
            // Not byte-stable: a JSONValue.double that is integral (9.4991773576e+17) reads back as
            // .integer (see Docs/Security.md); the values must be kept.
            check(canonical(mustEncode(again)) == canonical(first), "\(T.self) Codable round trip keeps the values")
        }
        if let viaTree {
            let first = mustEncode(viaTree)
            // The encoding of a tree-decoded model is within the parser's limits and decodes the same.
            guard let reparsed = try? JSONParser.parseObject(Array(first)),
                let back = try? T(json: JSONObjectReader(object: reparsed))
            else {
                preconditionFailure(
                    "\(T.self) encoding does not decode from the tree: \(String(decoding: first, as: UTF8.self))")
            }
            check(canonical(mustEncode(back)) == canonical(first), "\(T.self) tree round trip keeps the values")
            guard let again = try? JSONDecoder().decode(T.self, from: first) else {
                preconditionFailure(
                    "\(T.self) tree encoding does not decode with JSONDecoder: \(String(decoding: first, as: UTF8.self))"
                )
            }
            check(
                canonical(mustEncode(again)) == canonical(first),
                "\(T.self) tree to Codable round trip keeps the values")
            if let viaCodable {
                check(
                    canonical(mustEncode(viaCodable)) == canonical(first),
                    "\(T.self): JSONDecoder and the tree decode the same values")
            }
        }
    }

    /// JSON text with every number spelled as `JSONDecoder` reads it into ``JSONValue``.
    ///
    /// Numbers beyond 2^53 in magnitude are compared by magnitude class only: there a `Double` is no
    /// longer exact, and `JSONDecoder` and `JSONParser` may round a fractional spelling differently
    /// (`-9223374356280773.255` becomes …773 through `JSONDecoder`'s `Int64` path, …774 through the
    /// nearest `Double`; Docs/Security.md, "Findings"). App Store payloads carry no such numbers.
    private static func canonical(_ json: Data) -> Data {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: json) else {
            preconditionFailure("encoder output does not decode as JSONValue: \(String(decoding: json, as: UTF8.self))")
        }
        return mustEncode(withinDoublePrecision(value))
    }

    /// `value` with every number beyond ±2^53 replaced by a marker of its sign.
    private static func withinDoublePrecision(_ value: JSONValue) -> JSONValue {
        let limit = 9_007_199_254_740_992.0
        switch value {
        case .integer(let number) where Double(number).magnitude > limit:
            return .string(number < 0 ? "-big" : "+big")
        case .double(let number) where number.magnitude > limit:
            return .string(number < 0 ? "-big" : "+big")
        case .array(let elements): return .array(elements.map(withinDoublePrecision))
        case .object(let members): return .object(members.mapValues(withinDoublePrecision))
        default: return value
        }
    }

    // MARK: - inspect

    /// `SignedDataVerifier.decodeUnverified` (recognized kind, or a kind named by the input) and a rendering of
    /// everything it returns, with the library pieces the CLI's `inspect` renders with: the header and
    /// `CertificateInfo` encoded with `JSONEncoder`, certificate dates as ISO 8601, the payload JSON
    /// re-read as `JSONValue`, the payload model encoded and walked with `Mirror`.
    public static func inspect(_ bytes: [UInt8]) {
        let token = String(decoding: bytes, as: UTF8.self)
        // The kind: recognized from the payload for half of the inputs, named for the others.
        let choice = bytes.count % (2 * PayloadKind.allCases.count)
        let kind: PayloadKind? =
            choice < PayloadKind.allCases.count ? nil : PayloadKind.allCases[choice % PayloadKind.allCases.count]
        guard let unverified = try? SignedDataVerifier.decodeUnverified(token, as: kind) else { return }
        // The CLI's JSON renderings (Foundation's coders and reflection) for one input in four: they
        // cost most of the time under AddressSanitizer; the plain text rendering runs for every input.
        let full = digest(bytes) % 4 == 0
        var text = "kind: \(unverified.kind.map { "\($0)" } ?? "unrecognized")\n"
        if full { text += String(decoding: mustEncode(unverified.header), as: UTF8.self) }
        for certificate in unverified.certificates {
            text += render(certificate)
            if full {
                text += String(decoding: mustEncode(certificate), as: UTF8.self)
                check(
                    CertificateInfo(derOrPEM: certificate.der) == certificate, "a certificate describes the same twice")
            }
        }
        text += unverified.certificateProblems.joined(separator: "\n")
        if full, let json = try? JSONDecoder().decode(JSONValue.self, from: unverified.payloadJSON) {
            text += String(decoding: mustEncode(json), as: UTF8.self)
        }
        if let payload = unverified.payload {
            check(kind == nil || payload.kind == kind, "the payload is of the kind asked for")
            // The tree the CLI renders (`jsonValue`) holds the payload's JSON values: exactly, except
            // that a timestamp is a Double (exact up to 2^53), so numbers are compared as Doubles.
            let tree: JSONValue
            switch payload {
            case .transaction(let value): tree = value.jsonValue
            case .renewalInfo(let value): tree = value.jsonValue
            case .appTransaction(let value): tree = value.jsonValue
            case .notification(let value): tree = value.notification.jsonValue
            case .realtimeRequest(let value): tree = value.jsonValue
            }
            if let parsed = try? JSONParser.parseObject(Array(unverified.payloadJSON)) {
                check(
                    numbersAsDoubles(tree) == numbersAsDoubles(.object(parsed)),
                    "a decoded payload's jsonValue is the payload's JSON")
            }
            if case .object(let members) = tree { text += members.keys.sorted().joined(separator: ",") }
            guard full else {
                check(!text.isEmpty, "something is rendered")
                return
            }
            switch payload {
            case .transaction(let value): text += describe(value) + String(decoding: mustEncode(value), as: UTF8.self)
            case .renewalInfo(let value): text += describe(value) + String(decoding: mustEncode(value), as: UTF8.self)
            case .appTransaction(let value):
                text += describe(value) + String(decoding: mustEncode(value), as: UTF8.self)
            case .notification(let value):
                text += describe(value.notification) + String(decoding: mustEncode(value.notification), as: UTF8.self)
            case .realtimeRequest(let value):
                text += describe(value) + String(decoding: mustEncode(value), as: UTF8.self)
            }
        }
        check(!text.isEmpty, "something is rendered")
    }

    /// `value` with every number as `.double`, for comparisons at `Double` precision.
    private static func numbersAsDoubles(_ value: JSONValue) -> JSONValue {
        switch value {
        case .integer(let number): return .double(Double(number))
        case .array(let elements): return .array(elements.map(numbersAsDoubles))
        case .object(let members): return .object(members.mapValues(numbersAsDoubles))
        default: return value
        }
    }

    private static let iso8601 = Date.ISO8601FormatStyle()

    private static func render(_ info: CertificateInfo) -> String {
        func date(_ value: Date?) -> String {
            guard let value else { return "?" }
            return value.formatted(iso8601)
        }
        return [
            info.subjectCommonName ?? "-", info.subjectOrganization ?? "-", info.issuerCommonName ?? "-",
            info.issuerOrganization ?? "-", info.serialNumber ?? "-", date(info.notBefore), date(info.notAfter),
            info.keyType, info.signatureAlgorithm ?? "-", info.appleMarkerExtensions.joined(separator: ","),
            info.sha256Fingerprint, info.der.base64EncodedString(),
        ].joined(separator: "\n")
    }

    /// A reflection walk of a model, as the CLI annotates payload fields from the model's properties.
    private static func describe(_ value: Any, depth: Int = 0) -> String {
        guard depth < 40 else { return "…" }
        let mirror = Mirror(reflecting: value)
        guard !mirror.children.isEmpty else { return String(describing: value) }
        return mirror.children.map { child in
            (child.label ?? "_") + "=" + describe(child.value, depth: depth + 1)
        }.joined(separator: ";")
    }

    // MARK: -

    /// A cheap hash of the input that chooses the costly oracles' share of inputs.
    static func digest(_ bytes: [UInt8]) -> UInt32 {
        bytes.reduce(UInt32(0), { $0 &* 31 &+ UInt32($1) })
    }

    /// Stops the process when a property does not hold (libFuzzer then saves the input).
    static func check(_ condition: @autoclosure () -> Bool, _ property: @autoclosure () -> String) {
        guard !condition() else { return }
        // Optimized builds drop preconditionFailure's message: write it out first.
        let text = "property broken: \(property())"
        FileHandle.standardError.write(Data((text + "\n").utf8))
        preconditionFailure(text)
    }
}
