import Foundation
import Testing

@testable import JWSVerify
@testable import JWSVerifyTesting

/// JWSVerify's receipt verifier against OpenSSL's own `CMS_verify` (``ReceiptReference``, purpose any, the
/// embedded certificates as the only untrusted ones, the configured root trusted, at the same validation time):
/// - whenever JWSVerify passes checks 1 to 8, OpenSSL verifies, with the same signer and content;
/// - whenever OpenSSL refuses, JWSVerify fails one of checks 1 to 8;
/// - where OpenSSL verifies and JWSVerify refuses at checks 1 to 8, the receipt breaks one of the rules by which
///   JWSVerify is stricter by design (``StricterRule``: Apple's markers, RSA ≥ 2048, SHA-1 or SHA-256 only, the
///   PKCS #1 v1.5 signature OIDs, exactly signer ← embedded intermediate ← root, no trailing bytes, id-data, one
///   signer, strict DER content), and the crafted receipt says which.
/// A cold verifier (`chainCacheCapacity: 0`) and a warm one (primed) are both compared. Xcode receipts are compared
/// with the pinned StoreKit certificate as OpenSSL's root; JWSVerify does not enforce that certificate's validity
/// (as Xcode does not), but the vectors are inside it, so the rule holds for them too.
@Suite("Receipt differential: JWSVerify against OpenSSL's CMS_verify")
struct ReceiptDifferentialTests {
    /// Checks the rule for one receipt; returns OpenSSL's verdict.
    @discardableResult
    static func compare(
        _ label: String, ours: ReceiptOutcome, receipt: [UInt8], roots: [Data], at time: Date,
        stricter: StricterRule?, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ReceiptReference.Verdict {
        let oracle = try ReceiptReference.verify(receipt, roots: roots, at: time, purpose: .any)
        if ours.passedSignatureChecks {
            #expect(
                oracle.verified, "\(label): JWSVerify passed checks 1-8, OpenSSL refused: \(oracle.reason)",
                sourceLocation: sourceLocation)
            if oracle.verified, let chain = ours.chain.first {
                #expect(
                    oracle.signerCertificate == chain.der, "\(label): another signer", sourceLocation: sourceLocation)
            }
        } else if oracle.verified {
            #expect(
                stricter != nil, "\(label): OpenSSL verified, JWSVerify refused (\(ours)) by no rule of its own",
                sourceLocation: sourceLocation)
        }
        if !oracle.verified {
            #expect(!ours.passedSignatureChecks, "\(label)", sourceLocation: sourceLocation)
            #expect(
                stricter == nil,
                "\(label): tagged \(stricter?.rawValue ?? "") but OpenSSL refused too: \(oracle.reason)",
                sourceLocation: sourceLocation)
        }
        return oracle
    }

    /// Input: every crafted receipt of the contract and one-verdict suites, at its validation time, with the
    /// fixture's root. Expected: the rule above, for a cold verifier and for a primed warm one; where both
    /// verify, OpenSSL's content is the content JWSVerify decoded.
    @Test(
        "every crafted receipt: JWSVerify and OpenSSL agree, but for JWSVerify's own rules",
        arguments: CraftedReceipts.ids)
    func crafted(_ id: String) throws {
        let crafted = try CraftedReceipts.named(id)
        let roots = [try ReceiptFixture.get().pki.rootDER]
        let cold = crafted.outcome(try crafted.verifier(capacity: 0))
        let oracle = try Self.compare(
            id, ours: cold, receipt: crafted.receipt, roots: roots, at: crafted.time, stricter: crafted.stricter)
        if oracle.verified, let payload = cold.payload, let content = oracle.content {
            #expect(try AppReceipt(content: content) == payload, "\(id)")
        }
        let warm = try crafted.verifier(capacity: 64)
        _ = warm.outcome(crafted.primer)
        try Self.compare(
            id + " (warm)", ours: crafted.outcome(warm), receipt: crafted.receipt, roots: roots, at: crafted.time,
            stricter: crafted.stricter)
    }

    /// A real receipt of `TestVectors`, with the verifier and root it is judged by.
    struct RealReceipt: Sendable, CustomTestStringConvertible {
        let path: String
        let xcode: Bool
        var testDescription: String { path }
    }

    static let realReceipts: [RealReceipt] =
        ReceiptVectors.derFiles.map { RealReceipt(path: "receipts/" + $0, xcode: false) }
        + ReceiptVectors.xcodePaths.map { RealReceipt(path: $0, xcode: true) }
        + [RealReceipt(path: "receipts/12_ios6-transaction-receipt_sandbox_appreceiptvalidator.b64", xcode: false)]

    static var xcodeCertificate: Data {
        get throws { try TestVectorFiles.data("apple-library/xcode/StoreKitReceiptCertificate.cer") }
    }

    /// Input: every real receipt in TestVectors (App Store receipts with Apple Inc. Root, Xcode receipts with the
    /// pinned StoreKit certificate as OpenSSL's root, the iOS 6 transaction receipt) at its creation date, as is
    /// and with its signature changed, a byte after it, and its content changed. Expected: the rule above; the
    /// unmodified App Store and Xcode receipts verify in both; the modified ones fail in both but the trailing
    /// byte, which only JWSVerify refuses.
    @Test("every real receipt, as is and altered: JWSVerify and OpenSSL agree", arguments: realReceipts)
    func real(_ real: RealReceipt) throws {
        let text = String(decoding: try TestVectorFiles.data(real.path), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let bytes = try #require(Base64.decodeStandard(Array(text.utf8)), "\(real.path)")
        let roots = real.xcode ? [try Self.xcodeCertificate] : [AppleRootCertificate.appleIncRoot]
        func verifier(_ capacity: Int) throws -> AppReceiptVerifier {
            try AppReceiptVerifier(
                rootCertificates: real.xcode ? AppleRootCertificate.defaultReceiptRoots : roots, bundleId: nil,
                environments: real.xcode ? [.xcode] : [], xcodeCertificate: real.xcode ? roots[0] : nil,
                chainCacheCapacity: capacity)
        }
        let cold = try verifier(0)
        let warm = try verifier(64)
        let original = cold.verifyAndDecodeAppReceipt(Data(bytes))
        let time = original.payload?.receiptCreationDate ?? original.unverifiedPayload?.receiptCreationDate ?? Date()
        let isReceipt = !real.path.contains("ios6")
        #expect(original.isVerified == isReceipt, "\(real.path): \(String(describing: original.error))")
        var variants: [(String, [UInt8], StricterRule?)] = [
            ("as is", bytes, nil), ("trailing byte", bytes + [0], .trailingBytes),
        ]
        if isReceipt {
            var signature = bytes
            // The signature is the last element of a DER receipt, and ends right before the end-of-contents
            // octets of a BER one: flip the last byte that is not part of those.
            let end = real.xcode ? try #require(Self.lastSignatureByte(of: bytes)) : bytes.count - 1
            signature[end] ^= 0x01
            variants.append(("signature", signature, nil))
            var content = bytes
            let at = try #require(Self.contentByte(of: bytes), "\(real.path)")
            content[at] ^= 0x01
            variants.append(("content", content, nil))
        } else {
            variants.removeLast()
        }
        _ = warm.verifyAndDecodeAppReceipt(Data(bytes))
        for (label, receipt, stricter) in variants {
            let name = "\(real.path) \(label)"
            let ours = ReceiptOutcome(cold.verifyAndDecodeAppReceipt(Data(receipt)))
            let oracle = try Self.compare(
                name, ours: ours, receipt: receipt, roots: roots, at: time, stricter: stricter)
            #expect(ReceiptOutcome(warm.verifyAndDecodeAppReceipt(Data(receipt))) == ours, "\(name): warm != cold")
            if label == "as is" { #expect(oracle.verified == isReceipt, "\(name): \(oracle.reason)") }
            if label == "signature" || label == "content" { #expect(ours.code != nil && !oracle.verified, "\(name)") }
        }
    }

    /// The offset of a byte inside a BER receipt's signature: the last byte before its trailing end-of-contents
    /// octets.
    static func lastSignatureByte(of bytes: [UInt8]) -> Int? {
        var end = bytes.count
        while end >= 2 && bytes[end - 1] == 0 && bytes[end - 2] == 0 { end -= 2 }
        return end > 0 ? end - 1 : nil
    }

    /// The offset of a byte of the content to change: the middle of the content as OpenSSL's parse gives it,
    /// found in the receipt's bytes.
    static func contentByte(of bytes: [UInt8]) -> Int? {
        guard let content = try? CMSReceipt.parse(bytes).get().content, content.count > 40 else { return nil }
        let window = Array(content[(content.count / 2)..<(content.count / 2 + 16)])
        return (0...(bytes.count - window.count)).first { bytes[$0..<($0 + window.count)].elementsEqual(window) }
    }

    /// Input: the content of every real App Store receipt, re-signed by the test PKI (SHA-1 and SHA-256, DER
    /// and BER), judged with the test PKI's root at the receipt's creation date moved into the PKI's validity.
    /// Expected: both verify, with the same content.
    @Test("real receipt contents re-signed by the test PKI verify in both", arguments: ReceiptVectors.derFiles)
    func resigned(_ file: String) throws {
        let fixture = try ReceiptFixture.get()
        var receipt = try ReceiptVectors.decoded(file)
        receipt.receiptCreationDate = ReceiptFixture.created
        let content = ReceiptContentEncoder.content(receipt)
        let verifier = try ReceiptVerifiers.make(capacity: 0, bundleId: receipt.bundleId, environments: [.sandbox])
        for digest in [ReceiptDigest.sha1, .sha256] {
            for encoding in ReceiptEncoding.allCases {
                let signed = try ReceiptSigner(hierarchy: fixture.pki).sign(
                    content: content, options: .init(digest: digest, encoding: encoding))
                let ours = verifier.outcome(signed)
                #expect(ours.code == nil, "\(file) \(digest) \(encoding): \(ours)")
                let oracle = try Self.compare(
                    "\(file) \(digest) \(encoding)", ours: ours, receipt: signed, roots: [fixture.pki.rootDER],
                    at: ReceiptFixture.created, stricter: nil)
                #expect(oracle.content == content)
            }
        }
    }

    /// Input: 300 seeded single-bit flips anywhere in a good SHA-1 receipt and in a good SHA-256 one (the
    /// certificates, the SignerInfo, the content, the lengths). Expected: the rule above for each, cold and warm
    /// alike; most flips are refused by both, some (in the embedded root, which the trust store replaces) verify
    /// in both; the few JWSVerify refuses where OpenSSL verifies are those of its own rules at the format or the
    /// algorithms (rsaEncryption's OID is one bit away from sha1WithRSAEncryption's).
    @Test("seeded bit flips: JWSVerify and OpenSSL agree, warm as cold")
    func bitFlips() throws {
        let fixture = try ReceiptFixture.get()
        let roots = [fixture.pki.rootDER]
        let cold = try ReceiptVerifiers.make(capacity: 0)
        let warm = try ReceiptVerifiers.make(capacity: 64)
        var generator = SeededGenerator(seed: 19, label: "receipt-bit-flips")
        var refusedByOwnRules: [String] = []
        var (verifiedByBoth, refusedByBoth) = (0, 0)
        for digest in [ReceiptDigest.sha1, .sha256] {
            let good = try fixture.good(digest: digest)
            #expect(warm.outcome(good).code == nil)
            for _ in 0..<150 {
                var flipped = good
                let offset = Int(generator.next() % UInt64(good.count))
                flipped[offset] ^= UInt8(1) << UInt8(generator.next() % 8)
                let ours = cold.outcome(flipped)
                #expect(warm.outcome(flipped) == ours, "\(digest) flip at \(offset): warm != cold")
                let oracle = try ReceiptReference.verify(
                    flipped, roots: roots, at: ReceiptFixture.created, purpose: .any)
                if ours.passedSignatureChecks {
                    #expect(oracle.verified, "\(digest) flip at \(offset): ours \(ours), OpenSSL \(oracle.reason)")
                    verifiedByBoth += oracle.verified ? 1 : 0
                } else if !oracle.verified {
                    refusedByBoth += 1
                } else {
                    refusedByOwnRules.append("\(offset): \(ours)")
                    #expect(
                        ours.failedStep == .format || ours.failedStep == .algorithm,
                        "\(digest) flip at \(offset): OpenSSL verified, ours \(ours)")
                }
            }
        }
        #expect(refusedByOwnRules.count < 30, "\(refusedByOwnRules)")
        #expect(verifiedByBoth > 0 && refusedByBoth > 200, "\(verifiedByBoth) verified, \(refusedByBoth) refused")
    }
}
