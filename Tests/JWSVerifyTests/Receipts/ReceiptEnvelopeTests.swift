import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// A TLV of `contents`.
private func tlv(_ tag: UInt8, _ contents: [UInt8]) -> [UInt8] { Array(TestDER.tlv(tag, Data(contents))) }

/// The fields of a real receipt's SignedData as TLVs, read by hand, so that a test can change one and put the
/// envelope back together.
private struct EnvelopeParts {
    var contentType: [UInt8]
    var version: [UInt8]
    var digestAlgorithms: [UInt8]
    var encapsulated: [UInt8]
    var certificates: [UInt8]?
    var crls: [UInt8]? = nil
    var signerInfos: [[UInt8]]
    var signer: [[UInt8]]

    init(_ der: [UInt8]) throws {
        var root = DERReader(der)
        var contentInfo = try root.readSequence()
        contentType = Array(contentInfo.slice(try contentInfo.readObjectIdentifier().encoded))
        var explicit = try contentInfo.nested(in: contentInfo.readContext(0, constructed: true))
        var signedData = try explicit.readSequence()
        func next() throws -> [UInt8] { Array(signedData.slice(try signedData.readElement().encoded)) }
        version = try next()
        digestAlgorithms = try next()
        encapsulated = try next()
        certificates = try next()
        var set = try signedData.readSet()
        var signerInfo = try set.readSequence()
        signerInfos = []
        signer = []
        while !signerInfo.isAtEnd { signer.append(Array(signerInfo.slice(try signerInfo.readElement().encoded))) }
    }

    /// The envelope, with ``signer`` as the one SignerInfo unless ``signerInfos`` is set.
    var der: [UInt8] {
        let infos = signerInfos.isEmpty ? [tlv(0x30, signer.flatMap { $0 })] : signerInfos
        let body =
            version + digestAlgorithms + encapsulated + (certificates ?? []) + (crls ?? [])
            + tlv(0x31, infos.flatMap { $0 })
        return tlv(0x30, contentType + tlv(0xA0, tlv(0x30, body)))
    }
}

/// The reason ``ReceiptEnvelope/parse(_:)`` refuses `der`, `nil` when it scans.
private func refusal(_ der: [UInt8]) -> String? {
    do throws(DERError) {
        _ = try ReceiptEnvelope.parse(der)
        return nil
    } catch {
        #expect(ReceiptEnvelope.scan(der) == nil)
        return error.reason
    }
}

/// What openssl shows of one real receipt's envelope (`openssl cms -cmsout -print`, `openssl pkcs7 -print_certs`,
/// `sha256sum` of the content `openssl cms -verify -noverify` writes).
struct ExpectedEnvelope: Sendable, CustomStringConvertible {
    let file: String
    let sha256: Bool
    let certificateSizes: [Int]
    let leafName: String
    let signerSerial: String
    let contentSize: Int
    let contentSHA256: String
    var description: String { file }
}

@Suite("Receipt envelope scanner")
struct ReceiptEnvelopeTests {
    static let sha1OID: [UInt8] = [0x2B, 0x0E, 0x03, 0x02, 0x1A]
    static let sha256OID: [UInt8] = [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01]
    static let rsaEncryptionOID: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]
    static let wwdr = "Apple Worldwide Developer Relations Certification Authority"
    static let newLeaf = "Mac App Store and iTunes Store Receipt Signing"

    static let expected: [ExpectedEnvelope] = [
        ExpectedEnvelope(
            file: "04_sandbox_2025_sha256-G5_2iap_tpinappreceipt.b64", sha256: true,
            certificateSizes: [1482, 1113, 1215],
            leafName: newLeaf, signerSerial: "7D3920094EBEF3F8EFCA6C10EA8E4303", contentSize: 1344,
            contentSHA256: "F3C19B4FA168A0B3BAC247E57DADF69A4BD26CE3FE5C93B7A8FB74328C7170BE"),
        ExpectedEnvelope(
            file: "06_sandbox_2020_sha1_187iap_tpinappreceipt.b64", sha256: false,
            certificateSizes: [1408, 1062, 1215],
            leafName: newLeaf, signerSerial: "0EEB5787E79E098D", contentSize: 74_884,
            contentSHA256: "FBBC5E17DFE6D2A714800F2AAB35A151319BA1B24D2C38BD95321BE83AED1FD7"),
        ExpectedEnvelope(
            file: "08_sandbox_2015_sha1-oldleaf_7iap_mbaasy.b64", sha256: false, certificateSizes: [1391, 1063, 1215],
            leafName: "Mac App Store Receipt Signing", signerSerial: "1859432172749CFC", contentSize: 3046,
            contentSHA256: "C173F2302A8704763EBBFE9D3A8AF6B3F497BB707F73629EB170EAC2DA55EBA7"),
        ExpectedEnvelope(
            file: "13_sandbox_2018_sha1_1iap_revenuecat.b64", sha256: false, certificateSizes: [1408, 1062, 1215],
            leafName: newLeaf, signerSerial: "0EEB5787E79E098D", contentSize: 838,
            contentSHA256: "7D7633C8E854FDF9FA6F9BF785A7D6B1744875E8B4EF58A82467D36CA0FEEC51"),
        ExpectedEnvelope(
            file: "14_sandbox_ios_2017_noiap_mindnode.b64", sha256: false, certificateSizes: [1408, 1062, 1215],
            leafName: newLeaf, signerSerial: "0EEB5787E79E098D", contentSize: 555,
            contentSHA256: "F425E6D1D7364AB2E9EC6847F1C7BD37A1C69761A8A188BCCC9F7D6D809360B5"),
    ]

    /// Input: each real DER receipt. Expected: what openssl shows: the digest (SHA-1 or SHA-256, NULL parameters),
    /// the content (size and SHA-256), three certificates (sizes, subjects: leaf, WWDR, Apple Root CA, each parsed
    /// by OpenSSL from its slice), the certificates field exactly around them, a version 1 signer named by the
    /// leaf's issuer and serial, rsaEncryption, a 256-byte signature, no signed attributes.
    @Test("every real DER receipt scans to the parts openssl shows", arguments: expected)
    func realEnvelopes(expected: ExpectedEnvelope) throws {
        let der = try ReceiptVectors.receipt(expected.file)
        let envelope = try #require(ReceiptEnvelope.scan(der))
        let digest = expected.sha256 ? Self.sha256OID : Self.sha1OID
        #expect(envelope.digestAlgorithms == [ReceiptEnvelope.Algorithm(oid: digest, hasNullParameters: true)])
        #expect(envelope.signerDigestAlgorithm == ReceiptEnvelope.Algorithm(oid: digest, hasNullParameters: true))
        #expect(envelope.content.count == expected.contentSize)
        #expect(ReceiptVectors.hex(SHA256.hash(envelope.content)) == expected.contentSHA256)
        #expect(envelope.certificates.map(\.count) == expected.certificateSizes)
        let certificates = try envelope.certificates.map { try #require(Certificate(der: $0)) }
        #expect(certificates.map(\.subjectCommonName) == [expected.leafName, Self.wwdr, "Apple Root CA"])
        let field = Array(der[envelope.certificatesFieldRange])
        #expect(field == tlv(0xA0, envelope.certificates.flatMap { $0 }))
        #expect(envelope.signerVersion == 1)
        let serial = Array(der[envelope.signerSerialNumberRange])
        #expect(serial.first == 0x02 && ReceiptVectors.hex(serial.dropFirst(2)) == expected.signerSerial)
        #expect(certificates[0].serialNumberHex == expected.signerSerial)
        let issuer = Array(der[envelope.signerIssuerRange])
        #expect(issuer.first == 0x30)
        #expect(envelope.certificates[0].firstRange(of: issuer) != nil, "the issuer Name is the leaf's")
        #expect(
            envelope.signatureAlgorithm
                == ReceiptEnvelope.Algorithm(oid: Self.rsaEncryptionOID, hasNullParameters: true))
        #expect(envelope.signature.count == 256)
        #expect(envelope.signedAttributesRange == nil)
    }

    /// Input: Apple's and TPInAppReceipt's Xcode receipts (BER). Expected: refused, at the indefinite length of
    /// the outer SEQUENCE; yet they start like SignedData, so they are not described as something else.
    @Test("Xcode receipts in BER are refused", arguments: ReceiptVectors.xcodePaths)
    func xcodeIsRefused(path: String) throws {
        let der = try ReceiptVectors.bytes(path)
        #expect(der.prefix(2) == [0x30, 0x80])
        #expect(refusal(der) == "indefinite length (BER), which DER forbids")
        #expect(ReceiptInputDescription.describeNonReceipt(der) == nil)
        #expect(ReceiptInputDescription.describeNonReceipt(try ReceiptVectors.text(path)) == nil)
    }

    /// Input: receipt 13 taken apart and put back, unchanged and with one change each. Expected: unchanged, the
    /// same bytes and scanned; each change refused with its reason (or, for signed attributes, accepted and
    /// returned).
    @Test("anything but the receipt shape is refused")
    func shapeIsEnforced() throws {
        let original = try ReceiptVectors.receipt("13_sandbox_2018_sha1_1iap_revenuecat.b64")
        let parts = try EnvelopeParts(original)
        #expect(parts.der == original)
        #expect(refusal(parts.der) == nil)
        let null: [UInt8] = [0x05, 0x00]
        let dataOID = tlv(0x06, ReceiptEnvelope.dataOID)
        func changed(_ change: (inout EnvelopeParts) -> Void) -> [UInt8] {
            var copy = parts
            change(&copy)
            return copy.der
        }
        let cases: [(String, [UInt8])] = [
            ("1 byte after the last element", original + [0]),
            ("a content type other than signedData", changed { $0.contentType = dataOID }),
            ("a SignedData version other than 1", changed { $0.version = [0x02, 0x01, 0x03] }),
            ("no digest algorithm", changed { $0.digestAlgorithms = [0x31, 0x00] }),
            (
                "expected a NULL, found an OCTET STRING",
                changed { $0.digestAlgorithms = tlv(0x31, tlv(0x30, tlv(0x06, Self.sha1OID) + [0x04, 0x00])) }
            ),
            ("an eContentType other than data", changed { $0.encapsulated = tlv(0x30, tlv(0x06, Self.sha1OID)) }),
            ("no eContent (detached content)", changed { $0.encapsulated = tlv(0x30, dataOID) }),
            (
                "expected an OCTET STRING, found a constructed OCTET STRING",
                changed { $0.encapsulated = tlv(0x30, dataOID + tlv(0xA0, tlv(0x24, tlv(0x04, [1])))) }
            ),
            ("expected tag [0] (constructed), found a SET", changed { $0.certificates = nil }),
            ("no certificate", changed { $0.certificates = [0xA0, 0x00] }),
            (
                "expected a SEQUENCE, found tag [1] (constructed)",
                changed { $0.certificates = tlv(0xA0, [0xA1, 0x00]) }
            ),
            (
                "the long form for length 1 is not minimal (DER)",
                changed { $0.certificates = tlv(0xA0, tlv(0x30, [0x04, 0x81, 0x01, 0x41])) }
            ),
            ("CRLs, which receipts do not carry", changed { $0.crls = [0xA1, 0x00] }),
            (
                "more than one SignerInfo",
                changed { $0.signerInfos = [tlv(0x30, $0.signer.flatMap { $0 }), [0x30, 0x00]] }
            ),
            ("a SignerInfo version other than 1", changed { $0.signer[0] = [0x02, 0x01, 0x03] }),
            ("an empty signature", changed { $0.signer[4] = [0x04, 0x00] }),
            ("unsigned attributes, which receipts do not carry", changed { $0.signer.append([0xA1, 0x00]) }),
            ("2 bytes after the last element", changed { $0.signer.append(null) }),
            (
                "expected a SET, found a SEQUENCE",  // a signed attribute whose values are not a SET (fuzz finding)
                changed {
                    $0.signer.insert(tlv(0xA0, tlv(0x30, tlv(0x06, ReceiptEnvelope.dataOID) + [0x30, 0x00])), at: 3)
                }
            ),
        ]
        for (reason, der) in cases {
            let found = refusal(der)
            #expect(found?.hasPrefix(reason) == true, "\(reason): \(found ?? "scanned")")
        }
        let longOuter = [0x30, 0x84, 0x00, 0x00] + original.dropFirst(2)
        #expect(original.prefix(2) == [0x30, 0x82])
        #expect(refusal(Array(longOuter)) == "a length with a leading zero octet is not minimal (DER)")

        let attributes = tlv(0xA0, tlv(0x30, tlv(0x06, ReceiptEnvelope.dataOID) + tlv(0x31, null)))
        let signed = changed { $0.signer.insert(attributes, at: 3) }
        let envelope = try #require(ReceiptEnvelope.scan(signed))
        #expect(envelope.signedAttributesRange.map { Array(signed[$0]) } == attributes)
    }

    /// Input: receipt 13 with, in an embedded certificate, the signature BIT STRING's unused-bits octet set to 7 and
    /// its last bit set, or the first BOOLEAN TRUE (`01 01 FF`) written `01 01 01`. Expected: OpenSSL still parses
    /// both; it re-encodes the first certificate to other bytes (the signature is outside the TBS encoding it
    /// keeps); the scan refuses each with its DER rule (found by the `receipts` fuzz target,
    /// `Fuzz/regressions/receipts/certificate-bit-string-unused-bits-dfc83f20`).
    @Test("a certificate OpenSSL would re-encode (BIT STRING padding, BOOLEAN 0x01) is refused")
    func certificateContentRules() throws {
        let original = try ReceiptVectors.receipt("13_sandbox_2018_sha1_1iap_revenuecat.b64")
        let envelope = try #require(ReceiptEnvelope.scan(original))
        let last = try #require(envelope.certificateRanges.last)
        // Certificate ::= SEQUENCE { tbs, algorithm, signature BIT STRING }: the RSA-2048 signature is the last
        // 256 bytes, after its unused-bits octet.
        var padded = original
        #expect(padded[last.upperBound - 257] == 0x00)
        padded[last.upperBound - 257] = 0x07
        padded[last.upperBound - 1] |= 0x01
        var boolean = original
        let first = try #require(
            (envelope.certificatesFieldRange.lowerBound..<(envelope.certificatesFieldRange.upperBound - 3)).first {
                original[$0] == 0x01 && original[$0 + 1] == 0x01 && original[$0 + 2] == 0xFF
            })
        boolean[first + 2] = 0x01
        for (bytes, reason, reencoded) in [
            (padded, "a BIT STRING whose unused bits are not zero (DER)", true),
            (boolean, "a BOOLEAN that is not one octet 0x00 or 0xFF (DER)", false),
        ] {
            guard case .success(let cms) = CMSReceipt.parse(bytes) else {
                Issue.record("OpenSSL refuses the changed receipt (\(reason))")
                continue
            }
            let rewritten = zip(cms.certificates, envelope.certificateRanges).contains { certificate, range in
                certificate?.der.elementsEqual(bytes[range]) != true
            }
            #expect(rewritten == reencoded, "OpenSSL re-encodes a certificate: \(rewritten) (\(reason))")
            #expect(refusal(bytes) == reason)
        }
    }

    /// Input: every truncation of receipt 13 (5,052 bytes). Expected: none scans.
    @Test("every truncation of a real envelope is refused")
    func truncations() throws {
        let der = try ReceiptVectors.receipt("13_sandbox_2018_sha1_1iap_revenuecat.b64")
        #expect(der.count == 5052)
        for count in 0..<der.count { #expect(ReceiptEnvelope.scan(Array(der.prefix(count))) == nil, "prefix \(count)") }
    }

    /// Input: inputs that are not receipts. Expected: each described for what it is; real receipts, raw and in
    /// base64 (with their newline), described as nothing.
    @Test("inputs that are not receipts are described")
    func descriptions() throws {
        func describe(_ bytes: [UInt8]) -> String { ReceiptInputDescription.describeNonReceipt(bytes) ?? "nil" }
        let ios6 = try ReceiptVectors.text("receipts/12_ios6-transaction-receipt_sandbox_appreceiptvalidator.b64")
        #expect(describe(ios6).hasPrefix("base64 of an iOS 6 transaction receipt (SKPaymentTransaction"))
        #expect(
            describe(try ReceiptVectors.bytes("receipts/12_ios6-transaction-receipt_sandbox_appreceiptvalidator.b64"))
                .hasPrefix("an iOS 6 transaction receipt"))
        #expect(
            describe(try ReceiptVectors.text("apple-library/mock_signed_data/legacyTransaction"))
                .hasPrefix("base64 of an iOS 6 transaction receipt"))
        #expect(
            describe(try ReceiptVectors.text("apple-library/mock_signed_data/transactionInfo")).hasPrefix("a JWS token")
        )
        #expect(describe(Array(" \n".utf8)) == "empty input, not an app receipt")
        #expect(describe(Array("{\"receipt-data\": \"\"}".utf8)) == "JSON or property-list text, not an app receipt")
        #expect(
            describe(Array("-----BEGIN CERTIFICATE-----\nMII=".utf8)) == "a PEM block (CERTIFICATE), not an app receipt"
        )
        #expect(describe(Array("-----BEGIN \u{1B}[2J-----".utf8)) == "a PEM block (\\u001B[2J), not an app receipt")
        let envelopedData = tlv(0x30, tlv(0x06, [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x03]))
        #expect(describe(envelopedData) == "a PKCS#7 ContentInfo of type 1.2.840.113549.1.7.3, not SignedData")
        #expect(describe(Array(Base64.encodeStandard(envelopedData).utf8)).hasPrefix("base64 of a PKCS#7 ContentInfo"))
        #expect(describe([0x30, 0x03, 0x02, 0x01, 0x00]) == "DER data (5 bytes) that is not a PKCS#7 SignedData")
        #expect(describe([0xDE, 0xAD]) == "2 bytes that are neither a PKCS#7 SignedData nor base64 of one")
        for file in ReceiptVectors.derFiles {
            #expect(describe(try ReceiptVectors.receipt(file)) == "nil", "\(file)")
            #expect(describe(try ReceiptVectors.text("receipts/" + file)) == "nil", "\(file)")
        }
    }
}
