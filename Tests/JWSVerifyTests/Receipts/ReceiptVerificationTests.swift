import Foundation
import Testing

@testable import JWSVerify

/// Real App Store receipts (`TestVectors/receipts/`, provenance in its README) through
/// ``AppReceiptVerifier`` with the bundled Apple Inc. Root, at their creation dates.
@Suite("Receipt verification of real receipts")
struct ReceiptVerificationTests {
    struct RealReceipt: CustomStringConvertible, Sendable {
        let file: String
        let bundleId: String
        let created: String
        let purchases: Int
        let digest: String
        var description: String { file }
    }

    /// The README's table (bundle id, creation date, purchases) for each App Store receipt.
    static let appStoreReceipts: [RealReceipt] = [
        RealReceipt(
            file: "04_sandbox_2025_sha256-G5_2iap_tpinappreceipt.b64", bundleId: "dev.bonzer.weeka.app",
            created: "2025-12-26T18:39:47Z", purchases: 2, digest: "SHA-256"),
        RealReceipt(
            file: "06_sandbox_2020_sha1_187iap_tpinappreceipt.b64", bundleId: "com.nutcall.alert",
            created: "2020-05-06T18:28:49Z", purchases: 187, digest: "SHA-1"),
        RealReceipt(
            file: "08_sandbox_2015_sha1-oldleaf_7iap_mbaasy.b64", bundleId: "com.mbaasy.ios.demo",
            created: "2015-08-13T07:50:46Z", purchases: 7, digest: "SHA-1"),
        RealReceipt(
            file: "13_sandbox_2018_sha1_1iap_revenuecat.b64", bundleId: "com.belive.app.ios",
            created: "2018-11-13T16:46:31Z", purchases: 1, digest: "SHA-1"),
        RealReceipt(
            file: "14_sandbox_ios_2017_noiap_mindnode.b64", bundleId: "com.mindnode.mindnodetouch",
            created: "2017-09-11T09:38:34Z", purchases: 0, digest: "SHA-1"),
    ]

    static func text(_ file: String) throws -> String {
        String(decoding: try TestVectorFiles.data("receipts/\(file)"), as: UTF8.self)
    }

    static func verifier(
        bundleId: String?, environments: [AppStoreEnvironment] = [.sandbox], cacheCapacity: Int = 64,
        validationTime: ValidationTime = .signedDate, roots: [Data] = AppleRootCertificate.defaultReceiptRoots
    ) throws -> AppReceiptVerifier {
        try AppReceiptVerifier(
            rootCertificates: roots, bundleId: bundleId, environments: environments, validationTime: validationTime,
            chainCacheCapacity: cacheCapacity)
    }

    @Test("verifies at its creation date with the default root, and decodes", arguments: appStoreReceipts)
    func verifies(_ real: RealReceipt) throws {
        let verifier = try Self.verifier(bundleId: real.bundleId)
        let result = verifier.verifyAndDecodeAppReceipt(try Self.text(real.file))
        guard case .verified(let verified) = result else {
            Issue.record("not verified: \(String(describing: result.error))")
            return
        }
        let receipt = verified.payload
        #expect(receipt.bundleId == real.bundleId)
        #expect(receipt.receiptType == "ProductionSandbox")
        #expect(verified.environment == .sandbox)
        #expect(receipt.inApp.count == real.purchases)
        let created = try #require(ISO8601DateFormatter().date(from: real.created))
        #expect(receipt.receiptCreationDate == created)
        #expect(verified.validationTime == created)
        #expect(verified.chain.count == 3)
        #expect(verified.chain.last?.sha256Fingerprint == AppleRootCertificate.appleIncRootSHA256)
        #expect(verified.report.steps.first { $0.name == .algorithm }?.detail.hasSuffix(real.digest) == true)
        #expect(verified.report.failedStep == nil)
    }

    @Test("a warm verifier decides as a cold one, and answers from its cache", arguments: appStoreReceipts)
    func warmEqualsCold(_ real: RealReceipt) throws {
        let text = try Self.text(real.file)
        let warm = try Self.verifier(bundleId: real.bundleId)
        let cold = try Self.verifier(bundleId: real.bundleId, cacheCapacity: 0)
        let first = warm.verifyAndDecodeAppReceipt(text)
        let second = warm.verifyAndDecodeAppReceipt(text)
        let reference = cold.verifyAndDecodeAppReceipt(text)
        #expect(warm.cacheStatistics.hits == 1)
        #expect(cold.cacheStatistics.count == 0)
        #expect(first.isVerified && second.isVerified && reference.isVerified)
        #expect(second.report == reference.report)
        #expect(second.payload == reference.payload)
    }

    @Test("raw DER bytes and base64 with line breaks verify alike")
    func inputForms() throws {
        let real = Self.appStoreReceipts[0]
        let text = try Self.text(real.file).trimmingCharacters(in: .whitespacesAndNewlines)
        let der = try #require(Data(base64Encoded: text))
        let verifier = try Self.verifier(bundleId: real.bundleId)
        #expect(verifier.verifyAndDecodeAppReceipt(der).isVerified)
        let wrapped = stride(from: 0, to: text.count, by: 76).map { offset -> String in
            let start = text.index(text.startIndex, offsetBy: offset)
            return String(text[start..<(text.index(start, offsetBy: 76, limitedBy: text.endIndex) ?? text.endIndex)])
        }.joined(separator: "\r\n")
        #expect(verifier.verifyAndDecodeAppReceipt(wrapped).isVerified)
    }

    @Test("wrong bundle id, wrong environment, other root, current time: each with its code")
    func claimsAndChainFailures() throws {
        let real = Self.appStoreReceipts[2]  // 2015: every certificate but the root has expired since
        let text = try Self.text(real.file)
        func code(_ verifier: AppReceiptVerifier) -> VerificationError.Code? {
            verifier.verifyAndDecodeAppReceipt(text).error?.code
        }
        #expect(code(try Self.verifier(bundleId: "com.example.other")) == .invalidAppIdentifier)
        #expect(code(try Self.verifier(bundleId: real.bundleId, environments: [.production])) == .invalidEnvironment)
        #expect(
            code(try Self.verifier(bundleId: real.bundleId, roots: [AppleRootCertificate.rootCAG3])) == .untrustedChain)
        let expired = try Self.verifier(bundleId: real.bundleId, validationTime: .current)
            .verifyAndDecodeAppReceipt(text).error
        #expect(expired?.code == .certificateExpired)
        // OpenSSL checks validity from the root down: the intermediate (expired 2016) is the first it finds.
        #expect(
            expired?.message.hasPrefix(
                "the intermediate certificate (CN=Apple Worldwide Developer Relations Certification Authority) is not valid at"
            )
                == true, "\(expired?.message ?? "")")
        let signerExpired = try Self.verifier(
            bundleId: real.bundleId, validationTime: .fixed(Date(timeIntervalSince1970: 1_447_300_000))
        ).verifyAndDecodeAppReceipt(text).error  // 2015-11-12: after the leaf's end (2015-11-11), before the intermediate's
        #expect(signerExpired?.code == .certificateExpired)
        #expect(
            signerExpired?.message.hasPrefix("the receipt signer certificate (CN=Mac App Store Receipt Signing)")
                == true)
        #expect(code(try Self.verifier(bundleId: real.bundleId, environments: [.production, .sandbox])) == nil)
    }
}

/// StoreKit Testing (Xcode) receipts: BER with indefinite lengths, one self-signed certificate, pinned.
@Suite("Receipt verification of Xcode receipts")
struct XcodeReceiptVerificationTests {
    static var certificate: Data {
        get throws { try TestVectorFiles.data("apple-library/xcode/StoreKitReceiptCertificate.cer") }
    }

    static func receipt(_ path: String) throws -> String {
        String(decoding: try TestVectorFiles.data(path), as: UTF8.self)
    }

    @Test(
        "verifies against the pinned StoreKit certificate",
        arguments: [
            ("apple-library/xcode/xcode-app-receipt-empty", "com.example", 0),
            ("apple-library/xcode/xcode-app-receipt-with-transaction", "com.example", 1),
            ("receipts/03_xcode_2020_one-iap_offset-dates_tpinappreceipt.b64", "net.zachariadis.cyclemaps", 1),
        ])
    func verifies(_ path: String, _ bundleId: String, _ purchases: Int) throws {
        let verifier = try AppReceiptVerifier(
            bundleId: nil, environments: [.xcode], xcodeCertificate: try Self.certificate)
        let result = verifier.verifyAndDecodeAppReceipt(try Self.receipt(path))
        guard case .verified(let verified) = result else {
            Issue.record("not verified: \(String(describing: result.error))")
            return
        }
        #expect(verified.payload.receiptType == "Xcode")
        #expect(verified.environment == .xcode)
        #expect(verified.payload.inApp.count == purchases)
        if path.hasPrefix("receipts/") { #expect(verified.payload.bundleId == bundleId) }
    }

    @Test("another pinned certificate, or Apple's root: untrustedChain")
    func otherTrust() throws {
        let text = try Self.receipt("apple-library/xcode/xcode-app-receipt-with-transaction")
        let jwsCertificate = try TestVectorFiles.data("apple-library/xcode/StoreKitTestCertificate.cer")
        let pinnedOther = try AppReceiptVerifier(
            bundleId: nil, environments: [.xcode], xcodeCertificate: jwsCertificate)
        #expect(pinnedOther.verifyAndDecodeAppReceipt(text).error?.code == .untrustedChain)
        let apple = try AppReceiptVerifier(bundleId: nil, environments: [.sandbox])
        #expect(apple.verifyAndDecodeAppReceipt(text).error?.code == .untrustedChain)
    }
}

/// The real receipts and verifier of ``ReceiptVerificationTests``, for the receipt check suites whose tests were
/// written against them (``ReceiptCheck01FormatTests``, ``ReceiptCheck08SignatureTests``).
protocol RealReceiptFixture {}

extension RealReceiptFixture {
    static var appStoreReceipts: [ReceiptVerificationTests.RealReceipt] { ReceiptVerificationTests.appStoreReceipts }

    static func text(_ file: String) throws -> String { try ReceiptVerificationTests.text(file) }

    static func verifier(
        bundleId: String?, environments: [AppStoreEnvironment] = [.sandbox], cacheCapacity: Int = 64,
        validationTime: ValidationTime = .signedDate, roots: [Data] = AppleRootCertificate.defaultReceiptRoots
    ) throws -> AppReceiptVerifier {
        try ReceiptVerificationTests.verifier(
            bundleId: bundleId, environments: environments, cacheCapacity: cacheCapacity,
            validationTime: validationTime, roots: roots)
    }
}
