import Foundation
import Testing

/// The app receipts of `TestVectors` (provenance in `TestVectors/receipts/README.md` and `TestVectors/README.md`)
/// and a receipt test PKI written once by the built binary, for the tests of `receipt`, `inspect`, `mint receipt`
/// and `batch`.
enum ReceiptFixtures {
    /// A real App Store receipt with what its README row says.
    struct Real: CustomStringConvertible, Sendable {
        /// The file under `TestVectors/receipts`.
        let file: String
        /// Field 2.
        let bundleId: String
        /// Field 12, ISO 8601.
        let created: String
        /// How many purchases (field 17).
        let purchases: Int
        /// The SignerInfo's digest, as the `algorithm` step names it.
        let digest: String

        var description: String { file }
        /// The file's path.
        var path: String { CLI.vector("receipts/" + file) }
        /// The file's base64 text, whitespace trimmed.
        func base64() throws -> String { try CLI.token("receipts/" + file) }
        /// The receipt file's bytes.
        func der() throws -> Data { try #require(Data(base64Encoded: base64())) }
    }

    /// The App Store (sandbox) receipts, as `TestVectors/receipts/README.md` lists them.
    static let appStore: [Real] = [
        Real(
            file: "04_sandbox_2025_sha256-G5_2iap_tpinappreceipt.b64", bundleId: "dev.bonzer.weeka.app",
            created: "2025-12-26T18:39:47Z", purchases: 2, digest: "SHA-256"),
        Real(
            file: "06_sandbox_2020_sha1_187iap_tpinappreceipt.b64", bundleId: "com.nutcall.alert",
            created: "2020-05-06T18:28:49Z", purchases: 187, digest: "SHA-1"),
        Real(
            file: "08_sandbox_2015_sha1-oldleaf_7iap_mbaasy.b64", bundleId: "com.mbaasy.ios.demo",
            created: "2015-08-13T07:50:46Z", purchases: 7, digest: "SHA-1"),
        Real(
            file: "13_sandbox_2018_sha1_1iap_revenuecat.b64", bundleId: "com.belive.app.ios",
            created: "2018-11-13T16:46:31Z", purchases: 1, digest: "SHA-1"),
        Real(
            file: "14_sandbox_ios_2017_noiap_mindnode.b64", bundleId: "com.mindnode.mindnodetouch",
            created: "2017-09-11T09:38:34Z", purchases: 0, digest: "SHA-1"),
    ]

    /// The 2025 receipt: SHA-256, WWDR G5, two purchases.
    static var recent: Real { appStore[0] }
    /// The 2015 receipt: every certificate but the root expired since.
    static var expired: Real { appStore[2] }

    /// Not an app receipt: an iOS 6 transaction receipt (a property list), base64.
    static let ios6 = CLI.vector("receipts/12_ios6-transaction-receipt_sandbox_appreceiptvalidator.b64")
    /// Apple's Xcode receipt with one transaction (BER), base64.
    static let xcodeReceipt = CLI.vector("apple-library/xcode/xcode-app-receipt-with-transaction")
    /// The self-signed `CN=StoreKit` certificate that signs ``xcodeReceipt``, DER.
    static let xcodeCertificate = CLI.vector("apple-library/xcode/StoreKitReceiptCertificate.cer")
    /// The StoreKit Testing certificate of Xcode's JWS tokens: not the one that signs its receipts.
    static let xcodeTokenCertificate = CLI.vector("apple-library/xcode/StoreKitTestCertificate.cer")

    /// The bundle id `mint receipt` writes by default.
    static let mintedBundleId = "com.example.jwsverify"

    /// A receipt test PKI (`mint pki --receipt`), made once for the test run in a temporary directory (RSA key
    /// generation is slow).
    static let pki: Result<String, any Error> = Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "jwsverify-receipt-pki-\(UUID().uuidString)"
        ).path
        let run = try CLI.run(["mint", "pki", "--receipt", "--out", directory])
        guard run.status == 0 else { throw CLIFailure(message: "mint pki --receipt failed: \(run.stderr)") }
        return directory
    }

    /// A command that did not do what a fixture needs.
    struct CLIFailure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    /// Mints a receipt with the shared PKI and `arguments`, requiring exit 0 and nothing on standard error.
    static func mint(_ arguments: [String]) throws -> String {
        String(decoding: try mintBytes(arguments), as: UTF8.self)
    }

    /// Mints a receipt as ``mint(_:)`` does and returns standard output's bytes (`--format der`).
    static func mintBytes(_ arguments: [String]) throws -> Data {
        let run = try CLI.run(["mint", "receipt", "--pki", try pki.get()] + arguments)
        try #require(run.status == 0, "mint receipt \(arguments) failed: \(run.stderr)")
        #expect(run.stderr.isEmpty)
        return run.stdoutData
    }

    /// The arguments that trust the shared PKI's root.
    static func trustingPKI() throws -> [String] {
        ["--root", try pki.get() + "/root.der"]
    }

    /// A new temporary file path (the directory is created).
    static func temporaryFile(_ name: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "jwsverify-receipt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent(name)
    }
}

extension Dictionary where Key == String, Value == Any {
    /// The `receipt` object of `receipt --json`.
    var receipt: [String: Any]? { self["receipt"] as? [String: Any] }
    /// Its `in_app` array.
    var purchases: [[String: Any]]? { receipt?["in_app"] as? [[String: Any]] }
    /// The outcome of a report step of `checks`.
    func step(_ name: String) -> [String: Any]? {
        (self["checks"] as? [[String: Any]])?.first { $0["name"] as? String == name }
    }
}
