import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// The bytes of a receipt's payload JSON (``AppReceipt/appendJSON(to:)``, what `batch` and `receipt --json` print),
/// or `null` when the writer refuses (a date outside the years 0 to 9999); the bytes before them must stay as they were.
private func payloadJSON(_ receipt: AppReceipt) -> [UInt8] {
    let before = Array("{\"payload\":".utf8)
    var out = before
    guard receipt.appendJSON(to: &out) else {
        #expect(out == before, "a refused receipt left bytes behind")
        return Array("null".utf8)
    }
    return Array(out.dropFirst(before.count))
}

private func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String($0 >> 4, radix: 16) + String($0 & 0xF, radix: 16) }.joined()
}

/// The receipts whose payload JSON is recorded in `TestVectors/receipts/payload-json/corpus.sha256`: every receipt
/// file under `TestVectors` that decodes, and 300 receipts minted by the testing library, named.
enum ReceiptJSONCorpus {
    /// The folders under `TestVectors` that hold receipt files (others in them are skipped when they do not decode).
    static let folders = ["receipts", "receipts/minted", "apple-library/xcode"]

    /// Every receipt file of ``folders`` that decodes (base64 text or the file's bytes), by its path.
    static func vectors() throws -> [(name: String, receipt: AppReceipt)] {
        var found: [(String, AppReceipt)] = []
        for folder in folders {
            let directory = TestVectorFiles.url(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() {
                let url = directory.appendingPathComponent(name)
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory),
                    !isDirectory.boolValue, let bytes = try? Array(Data(contentsOf: url))
                else { continue }
                guard let decoded = try? AppReceiptVerifier.decodeUnverified(bytes) else { continue }
                found.append((folder + "/" + name, decoded.receipt))
            }
        }
        return found
    }

    /// Texts for the string fields: JSON escapes, what the writer escapes besides (DEL, C1, U+2028, U+2029, the
    /// bidirectional controls), neighbours it keeps, multi-byte text, and plain identifiers.
    static let texts = [
        "", "com.example.app", "1.0.3", "2000000123456789", "Production", "ProductionSandbox", "Xcode",
        "quote \" backslash \\ slash /", "tab\tnewline\ncr\r nul\u{0} esc\u{1B} us\u{1F}",
        "del\u{7F} c1\u{80}\u{9F} nbsp\u{A0}", "ls\u{2028}ps\u{2029}", "bidi\u{200E}\u{202E}\u{2066}\u{2069}",
        "kept\u{200B}\u{2027}\u{202F}\u{FEFF}\u{FFFD}", "é 日本語 🇫🇷 e\u{301} \u{10FFFF}", "</script>",
        String(repeating: "long.identifier.", count: 40),
    ]

    /// Integers for the integer fields, from `Int64.min` to `Int64.max`.
    static let integers: [Int64] = [
        0, 1, -1, 9, 10, 99, 100, 12_345, 1_450_000_000, 1_000_000_123_456_789, 9_007_199_254_740_993, Int64.max,
        Int64.min, Int64.min + 1, -10, -987_654_321,
    ]

    /// Instants (whole seconds: receipts hold RFC 3339 seconds) at 1970, before it, at the ends of the years 0 to
    /// 9999, in local mean time, at Los Angeles's daylight-time switches (1918, war time, 1948–1949, 1974–1975,
    /// 1987, 2006, 2007), around leap days, and ordinary recent ones.
    static let instants: [Int64] = [
        0, -1, 86_399, -86_400, -62_167_219_200, 253_402_300_799, -2_717_640_001, -2_717_640_000, -1_633_269_600,
        -880_207_200, -765_385_201, -687_967_140, -662_655_601, 126_698_400, 162_381_600, 544_615_199, 544_615_200,
        1_162_112_399, 1_173_607_199, 1_173_607_200, 1_194_166_799, 1_194_166_800, 951_782_400, 951_868_799,
        1_583_661_599, 1_583_661_600, 1_604_221_199, 1_604_221_200, 1_588_789_729, 1_735_689_599, 1_780_000_000,
        4_102_444_800,
    ]

    /// Byte values: empty, short, a SHA-1's 20 bytes, and longer, with every base64 remainder.
    static func bytes(_ index: Int) -> [UInt8] {
        let count = [0, 1, 2, 3, 4, 5, 16, 20, 33, 64][index % 10]
        return (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ index &* 101) }
    }

    /// The minted receipt numbered `index`: each field present or absent by a bit of `index` (shifted per field),
    /// its value picked from the lists above by a stride of its own, 0 to 5 purchases, unknown attributes on some.
    static func model(_ index: Int) -> AppReceipt {
        func present(_ field: Int) -> Bool { ((index &* 2_654_435_761) >> (field % 24)) & 3 != 0 }
        func text(_ field: Int) -> String? { present(field) ? texts[(index &* 7 &+ field &* 13) % texts.count] : nil }
        func integer(_ field: Int) -> Int64? {
            present(field) ? integers[(index &* 5 &+ field &* 3) % integers.count] : nil
        }
        func date(_ field: Int) -> Date? {
            guard present(field) else { return nil }
            // Half the time one of the listed instants, else a second spread over the years 0 to 9999.
            let seconds =
                (index + field) % 2 == 0
                ? instants[(index &* 11 &+ field) % instants.count]
                : -62_167_219_200 + Int64((index &* 48_271 &+ field &* 16_807) % 1_000_000) &* 315_569
            return Date(timeIntervalSince1970: TimeInterval(seconds))
        }
        func unknown(_ field: Int) -> [ReceiptAttribute] {
            guard index % 3 == field % 3 else { return [] }
            return (0..<(1 + index % 2)).map {
                ReceiptAttribute(
                    type: 1_722 + Int64(index % 60) + Int64($0), version: integers[index % 16], value: bytes(index + $0)
                )
            }
        }
        let purchases = (0..<(index % 6)).map { number in
            let field = 20 + number * 16
            return InAppPurchaseReceipt(
                quantity: integer(field), productId: text(field + 1), transactionId: text(field + 2),
                originalTransactionId: text(field + 3), purchaseDate: date(field + 4),
                originalPurchaseDate: date(field + 5), productType: integer(field + 6), expiresDate: date(field + 7),
                webOrderLineItemId: integer(field + 8), cancellationDate: date(field + 9),
                isTrialPeriod: present(field + 10) ? index % 2 == 0 : nil,
                isInIntroOfferPeriod: present(field + 11) ? index % 4 < 2 : nil, promotionalOfferId: text(field + 12),
                unknownAttributes: unknown(number))
        }
        return AppReceipt(
            receiptType: text(0), appItemId: integer(1), bundleId: text(2), applicationVersion: text(3),
            opaqueValue: present(4) ? bytes(index) : nil, sha1Hash: present(5) ? bytes(7) : nil,
            ageRating: present(6) ? "4+" : nil, receiptCreationDate: date(7), originalPurchaseDate: date(8),
            originalApplicationVersion: text(9), expirationDate: date(10), inApp: purchases,
            unknownAttributes: unknown(2).map {
                ReceiptAttribute(type: $0.type + 100, version: $0.version, value: $0.value)
            })
    }

    /// 300 minted receipts: each ``model(_:)`` written as content by `ReceiptContentEncoder` and decoded back, every
    /// tenth also signed by `ReceiptSigner` with the minted test PKI and decoded from the signed receipt.
    static func minted() throws -> [(name: String, receipt: AppReceipt)] {
        let signer = ReceiptSigner(
            hierarchy: try TestHierarchy.load(from: TestVectorFiles.url("receipts/minted/pki"), profile: .receiptRSA))
        var found: [(String, AppReceipt)] = []
        for index in 0..<300 {
            let content = ReceiptContentEncoder.content(model(index))
            let receipt = try AppReceipt(content: content)
            found.append(("minted/\(index)", receipt))
            if index % 10 == 0 {
                let signed = try AppReceiptVerifier.decodeUnverified(try signer.sign(content: content))
                found.append(("minted/\(index)/signed", signed.receipt))
            }
        }
        return found
    }

    /// The corpus's lines: `name byte-count sha256-hex` of each receipt's payload JSON.
    static func lines() throws -> (lines: [String], bytes: [(String, [UInt8])]) {
        let receipts = try vectors() + minted()
        let written = receipts.map { ($0.name, payloadJSON($0.receipt)) }
        let lines = written.map { "\($0.0) \($0.1.count) \(hex(SHA256.hash($0.1)))" }
        return (lines, written)
    }
}

@Suite("The receipt payload JSON writer")
struct ReceiptJSONWriterTests {
    /// Input: every receipt file of `TestVectors` that decodes and 300 minted receipts (`ReceiptJSONCorpus`).
    /// Expected: each one's payload JSON has the length and SHA-256 recorded in
    /// `TestVectors/receipts/payload-json/corpus.sha256`, which the writer of commit 405ca06 produced, before it was
    /// made faster. `JWSVERIFY_RECORD_RECEIPT_JSON=DIR` writes the lines and the whole bytes to `DIR` instead.
    @Test("every receipt vector and 300 minted receipts write the recorded bytes")
    func corpusBytes() throws {
        let (lines, written) = try ReceiptJSONCorpus.lines()
        #expect(lines.count >= 320)
        if let directory = ProcessInfo.processInfo.environment["JWSVERIFY_RECORD_RECEIPT_JSON"] {
            let folder = URL(fileURLWithPath: directory, isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(
                to: folder.appendingPathComponent("corpus.sha256"))
            var all: [UInt8] = []
            for (name, bytes) in written { all += Array("\(name)\n".utf8) + bytes + [0x0A] }
            try Data(all).write(to: folder.appendingPathComponent("corpus.json.txt"))
            return
        }
        let recorded = try String(
            decoding: TestVectorFiles.data("receipts/payload-json/corpus.sha256"), as: UTF8.self
        ).split(separator: "\n").map(String.init)
        #expect(lines.count == recorded.count)
        for (line, expected) in zip(lines, recorded) {
            #expect(line == expected)
        }
    }

    /// A receipt with one of each thing the writer does: dates with their `_ms` and `_pst` texts (a fraction of a
    /// second, before 1970, local mean time in 1883, the start of daylight time in 2007, the last second of 9999),
    /// base64 of 0 to 20 bytes (each padding), strings with JSON escapes and the library's (U+2028, DEL, a
    /// bidirectional override), integers from `Int64.min` to `Int64.max` (as numbers for `app_item_id` and in
    /// unknown attributes, as strings elsewhere), flags, and unknown attributes of the receipt and of a purchase.
    static let representative = AppReceipt(
        receiptType: "ProductionSandbox", appItemId: Int64.min, bundleId: "com.example.\"app\"\\/\u{2028}",
        applicationVersion: "1.0", opaqueValue: [0xDE, 0xAD, 0xBE, 0xEF, 0x01], sha1Hash: Array(0..<20),
        bundleIdRawValue: [0x0C, 0x01, 0x61], ageRating: "4+",
        receiptCreationDate: Date(timeIntervalSince1970: 1_588_789_729.5),
        originalPurchaseDate: Date(timeIntervalSince1970: -1.5), originalApplicationVersion: "",
        expirationDate: Date(timeIntervalSince1970: 253_402_300_799.999),
        inApp: [
            InAppPurchaseReceipt(
                quantity: 1, productId: "é日\u{7F}\n\t\u{0}", transactionId: "2000000123456789",
                originalTransactionId: "1000000000000001",
                purchaseDate: Date(timeIntervalSince1970: 1_173_607_200),
                originalPurchaseDate: Date(timeIntervalSince1970: -2_717_640_001), productType: -1,
                expiresDate: Date(timeIntervalSince1970: 1_194_166_799), webOrderLineItemId: Int64.max,
                isTrialPeriod: false, isInIntroOfferPeriod: true, promotionalOfferId: "\u{202E}offer",
                unknownAttributes: [ReceiptAttribute(type: 1722, version: 2, value: [0xFF])]),
            InAppPurchaseReceipt(),
        ],
        unknownAttributes: [
            ReceiptAttribute(type: 8, version: -3, value: [0x16, 0x00]), ReceiptAttribute(type: 9, value: []),
        ])

    /// Input: ``representative``. Expected: exactly these bytes, as the writer of commit 405ca06 wrote them.
    @Test("a representative receipt writes exactly its pinned bytes")
    func representativeBytes() {
        let expected =
            ##"{"app_item_id":-9223372036854775808,"application_version":"1.0","asn1_age_rating":"4+","as"##
            + ##"n1_bundle_id_value":"DAFh","asn1_opaque_value":"3q2+7wE=","asn1_sha1_hash":"AAECAwQFBgcICQ"##
            + ##"oLDA0ODxAREhM=","asn1_unknown_attributes":[{"type":8,"value":"FgA=","version":-3},{"type":"##
            + ##"9,"value":"","version":1}],"bundle_id":"com.example.\"app\"\\/\u2028","expiration_date":"9"##
            + ##"999-12-31 23:59:59 Etc/GMT","expiration_date_ms":"253402300799999","expiration_date_pst":""##
            + ##"9999-12-31 15:59:59 America/Los_Angeles","in_app":[{"asn1_product_type":"-1","asn1_unknown"##
            + ##"_attributes":[{"type":1722,"value":"/w==","version":2}],"expires_date":"2007-11-04 08:59:5"##
            + ##"9 Etc/GMT","expires_date_ms":"1194166799000","expires_date_pst":"2007-11-04 01:59:59 Ameri"##
            + ##"ca/Los_Angeles","is_in_intro_offer_period":"true","is_trial_period":"false","original_purc"##
            + ##"hase_date":"1883-11-18 19:59:59 Etc/GMT","original_purchase_date_ms":"-2717640001000","ori"##
            + ##"ginal_purchase_date_pst":"1883-11-18 12:07:01 America/Los_Angeles","original_transaction_i"##
            + ##"d":"1000000000000001","product_id":"é日\u007f\n\t\u0000","promotional_offer_id":"\u202eoffe"##
            + ##"r","purchase_date":"2007-03-11 10:00:00 Etc/GMT","purchase_date_ms":"1173607200000","purch"##
            + ##"ase_date_pst":"2007-03-11 03:00:00 America/Los_Angeles","quantity":"1","transaction_id":"2"##
            + ##"000000123456789","web_order_line_item_id":"9223372036854775807"},{}],"original_application"##
            + ##"_version":"","original_purchase_date":"1969-12-31 23:59:58 Etc/GMT","original_purchase_dat"##
            + ##"e_ms":"-1500","original_purchase_date_pst":"1969-12-31 15:59:58 America/Los_Angeles","rece"##
            + ##"ipt_creation_date":"2020-05-06 18:28:49 Etc/GMT","receipt_creation_date_ms":"1588789729500"##
            + ##"","receipt_creation_date_pst":"2020-05-06 11:28:49 America/Los_Angeles","receipt_type":"Pr"##
            + ##"oductionSandbox"}"##
        #expect(String(decoding: payloadJSON(Self.representative), as: UTF8.self) == expected)
    }
}
