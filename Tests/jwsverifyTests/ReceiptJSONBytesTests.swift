import Foundation
import JWSVerify
import JWSVerifyTesting
import Testing

@testable import jwsverify

/// The receipt's JSON as the CLI wrote it before the library wrote the bytes: `AppReceipt`'s `Codable` form through
/// `JSONEncoder`, parsed back by the library's parser and written compact, keys sorted, by ``JSONWriter``; `null`
/// when encoding throws (a date outside the years 0 to 9999). The reference the direct writer must equal.
private func referenceTree(_ receipt: AppReceipt) -> JSONValue {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    guard let data = try? encoder.encode(receipt), let value = try? JSONParser.parseValue(Array(data)) else {
        return .null
    }
    return value
}

private func referenceBytes(_ receipt: AppReceipt) -> String {
    JSONWriter.write(referenceTree(receipt), pretty: false)
}

/// The library's bytes (``AppReceipt/appendJSON(to:)``), or `null` as `batch` writes when it returns false; the
/// text before them in the buffer must be left as it was.
private func directBytes(_ receipt: AppReceipt) -> String {
    let before = Array("{\"before\":".utf8)
    var out = before
    if !receipt.appendJSON(to: &out) {
        #expect(out == before, "a refused receipt left bytes behind")
        out.append(contentsOf: "null".utf8)
    }
    return String(decoding: out.dropFirst(before.count), as: UTF8.self)
}

/// The members of a receipt's compact line as the CLI built them before it wrote the line straight: a dictionary
/// that ``JSONWriter`` wrote, the payload the `Codable` path's tree.
private func referenceCompactMembers(_ receipt: SignedDataOutcome) -> [String: JSONValue] {
    var members: [String: JSONValue] = [
        "schemaVersion": .integer(Int64(BatchResultLine.compactSchemaVersion)),
        "verified": .bool(receipt.verified),
        "code": receipt.error.map { .string($0.code.rawValue) } ?? .null,
        "check": receipt.error.map { .string($0.check.rawValue) } ?? .null,
        "message": .string(receipt.error?.message ?? "every check passed"),
        "retryable": .bool(false),
        "kind": .string(SignedDataForm.receiptKind),
        "environment": receipt.environment.map(JSONValue.string) ?? .null,
        "payload": receipt.receipt.map(referenceTree) ?? .null,
    ]
    if let underlying = receipt.error?.underlying { members["underlying"] = .string(underlying) }
    if let bundleId = receipt.receipt?.bundleId { members["bundleId"] = .string(bundleId) }
    if let first = receipt.receipt?.inApp.first {
        if let id = first.transactionId { members["transactionId"] = .string(id) }
        if let id = first.originalTransactionId { members["originalTransactionId"] = .string(id) }
    }
    return members
}

/// SplitMix64, seeded: the same receipts on every run.
private struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}

/// Strings that stress the escaper: what JSON must escape, what the CLI escapes besides (DEL, C1 controls, the
/// line and paragraph separators, bidirectional formatting characters), neighbours it must not escape, and
/// multi-byte text.
private let oddStrings = [
    "", "plain", "quote \" backslash \\ slash / solidus",
    "controls \u{0}\u{1}\u{8}\u{9}\u{A}\u{B}\u{C}\u{D}\u{1B}\u{1F}",
    "del \u{7F} c1 \u{80}\u{85}\u{9F} nbsp \u{A0} \u{FF}", "separators \u{2028}\u{2029}",
    "bidi \u{200E}\u{200F}\u{202A}\u{202B}\u{202C}\u{202D}\u{202E}\u{2066}\u{2067}\u{2068}\u{2069}",
    "kept \u{200B}\u{200D}\u{2027}\u{202F}\u{2065}\u{206A}\u{2030}\u{FEFF}\u{FFFD}\u{E000}",
    "unicode é 日本語 🇫🇷 👩‍👩‍👧 e\u{301} \u{10FFFF}", String(repeating: "long\"\u{2028}", count: 2_000),
    "\\u0000 \\\" \\n written out", "</script>",
]

/// Instants (seconds since 1970) the date texts must get right: 1970 and either side, before 1970, local mean
/// time in 1883, the ends of the years 0 to 9999, daylight-time switches in Los Angeles, fractions.
private let oddInstants: [Double] = [
    0, -1, -0.001, -0.5, 0.999, 1e-6, 86_399, -86_400, -2_208_988_800, -2_717_640_001, -2_717_640_000,
    -62_167_219_200, 253_402_300_799, 253_402_300_799.5, 1_583_661_599, 1_583_661_600, 1_604_221_199,
    1_604_221_200, 1_173_607_200, 1_194_166_799, -880_207_200, -765_385_201, -687_967_140, -662_655_601,
    126_698_400, 162_381_600, 64_092_211_200, 1_588_789_729.123_456,
]

/// Instants outside the years 0 to 9999, where `Codable` throws and the payload is `null`.
private let outsideInstants: [Double] = [-62_167_219_201, 253_402_300_800, .infinity, -.infinity, .nan, 1e18]

@Suite("The receipt JSON bytes of batch lines")
struct ReceiptJSONBytesTests {
    /// Every receipt under `TestVectors` (base64 and DER, App Store, Xcode and minted) that decodes.
    static func vectorReceipts() throws -> [(name: String, receipt: AppReceipt)] {
        var found: [(String, AppReceipt)] = []
        for folder in ["receipts", "receipts/minted", "apple-library/xcode"] {
            let directory = CLI.vector(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: directory).sorted() {
                guard !name.hasSuffix(".md"), !name.hasSuffix(".json") else { continue }
                let path = directory + "/" + name
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue
                else { continue }
                let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
                let trimmed = Array(String(decoding: bytes, as: UTF8.self).filter { !$0.isWhitespace }.utf8)
                let input = trimmed.first == UInt8(ascii: "M") ? trimmed : bytes
                guard let decoded = try? AppReceiptVerifier.decodeUnverified(input) else { continue }
                found.append((folder + "/" + name, decoded.receipt))
            }
        }
        return found
    }

    /// Input: every receipt of `TestVectors/receipts` (incl. `minted/`) and the Xcode receipts of Apple's library.
    /// Expected: the library's bytes equal the `Codable` path's, byte for byte.
    @Test("every receipt vector writes the bytes of the Codable path")
    func vectors() throws {
        let receipts = try Self.vectorReceipts()
        #expect(receipts.count >= 20, "\(receipts.map(\.name))")
        for (name, receipt) in receipts {
            #expect(directBytes(receipt) == referenceBytes(receipt), "\(name)")
        }
    }

    /// Input: receipts with each odd string in every string field, the extreme integers in every integer field and
    /// in unknown attributes, empty and long byte values, no field at all, an empty purchase. Expected: the bytes of
    /// the `Codable` path.
    @Test("odd strings, integers and missing fields write the bytes of the Codable path")
    func oddValues() {
        var receipts = [AppReceipt(), AppReceipt(inApp: [InAppPurchaseReceipt()])]
        for text in oddStrings {
            receipts.append(
                AppReceipt(
                    receiptType: text, bundleId: text, applicationVersion: text, ageRating: text,
                    originalApplicationVersion: text,
                    inApp: [
                        InAppPurchaseReceipt(
                            productId: text, transactionId: text, originalTransactionId: text, promotionalOfferId: text)
                    ]))
        }
        for number in [Int64.min, Int64.min + 1, -1, 0, 1, 9_007_199_254_740_993, Int64.max] {
            let attribute = ReceiptAttribute(type: number, version: number, value: [])
            receipts.append(
                AppReceipt(
                    appItemId: number, opaqueValue: [], sha1Hash: Array(repeating: 0xFF, count: 20),
                    bundleIdRawValue: Array(0...255),
                    inApp: [
                        InAppPurchaseReceipt(
                            quantity: number, productType: number, webOrderLineItemId: number, isTrialPeriod: true,
                            isInIntroOfferPeriod: false, unknownAttributes: [attribute, attribute])
                    ],
                    unknownAttributes: [attribute, ReceiptAttribute(type: 8, value: [0x16, 0x00])]))
        }
        for receipt in receipts {
            #expect(directBytes(receipt) == referenceBytes(receipt))
        }
    }

    /// Input: receipts whose byte values (an unknown attribute's, the opaque value, the SHA-1 hash) have every
    /// length from 0 to 400, behind texts of 0 to 11 bytes that move where the writer's staging chunk stands when
    /// they come (so that each value meets the chunk nearly full, nearly empty, and too long for it). Expected: the
    /// bytes of the `Codable` path.
    @Test("byte values of every length, wherever the writer's staging chunk stands")
    func byteValuesAcrossTheStage() {
        for length in 0...400 {
            let value = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 73 &+ length) }
            for shift in 0..<12 {
                let text = String(repeating: "v", count: shift)
                let receipt = AppReceipt(
                    applicationVersion: text, opaqueValue: value, sha1Hash: Array(value.prefix(shift * 23)),
                    bundleIdRawValue: Array(value.suffix(shift)),
                    inApp: [
                        InAppPurchaseReceipt(
                            productId: text,
                            unknownAttributes: [
                                ReceiptAttribute(type: Int64(shift), value: value),
                                ReceiptAttribute(type: -1, version: Int64(length), value: Array(value.prefix(shift))),
                            ])
                    ],
                    unknownAttributes: [ReceiptAttribute(type: Int64(length), value: value)])
                guard directBytes(receipt) == referenceBytes(receipt) else {
                    Issue.record("length \(length), shift \(shift)")
                    return
                }
            }
        }
    }

    /// Input: each odd instant in every date field of the receipt and of its second purchase; each instant outside
    /// the years 0 to 9999 in each date field alone. Expected: the bytes of the `Codable` path: the three texts of
    /// each date, or `null` for the whole receipt when one date is outside.
    @Test("dates at 1970, before it, at the ends of the range and at daylight-time switches")
    func dates() {
        func receipt(_ date: Date?, field: Int) -> AppReceipt {
            let plain = Date(timeIntervalSince1970: 1_588_789_729)
            func at(_ index: Int) -> Date? { index == field ? date : plain }
            return AppReceipt(
                receiptCreationDate: at(0), originalPurchaseDate: at(1), expirationDate: at(2),
                inApp: [
                    InAppPurchaseReceipt(productId: "first"),
                    InAppPurchaseReceipt(
                        purchaseDate: at(3), originalPurchaseDate: at(4), expiresDate: at(5), cancellationDate: at(6)),
                ])
        }
        for instant in oddInstants {
            let date = Date(timeIntervalSince1970: instant)
            let all = AppReceipt(
                receiptCreationDate: date, originalPurchaseDate: date, expirationDate: date,
                inApp: [
                    InAppPurchaseReceipt(
                        purchaseDate: date, originalPurchaseDate: date, expiresDate: date, cancellationDate: date)
                ])
            #expect(directBytes(all) == referenceBytes(all), "\(instant)")
        }
        for instant in outsideInstants {
            for field in 0..<7 {
                let crafted = receipt(Date(timeIntervalSince1970: instant), field: field)
                #expect(directBytes(crafted) == "null", "\(instant) in field \(field)")
                #expect(referenceBytes(crafted) == "null", "\(instant) in field \(field)")
            }
        }
        #expect(directBytes(receipt(nil, field: 0)) == referenceBytes(receipt(nil, field: 0)))
    }

    /// A random receipt: each field present half the time, strings from an alphabet with the odd characters,
    /// integers over all of `Int64`, whole-second dates over the years 0 to 9999, up to four purchases and
    /// unknown attributes.
    private static func randomReceipt(_ random: inout SplitMix) -> AppReceipt {
        let alphabet = Array("aZ09 .-_\"\\/\u{0}\u{A}\u{1F}\u{7F}\u{85}\u{2028}\u{202E}é日🇫🇷")
        func maybe<T>(_ make: () -> T) -> T? { Bool.random(using: &random) ? make() : nil }
        func text() -> String {
            String(
                (0..<Int.random(in: 0...12, using: &random)).map { _ in
                    alphabet[Int.random(in: 0..<alphabet.count, using: &random)]
                })
        }
        func integer() -> Int64 { Int64(bitPattern: random.next()) >> UInt64.random(in: 0...63, using: &random) }
        func date() -> Date {
            Date(timeIntervalSince1970: Double(Int64.random(in: -62_167_219_200..<253_402_300_800, using: &random)))
        }
        func bytes(_ count: Int? = nil) -> [UInt8] {
            (0..<(count ?? Int.random(in: 0...40, using: &random))).map { _ in UInt8.random(in: 0...255, using: &random)
            }
        }
        func attributes() -> [ReceiptAttribute] {
            (0..<Int.random(in: 0...2, using: &random)).map { _ in
                ReceiptAttribute(
                    type: Int64.random(in: 1722...1800, using: &random), version: integer(), value: bytes())
            }
        }
        let purchases = (0..<Int.random(in: 0...4, using: &random)).map { _ in
            InAppPurchaseReceipt(
                quantity: maybe(integer), productId: maybe(text), transactionId: maybe(text),
                originalTransactionId: maybe(text), purchaseDate: maybe(date), originalPurchaseDate: maybe(date),
                productType: maybe(integer), expiresDate: maybe(date), webOrderLineItemId: maybe(integer),
                cancellationDate: maybe(date), isTrialPeriod: maybe { Bool.random(using: &random) },
                isInIntroOfferPeriod: maybe { Bool.random(using: &random) }, promotionalOfferId: maybe(text),
                unknownAttributes: attributes())
        }
        return AppReceipt(
            receiptType: maybe(text), appItemId: maybe(integer), bundleId: maybe(text),
            applicationVersion: maybe(text), opaqueValue: maybe { bytes() }, sha1Hash: maybe { bytes(20) },
            ageRating: maybe { "4+" }, receiptCreationDate: maybe(date), originalPurchaseDate: maybe(date),
            originalApplicationVersion: maybe(text), expirationDate: maybe(date), inApp: purchases,
            unknownAttributes: attributes().map { ReceiptAttribute(type: $0.type + 100, value: $0.value) })
    }

    /// Input: 300 seeded random receipts, each written as content by the testing library's `ReceiptContentEncoder`
    /// and decoded back, and 12 of them signed by its `ReceiptSigner` with the minted test hierarchy and decoded
    /// from the signed receipt. Expected: for each, the library's bytes equal the `Codable` path's.
    @Test("seeded random receipts write the bytes of the Codable path")
    func randomReceipts() throws {
        var random = SplitMix(state: 0x2025_1201)
        let signer = ReceiptSigner(
            hierarchy: try TestHierarchy.load(
                from: URL(fileURLWithPath: CLI.vector("receipts/minted/pki")), profile: .receiptRSA))
        var decoded = 0
        for index in 0..<300 {
            let model = Self.randomReceipt(&random)
            let content = ReceiptContentEncoder.content(model)
            guard let receipt = try? AppReceipt(content: content) else { continue }
            decoded += 1
            #expect(directBytes(receipt) == referenceBytes(receipt), "receipt \(index)")
            #expect(directBytes(model) == referenceBytes(model), "model \(index)")
            guard index % 25 == 0 else { continue }
            let signed = try signer.sign(content: content)
            let unverified = try AppReceiptVerifier.decodeUnverified(signed)
            #expect(directBytes(unverified.receipt) == referenceBytes(unverified.receipt), "signed \(index)")
        }
        #expect(decoded >= 290)
    }

    /// Input: compact lines of verified and refused receipt outcomes (with a payload, without one, with a date
    /// outside the range, with an underlying reason, with a first purchase without identifiers, with odd strings),
    /// with and without `id` and `--fields`. Expected: the bytes of the line as the CLI wrote it before (the members
    /// and the `Codable` payload as one dictionary, written by ``JSONWriter``).
    @Test("compact lines keep their bytes, the payload where it sorts")
    func compactLines() throws {
        let vector = try #require(try Self.vectorReceipts().first { $0.name.contains("04_") }?.receipt)
        let outside = AppReceipt(bundleId: "x", expirationDate: Date(timeIntervalSince1970: .infinity))
        let odd = AppReceipt(
            bundleId: oddStrings[3],
            inApp: [InAppPurchaseReceipt(transactionId: oddStrings[5]), InAppPurchaseReceipt()])
        let refused = VerificationError(.invalidSignature, check: .signature, "bad \"signature\"\n")
        let underlying = VerificationError(
            .untrustedChain, check: .chain, "the chain does not verify", underlying: "openssl: \u{2028}reason")
        let outcomes = [
            SignedDataOutcome(form: .receipt, verified: true, environment: "Sandbox", receipt: vector),
            SignedDataOutcome(form: .receipt, verified: false, error: refused, receipt: vector),
            SignedDataOutcome(form: .receipt, verified: false, error: refused, environment: "Xcode", receipt: outside),
            SignedDataOutcome(
                form: .receipt, verified: false, error: underlying, environment: oddStrings[6], receipt: odd),
            SignedDataOutcome(
                form: .receipt, verified: false, error: refused,
                receipt: AppReceipt(inApp: [InAppPurchaseReceipt(originalTransactionId: "7")])),
            SignedDataOutcome(form: .receipt, verified: false, error: refused),
        ]
        let selections: [Set<String>?] = [
            nil, ["payload"], ["code", "bundleId"], ["payload", "id", "zzz"], [], Set(BatchResultLine.compactFields),
        ]
        for (index, outcome) in outcomes.enumerated() {
            for fields in selections {
                // An id is echoed as its JSON text (a string or a number, as InputShape keeps it).
                for id: JSONValue? in [nil, .string("line \(index)"), .integer(-7)] {
                    var members = referenceCompactMembers(outcome)
                    members["line"] = .integer(Int64(index + 1))
                    if let id { members["id"] = id }
                    let literal = try id.map { id in
                        let text = JSONWriter.write(id, pretty: false)
                        return try #require(
                            try InputShape.read(Array("{\"token\":\"t\",\"id\":\(text)}".utf8), what: "the line").get()
                                .id)
                    }
                    if let fields {
                        members = members.filter {
                            fields.contains($0.key) || BatchResultLine.alwaysKept.contains($0.key)
                        }
                    }
                    let expected = JSONWriter.write(.object(members), pretty: false) + "\n"
                    var line: [UInt8] = Array("previous line\n".utf8)
                    BatchResultLine.render(
                        outcome, line: index + 1, id: literal, report: .compact, fields: fields, into: &line)
                    #expect(
                        String(decoding: line, as: UTF8.self) == "previous line\n" + expected,
                        "\(index) \(String(describing: fields))")
                }
            }
        }
    }
}
