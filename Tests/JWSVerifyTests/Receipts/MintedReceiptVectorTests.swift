import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// The minted receipts of `TestVectors/receipts/minted` (``ReceiptFuzzVectors``): what is committed is what the
/// minting code makes with the committed PKI, and each receipt gets its manifest's verdict from a warm and a cold
/// ``AppReceiptVerifier``.
@Suite("Minted receipt vectors")
struct MintedReceiptVectorTests {
    /// The minted receipts (none before the PKI is written: then only the writer runs).
    static let vectors: [ReceiptFuzzVectors.Vector] = {
        let root = TestVectorFiles.url(ReceiptFuzzVectors.folder + "/pki/root.der")
        guard FileManager.default.fileExists(atPath: root.path) else { return [] }
        return (try? ReceiptFuzzVectors.mint()) ?? []
    }()

    static func committed(_ file: String) throws -> [UInt8] {
        Array(try TestVectorFiles.data(ReceiptFuzzVectors.folder + "/" + file))
    }

    /// Input: the committed PKI. Expected: minting gives every committed receipt byte for byte (but the one with
    /// signed attributes, which hold the signing time), and the manifest.
    @Test("the committed minted receipts are what the minting code makes")
    func committedFilesAreMinted() throws {
        try #require(Self.vectors.count >= 20, "minting failed")
        for vector in Self.vectors where vector.isDeterministic {
            #expect(try Self.committed(vector.file) == vector.bytes, "\(vector.id): regenerate the vectors")
        }
        #expect(
            try Self.committed("manifest.json") == Array(try ReceiptFuzzVectors.manifest(Self.vectors)),
            "manifest.json: regenerate the vectors")
    }

    /// Input: each minted receipt, with the minted device identifier. Expected: the manifest's verdict (verified, or
    /// the code), the same warm, warm again and cold, with the same report.
    @Test("each minted receipt gets its verdict, warm and cold", arguments: vectors.map(\.id))
    func verdict(_ id: String) throws {
        let vector = try #require(Self.vectors.first { $0.id == id })
        let warm = try ReceiptFuzzVectors.verifier(vector.configuration)
        let cold = try ReceiptFuzzVectors.verifier(vector.configuration, cacheCapacity: 0)
        let device = ReceiptFuzzVectors.deviceIdentifier
        let first = warm.verifyAndDecodeAppReceipt(Data(vector.bytes), deviceIdentifier: device)
        let second = warm.verifyAndDecodeAppReceipt(Data(vector.bytes), deviceIdentifier: device)
        let reference = cold.verifyAndDecodeAppReceipt(Data(vector.bytes), deviceIdentifier: device)
        #expect(first.error?.code == vector.code, "\(id): \(String(describing: first.error))")
        #expect(second.error?.code == vector.code && reference.error?.code == vector.code, "\(id)")
        #expect(second.report == reference.report && first.report == reference.report, "\(id)")
        if vector.code == nil { #expect(reference.payload?.bundleId == ReceiptFuzzVectors.bundleId) }
        // The fuzz target's oracles hold on every vector.
        FuzzEntryPoints.receipts(vector.bytes)
    }

    /// Input: a DER minted receipt verified twice by one verifier. Expected: the second answer came from the chain
    /// cache (a strict-DER envelope without signed attributes), BER and signed attributes never enter it.
    @Test("DER receipts are answered from the cache; BER and signed attributes are not cached")
    func cacheUse() throws {
        for (id, cached) in [("der-sha256-2iap", true), ("ber-sha256-2iap", false), ("signed-attributes", false)] {
            let vector = try #require(Self.vectors.first { $0.id == id })
            let verifier = try ReceiptFuzzVectors.verifier(.appStore)
            #expect(verifier.verifyAndDecodeAppReceipt(Data(vector.bytes)).isVerified, "\(id)")
            #expect(verifier.verifyAndDecodeAppReceipt(Data(vector.bytes)).isVerified, "\(id)")
            #expect(verifier.cacheStatistics.hits == (cached ? 1 : 0), "\(id)")
        }
    }

    /// Regenerates `TestVectors/receipts/minted` (a new PKI when `pki/` is missing, then every receipt and the
    /// manifest): `JWSVERIFY_WRITE_VECTORS=1 swift test --filter writeMintedReceiptVectors`.
    @Test(
        "Writes TestVectors/receipts/minted when JWSVERIFY_WRITE_VECTORS=1",
        .enabled(if: ProcessInfo.processInfo.environment["JWSVERIFY_WRITE_VECTORS"] == "1"))
    func writeMintedReceiptVectors() throws {
        let folder = TestVectorFiles.url(ReceiptFuzzVectors.folder)
        let pki = folder.appendingPathComponent("pki")
        if !FileManager.default.fileExists(atPath: pki.appendingPathComponent("root.der").path) {
            try FileManager.default.createDirectory(at: pki, withIntermediateDirectories: true)
            try ReceiptFuzzVectors.writeNewPKI(to: pki)
        }
        let vectors = try ReceiptFuzzVectors.mint()
        for vector in vectors {
            try Data(vector.bytes).write(to: folder.appendingPathComponent(vector.file))
        }
        try ReceiptFuzzVectors.manifest(vectors).write(to: folder.appendingPathComponent("manifest.json"))
        print("wrote \(vectors.count) minted receipts to \(folder.path)")
    }
}
