import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// JWSVerify and Apple's Python `SignedDataVerifier` (PyPI `app-store-server-library`) give the same
/// verdict on a few thousand tokens derived from `TestVectors/generated` by seeded mutations.
///
/// Apple's library runs once for the whole batch (`Scripts/apple_verify.py`, NDJSON in, one verdict per
/// line out), in the virtual environment that `Scripts/apple-python-venv.sh` creates (or reuses) under
/// `.build/apple-python-venv`.
/// Where JWSVerify is deliberately stricter, the mutation says so with its reason (see
/// ``KnownDifference``); such a token may be rejected by JWSVerify and accepted by Apple, never the
/// other way round. Any other disagreement fails the test and is printed with its token.
@Suite("Differential testing against Apple's Python library")
struct DifferentialTests {
    /// Input: 47 generated vectors plus 2,800 seeded mutations (bytes flipped in each segment, `alg`
    /// changed, `x5c` entries dropped, duplicated, reordered or replaced, payload claims changed and
    /// re-signed with the test leaf key, ...). Expected: the same verdict (verified or not) from both
    /// libraries for every token, except the documented differences, which are counted and printed.
    @Test("JWSVerify and Apple's SignedDataVerifier agree on every mutated token")
    func verdictsAgree() throws {
        let start = ContinuousClock.now
        guard let python = try AppleLibraryEnvironment.python() else { return }
        let cases = try DifferentialCorpus.make(seed: 20_260_315, mutations: 2_800)
        let verifier = try SignedDataVerifier(
            rootCertificates: [FuzzVectors.rootDER], bundleId: GeneratedVectors.bundleId,
            appAppleId: GeneratedVectors.appAppleId, environment: .sandbox)
        let ours = cases.map { verdict(of: $0, with: verifier) }
        let apple = try AppleLibraryEnvironment.verify(cases, python: python)
        try #require(apple.count == cases.count, "Apple's script answered \(apple.count) of \(cases.count) tokens")

        var known: [String: Int] = [:]
        var disagreements = 0
        for (index, testCase) in cases.enumerated() {
            let (verified, code) = ours[index]
            guard verified != apple[index].verified else { continue }
            if let difference = testCase.knownDifference, difference.allows(jwsVerifyVerified: verified) {
                known[difference.rawValue, default: 0] += 1
                continue
            }
            disagreements += 1
            print(
                "DISAGREEMENT \(testCase.name) (\(testCase.kind.rawValue)): JWSVerify \(verified ? "verified" : code),"
                    + " Apple \(apple[index].status) \(apple[index].detail)\n  token: \(testCase.token)")
        }
        let agreedVerified = zip(ours, apple).filter { $0.0.verified && $0.1.verified }.count
        print(
            "Differential: \(cases.count) tokens, \(agreedVerified) verified by both, \(disagreements) disagreements,"
                + " known differences: \(known.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))"
                + " (\(ContinuousClock.now - start))")
        #expect(disagreements == 0, "JWSVerify and Apple's library disagree on \(disagreements) tokens (printed above)")
        #expect(agreedVerified > cases.count / 20, "too few tokens verified: the mutations no longer reach the claims")
    }

    private func verdict(
        of testCase: DifferentialCase, with verifier: SignedDataVerifier
    ) -> (verified: Bool, code: String) {
        // Apple's library does not verify a notification's nested tokens; compare like with like.
        let error: VerificationError? =
            testCase.kind == .notification
            ? verifier.verifyAndDecodeNotification(testCase.token, verifyingNestedTokens: false).error
            : verifier.verifyAndDecode(testCase.token, as: testCase.kind).error
        return (error == nil, error?.code.rawValue ?? "verified")
    }
}

/// Differences between JWSVerify and Apple's Python library that are deliberate. Each allows
/// JWSVerify to reject what Apple accepts, except ``pyJWTRegisteredClaims``, where Apple's library
/// rejects what JWSVerify (like Apple's Swift, Java and Node libraries) accepts.
enum KnownDifference: String, Sendable {
    /// Docs/ErrorCodes.md check 1: strict base64url (no padding, no other characters, canonical
    /// unused bits). PyJWT pads and decodes leniently, ignoring unused bits.
    case nonCanonicalBase64URL = "non-canonical base64url (check 1)"
    /// Docs/ErrorCodes.md check 1: duplicate member names are rejected; Python's json keeps the last.
    case duplicateMembers = "duplicate JSON members (check 1)"
    /// Docs/ErrorCodes.md check 1: nesting deeper than 32 is rejected.
    case deepNesting = "JSON nested deeper than 32 (check 1)"
    /// Docs/ErrorCodes.md check 1: tokens over 64 KiB are rejected.
    case oversized = "token over 64 KiB (check 1)"
    /// Strict JSON (RFC 8259): Python's json accepts NaN and Infinity.
    case nonStandardJSON = "NaN/Infinity literals (check 1, RFC 8259)"
    /// Docs/ErrorCodes.md check 2: a `crit` header is rejected; PyJWT accepts `crit: ["b64"]`.
    case crit = "crit header (check 2)"
    /// Docs/ErrorCodes.md check 5: every x5c entry, x5c[2] too, must be one DER certificate; Apple's
    /// library never reads x5c[2].
    case rootEntryNotCertificate = "x5c[2] not a certificate (check 5)"
    /// Docs/ErrorCodes.md check 12: members have their documented JSON types; Apple's cattrs
    /// converter coerces ("123" to 123, 1.5 to 1, 5 to "5").
    case typeCoercion = "JSON type coercion by cattrs (check 12)"
    /// Docs/ErrorCodes.md check 12: a payload of another kind is named as such; Apple's library
    /// decodes what it can and checks the claims.
    case wrongKind = "payload of another kind (check 12)"
    /// PyJWT checks the registered JWT claims exp, nbf, iat and aud, which App Store payloads do not
    /// carry and Apple's other libraries do not check: there Apple's Python library is the stricter.
    case pyJWTRegisteredClaims = "PyJWT exp/nbf/iat/aud checks (Apple stricter)"
    /// An app transaction is validated at `receiptCreationDate` (Docs/ErrorCodes.md, "Where JWSVerify
    /// differs", as Apple's Swift library does); Apple's Python library takes `signedDate` first.
    case appTransactionValidationTime = "app transaction validation time (receiptCreationDate vs signedDate)"

    /// Whether a disagreement in this direction is the expected one.
    func allows(jwsVerifyVerified: Bool) -> Bool {
        switch self {
        case .pyJWTRegisteredClaims: return jwsVerifyVerified
        case .appTransactionValidationTime: return true
        default: return !jwsVerifyVerified
        }
    }
}

/// One token for both libraries.
struct DifferentialCase: Sendable {
    var name: String
    var kind: PayloadKind
    var token: String
    var knownDifference: KnownDifference?
}

/// The seeded mutations of the generated vectors.
enum DifferentialCorpus {
    static func make(seed: UInt64, mutations: Int) throws -> [DifferentialCase] {
        let vectors = FuzzVectors.generatedTokens.compactMap {
            vector -> (id: String, kind: PayloadKind, token: String)? in
            PayloadKind(rawValue: vector.kind).map { (vector.id, $0, vector.token) }
        }
        var cases = vectors.map { DifferentialCase(name: $0.id, kind: $0.kind, token: $0.token) }
        let valid = vectors.filter {
            $0.id.hasSuffix("-valid") && !$0.id.contains("production") && !$0.id.contains("multiple-roots")
        }
        let otherRoot = Base64.encodeStandard(FuzzVectors.data("generated/other-root.der"))
        var random = SeededRandom(seed: seed)
        for index in 0..<mutations {
            let base = valid[index % valid.count]
            guard var token = MutableToken(base.token) else { continue }
            var kind = base.kind
            var known: KnownDifference?
            var resign = true
            let name: String
            switch random.next(24) {
            case 0:
                name = "flip-header-char"
                token.headerText = flip(token.headerText, &random)
                resign = false
            case 1:
                name = "flip-payload-char"
                token.payloadText = flip(token.payloadText, &random)
                resign = false
            case 2:
                name = "flip-signature-char"
                token.signatureText = flip(token.signatureText, &random)
                resign = false
                known = .nonCanonicalBase64URL
            case 3:
                name = "truncate-or-pad-signature"
                token.signatureText =
                    random.next(2) == 0
                    ? String(token.signatureText.dropLast(1 + random.next(4))) : token.signatureText + "=="
                resign = false
                known = .nonCanonicalBase64URL
            case 4:
                let alg = ["ES384", "none", "HS256", "es256", "ES256 ", "RS256"][random.next(6)]
                name = "alg-\(alg)"
                token.header["alg"] = .string(alg)
            case 5:
                name = "x5c-drop-entry"
                token.mutateX5C { $0.remove(at: random.next($0.count)) }
            case 6:
                name = "x5c-duplicate-entry"
                token.mutateX5C { entries in
                    entries.insert(entries[random.next(entries.count)], at: random.next(entries.count))
                }
            case 7:
                name = "x5c-reorder"
                token.mutateX5C { $0.swapAt(0, 1 + random.next(2)) }
            case 8:
                let replacement = random.next(3)
                name = ["x5c-root-other-certificate", "x5c-root-garbage", "x5c-root-empty"][replacement]
                token.mutateX5C { $0[2] = [otherRoot, "AAAA", ""][replacement] }
                if replacement > 0 { known = .rootEntryNotCertificate }
            case 9:
                name = "x5c-entry-base64url-or-unpadded"
                let at = random.next(3)
                if at == 2 { known = .rootEntryNotCertificate }
                token.mutateX5C { entries in
                    entries[at] =
                        random.next(2) == 0
                        ? entries[at].replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                        : entries[at].replacingOccurrences(of: "=", with: "")
                }
            case 10:
                name = "crit"
                token.header["crit"] = .array([.string(random.next(2) == 0 ? "b64" : "exp")])
                known = .crit
            case 11:
                name = "header-extra-member"
                token.header[["kid", "typ", "x5u", "jku"][random.next(4)]] = .string("value")
            case 12, 13, 14, 15:
                let claim = mutateClaim(&token, kind: kind, &random)
                name = claim.name
                known = claim.known
            case 16:
                name = "payload-unknown-fields"
                token.payload["futureField\(random.next(100))"] = .object([
                    "nested": .array([.integer(1), .null, .bool(true)])
                ])
            case 17:
                // Verify the token as another kind.
                let other = PayloadKind.allCases[random.next(PayloadKind.allCases.count)]
                name = "as-\(other.rawValue)"
                kind = other
                resign = false
                known = other == base.kind ? nil : .wrongKind
            case 18:
                name = "payload-duplicate-member"
                token.rawPayload = duplicateMember(token.payloadJSON)
                known = .duplicateMembers
            case 19:
                name = "payload-deep-nesting"
                let depth = 20 + random.next(30)
                token.rawPayload = insertMember(
                    token.payloadJSON,
                    "\"deep\":" + String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
                known = .deepNesting
            case 20:
                name = "payload-oversized"
                token.rawPayload = insertMember(
                    token.payloadJSON,
                    "\"padding\":\"" + String(repeating: "x", count: 40_000 + random.next(20_000)) + "\"")
                known = .oversized
            case 21:
                name = "payload-non-standard-literal"
                token.rawPayload = insertMember(
                    token.payloadJSON, "\"odd\":" + ["NaN", "Infinity", "-Infinity"][random.next(3)])
                known = .nonStandardJSON
            case 22:
                name = "payload-string-escapes"
                token.rawPayload = insertMember(
                    token.payloadJSON,
                    "\"text\":\"" + ["\\u00e9\\n\\t\\/", "\\ud83d\\ude00", "caf\u{E9} \u{1F600}"][random.next(3)] + "\""
                )
            default:
                name = "signature-other-encoding"
                resign = false
                token.signatureText = Base64.encodeURL(
                    Array(repeating: UInt8(random.next(256)), count: [63, 64, 65, 72][random.next(4)]))
            }
            if resign { try token.resign() }
            cases.append(
                DifferentialCase(name: "\(base.id)/\(name)", kind: kind, token: token.text, knownDifference: known))
        }
        return cases
    }

    /// A claim changed (value, JSON type, presence); returns the mutation's name and whether Apple's
    /// type coercion or PyJWT's claim checks may make the libraries disagree.
    private static func mutateClaim(
        _ token: inout MutableToken, kind: PayloadKind, _ random: inout SeededRandom
    ) -> (name: String, known: KnownDifference?) {
        let signedDate = JSONValue.integer(1_773_576_000_000)
        let choices: [(String, JSONValue?, KnownDifference?)] = [
            ("bundleId", .string("com.example.jwsverify"), nil), ("bundleId", .string("com.example.other"), nil),
            ("bundleId", nil, nil), ("bundleId", .integer(5), .typeCoercion),
            ("environment", .string("Sandbox"), nil), ("environment", .string("Production"), nil),
            ("environment", .string("Xcode"), nil), ("environment", .string("LocalTesting"), nil),
            ("environment", .string("sandbox"), nil), ("environment", nil, nil), ("environment", .integer(1), nil),
            ("receiptType", .string("Production"), nil), ("receiptType", .string("Sandbox"), nil),
            ("appAppleId", .integer(1235), nil), ("appAppleId", .string("1234"), .typeCoercion),
            ("appAppleId", nil, nil),
            ("signedDate", nil, nil), ("signedDate", .double(1_773_576_000_000.5), nil),
            ("signedDate", .string("1773576000000"), .typeCoercion), ("signedDate", .integer(946_684_800_000), nil),
            ("signedDate", .integer(2_524_608_000_000), nil), ("signedDate", signedDate, nil),
            ("receiptCreationDate", .integer(946_684_800_000), nil),
            ("receiptCreationDate", .string("x"), .typeCoercion),
            ("quantity", .string("2"), .typeCoercion), ("price", .double(1.5), .typeCoercion),
            ("transactionId", .string("2000000000000001"), nil), ("userLocale", .string("en-US"), nil),
            ("exp", .integer(1_000), .pyJWTRegisteredClaims), ("nbf", .integer(4_000_000_000), .pyJWTRegisteredClaims),
            ("aud", .string("someone"), .pyJWTRegisteredClaims), ("iat", .string("yesterday"), .pyJWTRegisteredClaims),
        ]
        let (key, value, coercion) = choices[random.next(choices.count)]
        // A key that marks another kind makes JWSVerify name the payload's kind (check 12).
        let marksOtherKind = PayloadKind.allCases.contains { $0 != kind && $0.markerKeys.contains(key) }
        var known = coercion ?? (value != nil && marksOtherKind ? .wrongKind : nil)
        if kind == .appTransaction && (key == "signedDate" || key == "receiptCreationDate") {
            known = .appTransactionValidationTime
        }
        // A notification's claims live in data (or summary, appData, ...): change them there half the time.
        if kind == .notification, random.next(2) == 0,
            let container = ["data", "summary", "appData", "externalPurchaseToken"].first(where: {
                token.payload[$0] != nil
            }),
            case .object(var members)? = token.payload[container]
        {
            members[key] = value
            if key == "externalPurchaseId" || random.next(8) == 0 {
                members["externalPurchaseId"] = .string(random.next(2) == 0 ? "SANDBOX_1" : "1")
            }
            token.payload[container] = .object(members)
            return ("\(container).\(key)=\(value.map { "\($0)" } ?? "absent")", known == .wrongKind ? nil : known)
        }
        if random.next(12) == 0, kind == .notification {
            let container = ["data", "summary", "appData", "externalPurchaseToken"][random.next(4)]
            token.payload[container] = nil
            return ("drop-\(container)", nil)
        }
        token.payload[key] = value
        return ("\(key)=\(value.map { "\($0)" } ?? "absent")", known)
    }

    private static let base64URLAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

    /// One character replaced by another base64url character (or a few characters that are not).
    private static func flip(_ text: String, _ random: inout SeededRandom) -> String {
        var characters = Array(text)
        guard !characters.isEmpty else { return text }
        let at = random.next(4) == 0 ? characters.count - 1 : random.next(characters.count)
        let replacement: Character =
            random.next(10) == 0 ? ["+", "/", "=", " ", "."][random.next(5)] : base64URLAlphabet[random.next(64)]
        characters[at] = replacement
        return String(characters)
    }

    private static func duplicateMember(_ json: [UInt8]) -> [UInt8] {
        // {"a":..., → {"a":"duplicate","a":...,
        guard let colon = json.firstIndex(of: UInt8(ascii: ":")) else { return json }
        let name = Array(json[1..<colon])
        return [UInt8(ascii: "{")] + name + Array(":\"duplicate\",".utf8) + Array(json[1...])
    }

    private static func insertMember(_ json: [UInt8], _ member: String) -> [UInt8] {
        [UInt8(ascii: "{")] + Array(member.utf8) + [UInt8(ascii: ",")] + Array(json[1...])
    }
}

/// A token taken apart for mutation; `resign()` signs it again with the generated leaf key.
struct MutableToken {
    var header: [String: JSONValue]
    var payload: [String: JSONValue]
    /// Payload bytes used as they are instead of `payload` (for JSON that no encoder writes).
    var rawPayload: [UInt8]?
    var headerText: String
    var payloadText: String
    var signatureText: String
    private let originalHeader: [String: JSONValue]
    private let originalPayload: [String: JSONValue]

    init?(_ token: String) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let headerJSON = Base64.decodeURL(parts[0]),
            let payloadJSON = Base64.decodeURL(parts[1]),
            let header = try? JSONParser.parseObject(headerJSON), let payload = try? JSONParser.parseObject(payloadJSON)
        else { return nil }
        self.header = header
        self.payload = payload
        originalHeader = header
        originalPayload = payload
        headerText = parts[0]
        payloadText = parts[1]
        signatureText = parts[2]
    }

    var payloadJSON: [UInt8] { Base64.decodeURL(payloadText) ?? Array("{}".utf8) }

    mutating func mutateX5C(_ body: (inout [String]) -> Void) {
        guard case .array(let values)? = header["x5c"] else { return }
        var entries = values.compactMap(\.stringValue)
        guard entries.count == 3 else { return }
        body(&entries)
        header["x5c"] = .array(entries.map(JSONValue.string))
    }

    /// Re-encodes what changed and signs `header.payload` with the generated leaf key.
    mutating func resign() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if header != originalHeader { headerText = Base64.encodeURL(try encoder.encode(JSONValue.object(header))) }
        if let rawPayload {
            payloadText = Base64.encodeURL(rawPayload)
        } else if payload != originalPayload {
            payloadText = Base64.encodeURL(try encoder.encode(JSONValue.object(payload)))
        }
        let signature = try FuzzVectors.leafKey.signES256(Data((headerText + "." + payloadText).utf8))
        signatureText = Base64.encodeURL(signature)
    }

    var text: String { headerText + "." + payloadText + "." + signatureText }
}

/// SplitMix64, for mutations that are the same on every run.
struct SeededRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}

/// Apple's Python library in `.build/apple-python-venv` (`Scripts/apple-python-venv.sh`), installed on first use.
enum AppleLibraryEnvironment {
    /// The package version the differential test was written against.
    static let requirement = "app-store-server-library==3.1.2"

    static var repositoryRoot: URL { FuzzVectors.directory.deletingLastPathComponent() }

    /// The python of the virtual environment that `Scripts/apple-python-venv.sh` makes (or reuses) with
    /// Apple's library; nil (after printing why) when Python or pip cannot provide it.
    static func python() throws -> URL? {
        let setup = run("/bin/bash", [repositoryRoot.appendingPathComponent("Scripts/apple-python-venv.sh").path])
        let lines = setup.output.split(separator: "\n").map(String.init)
        guard setup.status == 0, let path = lines.last(where: { $0.hasPrefix("/") }) else {
            print("DifferentialTests skipped: Apple's Python library is unavailable: \(setup.output.suffix(300))")
            return nil
        }
        return URL(fileURLWithPath: path)
    }

    /// Runs apple_verify.py once over all cases.
    static func verify(
        _ cases: [DifferentialCase], python: URL
    ) throws -> [(verified: Bool, status: String, detail: String)] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "jwsverify-differential-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("tokens.ndjson")
        let output = folder.appendingPathComponent("verdicts.ndjson")
        var lines = ""
        for testCase in cases {
            let kind = testCase.kind == .notification ? "notification" : testCase.kind.rawValue
            let object: [String: String] = ["kind": kind, "token": testCase.token]
            lines +=
                String(
                    decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
                + "\n"
        }
        try lines.write(to: input, atomically: true, encoding: .utf8)
        let script = repositoryRoot.appendingPathComponent("Scripts/apple_verify.py")
        let process = Process()
        process.executableURL = python
        process.arguments = [
            script.path, "--root", FuzzVectors.directory.appendingPathComponent("generated/root.der").path,
            "--bundle-id", FuzzEntryPoints.bundleId, "--environment", "Sandbox",
            "--app-apple-id", String(FuzzEntryPoints.appAppleId),
        ]
        process.standardInput = try FileHandle(forReadingFrom: input)
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: output)
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "apple_verify.py exited with \(process.terminationStatus)")
        return try String(contentsOf: output, encoding: .utf8).split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
            return (
                object["verified"] as? Bool ?? false, object["status"] as? String ?? "?",
                object["detail"] as? String ?? ""
            )
        }
    }

    private static func which(_ name: String) -> String? {
        let result = run("/usr/bin/env", ["which", name])
        let path = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        return result.status == 0 && !path.isEmpty ? path : nil
    }

    private static func run(_ executable: String, _ arguments: [String]) -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do {
            try process.run()
        } catch {
            return (-1, "\(error)")
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
