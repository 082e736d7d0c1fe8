import Foundation
import Testing

@testable import JWSVerify

/// The receipt vectors of `TestVectors/receipts` and `TestVectors/apple-library/xcode`, decoded from base64.
enum ReceiptVectors {
    /// The DER App Store receipts.
    static let derFiles = [
        "04_sandbox_2025_sha256-G5_2iap_tpinappreceipt.b64",
        "06_sandbox_2020_sha1_187iap_tpinappreceipt.b64",
        "08_sandbox_2015_sha1-oldleaf_7iap_mbaasy.b64",
        "13_sandbox_2018_sha1_1iap_revenuecat.b64",
        "14_sandbox_ios_2017_noiap_mindnode.b64",
    ]

    /// The Xcode receipts (BER, indefinite lengths), as paths inside `TestVectors`.
    static let xcodePaths = [
        "receipts/03_xcode_2020_one-iap_offset-dates_tpinappreceipt.b64",
        "apple-library/xcode/xcode-app-receipt-empty",
        "apple-library/xcode/xcode-app-receipt-with-transaction",
    ]

    /// The text of a vector file (base64, perhaps ending in a newline).
    static func text(_ path: String) throws -> [UInt8] {
        Array(try TestVectorFiles.data(path))
    }

    /// The bytes of a base64 vector, whitespace at its ends removed.
    static func bytes(_ path: String) throws -> [UInt8] {
        let text = String(decoding: try text(path), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return try #require(Base64.decodeStandard(text), "\(path) is not base64")
    }

    /// The DER of `TestVectors/receipts/<name>`.
    static func receipt(_ name: String) throws -> [UInt8] {
        try bytes("receipts/" + name)
    }

    /// The content (eContent) of a DER receipt, through the envelope scanner.
    static func content(_ name: String) throws -> [UInt8] {
        try #require(ReceiptEnvelope.scan(receipt(name)), "\(name) did not scan").content
    }

    /// The decoded content of a DER receipt.
    static func decoded(_ name: String) throws -> AppReceipt {
        try AppReceipt(content: content(name))
    }

    /// `date` as RFC 3339 UTC text, for comparisons with the values read by `openssl asn1parse`.
    static func text(_ date: Date?) -> String? {
        date.map { ISO8601Text.iso8601($0) }
    }

    /// Upper-case hex of `bytes`.
    static func hex<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        bytes.map { DERReader.hex($0) }.joined()
    }
}

/// The message of the ``ReceiptContentError`` that decoding `content` throws, `nil` when it decodes.
func receiptContentError(_ content: [UInt8]) -> String? {
    do {
        _ = try AppReceipt(content: content)
        return nil
    } catch {
        return error.message
    }
}
