import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// Transaction-id extraction against Apple's Python `ReceiptUtility` (PyPI `app-store-server-library`,
/// `extract_transaction_id_from_app_receipt`), run once over every receipt vector through
/// `Scripts/apple_receipt_utility.py` in the virtual environment of `Scripts/apple-python-venv.sh` (skipped, with
/// the reason printed, when Python or the library cannot be had, as the other comparisons with Apple's library).
///
/// What Apple's function returns (`receipt_utility.py` of version 3.1.2): it base64-decodes the receipt, walks
/// `ContentInfo → SignedData → encapContentInfo → eContent` with a generic ASN.1 decoder, and in the content's set
/// takes the **first attribute 17 in encoded order** (the first in-app purchase as the receipt writes them; the App
/// Store writes DER, whose SET OF is sorted by encoding, so that is the purchase with the shortest encoding, not the
/// earliest), and in that purchase's set the **first attribute that is 1703 (transaction id) or 1705 (original
/// transaction id)**, again in encoded order: the transaction id, unless the original transaction id's attribute is
/// encoded first (DER: when it is shorter). No receipt, no purchase: `None`. It checks no signature, certificate or
/// content type.
///
/// The same notion from JWSVerify's decoding (``appleNotion(of:content:)``): the first of ``AppReceipt/inApp``
/// (decoded in encoded order), and its ``InAppPurchaseReceipt/transactionId`` or
/// ``InAppPurchaseReceipt/originalTransactionId``, whichever attribute comes first in that purchase's content.
@Suite("Transaction ids: JWSVerify and Apple's Python ReceiptUtility")
struct AppleReceiptUtilityTests {
    /// One receipt given to both.
    struct Case {
        let id: String
        let base64: String
    }

    /// Apple's answer for one case.
    struct AppleAnswer {
        let transactionId: String?
        let error: String?
    }

    /// The real receipts (App Store and Xcode) and the minted ones, as base64 text.
    static func cases() throws -> [Case] {
        var cases: [Case] = []
        for file in ReceiptVectors.derFiles + ["03_xcode_2020_one-iap_offset-dates_tpinappreceipt.b64"] {
            cases.append(Case(id: file, base64: Data(try ReceiptVectors.receipt(file)).base64EncodedString()))
        }
        for path in [
            "apple-library/xcode/xcode-app-receipt-empty", "apple-library/xcode/xcode-app-receipt-with-transaction",
        ] {
            cases.append(Case(id: path, base64: Data(try ReceiptVectors.bytes(path)).base64EncodedString()))
        }
        for vector in try ReceiptFuzzVectors.mint() where !vector.isBase64 {
            cases.append(Case(id: "minted/" + vector.id, base64: Data(vector.bytes).base64EncodedString()))
        }
        return cases
    }

    /// Runs `Scripts/apple_receipt_utility.py` over `cases`; nil when Apple's library is unavailable.
    static func apple(_ cases: [Case]) throws -> [String: AppleAnswer]? {
        guard let python = try AppleLibraryEnvironment.python() else { return nil }
        var input = Data()
        for item in cases {
            input += try JSONSerialization.data(withJSONObject: ["id": item.id, "receipt": item.base64])
            input.append(0x0A)
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("jwsverify-receipts-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputFile = folder.appendingPathComponent("receipts.ndjson")
        let outputFile = folder.appendingPathComponent("answers.ndjson")
        try input.write(to: inputFile)
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        let process = Process()
        process.executableURL = python
        process.arguments = [
            AppleLibraryEnvironment.repositoryRoot.appendingPathComponent("Scripts/apple_receipt_utility.py").path
        ]
        process.standardInput = try FileHandle(forReadingFrom: inputFile)
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        try process.run()
        process.waitUntilExit()
        try #require(
            process.terminationStatus == 0, "apple_receipt_utility.py exited with \(process.terminationStatus)")
        var answers: [String: AppleAnswer] = [:]
        for line in try String(contentsOf: outputFile, encoding: .utf8).split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let id = try #require(object["id"] as? String)
            answers[id] = AppleAnswer(
                transactionId: object["transactionId"] as? String, error: object["error"] as? String)
        }
        return answers
    }

    /// The receipt's content (eContent) as OpenSSL parses it, DER or BER.
    static func content(_ base64: String) throws -> [UInt8] {
        let bytes = try #require(Base64.decodeStandard(Array(base64.utf8)))
        switch CMSReceipt.parse(bytes) {
        case .success(let cms): return cms.content
        case .failure(let refusal): throw refusal
        }
    }

    /// Apple's notion of "the transaction id of a receipt" from JWSVerify's decoding: the first purchase, and its
    /// transaction id or original transaction id, whichever of attributes 1703 and 1705 is encoded first in it.
    static func appleNotion(of receipt: AppReceipt, content: [UInt8]) throws -> String? {
        guard let purchase = receipt.inApp.first else { return nil }
        switch try firstIdentifierAttribute(inFirstPurchaseOf: content) {
        case 1703: return purchase.transactionId
        case 1705: return purchase.originalTransactionId
        default: return nil
        }
    }

    /// 1703 or 1705, whichever comes first in the first attribute 17's set, or nil when neither is there.
    static func firstIdentifierAttribute(inFirstPurchaseOf content: [UInt8]) throws -> Int64? {
        func attribute(_ set: inout DERReader) throws -> (type: Int64, value: DERElement) {
            var sequence = try set.readSequence()
            let type = try sequence.readInteger()
            _ = try sequence.readInteger()
            return (type, try sequence.readOctetString())
        }
        var root = DERReader(content)
        var set = try root.readSet()
        while !set.isAtEnd {
            let (type, value) = try attribute(&set)
            guard type == 17 else { continue }
            var outer = DERReader(Array(set.slice(value.contents)))
            var purchase = try outer.readSet()
            while !purchase.isAtEnd {
                let (inner, _) = try attribute(&purchase)
                if inner == 1703 || inner == 1705 { return inner }
            }
            return nil
        }
        return nil
    }

    /// Input: every real receipt (App Store DER, Xcode BER) and every minted one, base64. Expected: Apple's
    /// `extract_transaction_id_from_app_receipt` returns exactly what JWSVerify's decoded receipt gives for the same
    /// notion (documented above), including `None` for receipts without purchases, and the original transaction id
    /// where DER encodes it first; for content that is not DER attributes (Apple then raises or returns whatever it
    /// finds) JWSVerify decodes nothing.
    @Test("Apple's extracted transaction id is JWSVerify's first purchase's id, on every receipt vector")
    func extractionAgrees() throws {
        let cases = try Self.cases()
        guard let answers = try Self.apple(cases) else { return }
        let verifier = try AppReceiptVerifier(bundleId: nil, environments: [])
        var compared = 0
        for item in cases {
            let apple = try #require(answers[item.id], "\(item.id): no answer")
            let content = try? Self.content(item.base64)
            guard let content, let receipt = try? AppReceipt(content: content) else {
                // Not one signer's CMS over id-data, or its content is not DER attributes: JWSVerify decodes no
                // receipt (and its verifier says malformedReceipt), whatever Apple finds in it.
                let error = verifier.verifyAndDecodeAppReceipt(item.base64).error
                #expect(error?.code == .malformedReceipt, "\(item.id): \(String(describing: error))")
                continue
            }
            let ours = try Self.appleNotion(of: receipt, content: content)
            #expect(apple.error == nil, "\(item.id): Apple raised \(apple.error ?? "")")
            #expect(
                apple.transactionId == ours,
                "\(item.id): Apple \(String(describing: apple.transactionId)), ours \(String(describing: ours))")
            compared += 1
        }
        print("AppleReceiptUtilityTests: \(compared) of \(cases.count) receipts compared, Apple's id = ours on each")
        #expect(compared >= 20, "only \(compared) receipts compared")

        // The original transaction id where it is encoded first; and DER's purchase order, not the dates'.
        let short = try #require(answers["minted/der-sha256-short-original-id"])
        #expect(short.transactionId == "777", "Apple returns the original transaction id (1705) encoded first")
        let many = try #require(answers["06_sandbox_2020_sha1_187iap_tpinappreceipt.b64"])
        let decoded = try ReceiptVectors.decoded("06_sandbox_2020_sha1_187iap_tpinappreceipt.b64")
        #expect(many.transactionId == decoded.inApp.first?.transactionId)
    }

    /// Input: content naming an attacker-chosen transaction id, put (1) in a SignedData with no SignerInfo at all
    /// and (2) signed with a self-made certificate. Expected: Apple's `ReceiptUtility` returns the chosen id from
    /// both (it verifies nothing, as its documentation says); ``AppReceiptVerifier`` with Apple's root refuses the
    /// first as `malformedReceipt` (format) and the second as `untrustedChain` (chain).
    @Test("Apple's extraction returns an attacker's id from unsigned and self-signed blobs; the verifier refuses them")
    func forgedBlobs() throws {
        let chosen = "4000000000000001"
        let content = ReceiptContentEncoder.content(
            ReceiptFuzzVectors.receipt(purchases: 1, transactionIds: { _ in (chosen, chosen) }))
        let unsigned = try ReceiptSigner(hierarchy: ReceiptFuzzVectors.pki).sign(
            content: content, options: ReceiptSigner.Options(includesSigner: false))
        let selfMade = try TestHierarchy.makeXcodeStoreKitCertificate()
        let selfSigned = try ReceiptSigner(signer: selfMade, certificates: [selfMade.certificate]).sign(
            content: content)
        let cases = [
            Case(id: "unsigned", base64: Data(unsigned).base64EncodedString()),
            Case(id: "self-signed", base64: Data(selfSigned).base64EncodedString()),
        ]
        let verifier = try AppReceiptVerifier(bundleId: nil, environments: [.production, .sandbox])
        let unsignedError = verifier.verifyAndDecodeAppReceipt(cases[0].base64).error
        #expect(unsignedError?.code == .malformedReceipt && unsignedError?.check == .format)
        let selfSignedError = verifier.verifyAndDecodeAppReceipt(cases[1].base64).error
        #expect(selfSignedError?.code == .untrustedChain && selfSignedError?.check == .chain)
        guard let answers = try Self.apple(cases) else { return }
        #expect(answers["unsigned"]?.transactionId == chosen, "\(String(describing: answers["unsigned"]))")
        #expect(answers["self-signed"]?.transactionId == chosen, "\(String(describing: answers["self-signed"]))")
    }
}
