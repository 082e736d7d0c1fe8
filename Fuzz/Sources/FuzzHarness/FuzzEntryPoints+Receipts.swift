import Foundation
import JWSVerifyTesting

@testable import JWSVerify

extension FuzzEntryPoints {
    // MARK: - receipts

    /// App receipts: the bytes as a receipt's content, as a receipt envelope, and as a receipt to verify.
    ///
    /// 1. The content decoder and the DER reader: `AppReceipt(content:)` on the bytes themselves and on the
    ///    content the envelope scan finds; ``DERReader/validateTree(_:)`` on the bytes.
    /// 2. ``ReceiptEnvelope/scan(_:)`` against OpenSSL's CMS parse (`CMSReceipt`) of the receipt file (the bytes,
    ///    or their base64 decoding).
    /// 3. ``AppReceiptVerifier`` warm (chain cache of 64) and cold (no cache), in one of four configurations chosen
    ///    by the input: Apple Inc. Root and the minted root without claims; the minted App Store configuration
    ///    (``ReceiptFuzzVectors/verifier(_:cacheCapacity:)``); Xcode pinned to Apple's StoreKit receipt
    ///    certificate; Xcode pinned to the minted one. One input in four also gives the minted device identifier.
    ///
    /// Oracles: decoded content re-encodes (``ReceiptContentEncoder``, in its own order) to content that decodes
    /// equal; whatever the scan accepts, OpenSSL parses, with the same content bytes, the same certificates
    /// (DER), the same signer (issuer and serial number), digest and signed attributes (unless a certificate or
    /// the signer's issuer Name is not X.509 to OpenSSL, see ``receiptEnvelope(_:file:)``); warm and cold verifiers
    /// give the same code, check and report, and so does the warm verifier asked again (its cache now holding
    /// what the first call verified; see ``receiptVerification(_:digest:)`` for which inputs meet which); a verified receipt has no failed step, its every check passed, a chain that
    /// ends at a configured root or is the pinned certificate, and the configured claims; a failure's code is one
    /// of its check's, its report fails exactly the one step that names that check.
    public static func receipts(_ bytes: [UInt8]) {
        let digest = digest(bytes)
        receiptContent(bytes)
        if let file = receiptFile(bytes), let envelope = ReceiptEnvelope.scan(file) {
            receiptEnvelope(envelope, file: file)
            receiptContent(envelope.content)
        }
        receiptVerification(bytes, digest: digest)
    }

    /// The receipt file in `bytes` as the verifier reads it: the bytes when they start as DER does, else their
    /// standard base64 decoding with ASCII spaces and line breaks left out.
    public static func receiptFile(_ bytes: [UInt8]) -> [UInt8]? {
        guard let first = bytes.first else { return nil }
        if first == 0x30 { return bytes }
        return Base64.decodeStandard(bytes.filter { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 })
    }

    /// Oracle 1: decoded content re-encodes to content that decodes to the same receipt.
    static func receiptContent(_ bytes: [UInt8]) {
        var reader = DERReader(bytes, limits: ReceiptContent.limits)
        if let element = try? reader.readElement() { _ = try? reader.validateTree(element) }
        guard let receipt = try? AppReceipt(content: bytes) else { return }
        let again = ReceiptContentEncoder.content(receipt, sorted: false)
        guard let decoded = try? AppReceipt(content: again) else {
            preconditionFailure("property broken: a decoded receipt's re-encoding does not decode")
        }
        check(decoded == receipt, "a decoded receipt's re-encoding decodes to the same receipt")
        check(receipt.inApp.count <= ReceiptContent.maximumAttributes, "purchases within the limit")
    }

    /// Oracle 2: what the strict scan accepts, OpenSSL's parse accepts with the same parts, unless it refuses an
    /// embedded certificate or the SignerInfo's issuer Name as X.509, or the envelope has signed attributes: the
    /// scan checks their DER, not their meaning, which it leaves to OpenSSL. That is safe because the chain cache, the one user of the scan, keys
    /// on those bytes (``ReceiptEnvelope/cacheKeyHead`` and the certificates field): only an envelope byte-identical but for its content and
    /// signature to one OpenSSL parsed and verified is ever answered without OpenSSL.
    static func receiptEnvelope(_ envelope: ReceiptEnvelope, file: [UInt8]) {
        let cms: CMSReceipt
        switch CMSReceipt.parse(file) {
        case .success(let parsed): cms = parsed
        case .failure(let refusal):
            let certificates = envelope.certificateRanges.map { Certificate(der: Array(file[$0])) }
            let issuers = certificates.compactMap { $0.flatMap { issuerAndSerialNumber($0.der)?.issuer } }
            let namesParse = !issuers.isEmpty && issuers.contains(Array(file[envelope.signerIssuerRange]))
            // Signed attributes: the scan checks their DER and their SEQUENCE { OID, SET } shape, not the values'
            // meaning; the cache never answers for an envelope that has them.
            check(
                certificates.contains { $0 == nil } || !namesParse || envelope.hasSignedAttributes,
                "the scan accepts, OpenSSL refuses (\(refusal)) though every certificate and the signer's issuer parse")
            return
        }
        check(cms.content == envelope.content, "the scan and OpenSSL find the same content")
        let certificates = cms.certificates
        check(certificates.count == envelope.certificateRanges.count, "the scan and OpenSSL find as many certificates")
        for (certificate, range) in zip(certificates, envelope.certificateRanges) {
            check(
                certificate?.der.elementsEqual(file[range]) == true, "the scan and OpenSSL find the same certificates")
        }
        check(cms.hasSignedAttributes == envelope.hasSignedAttributes, "the same signed attributes")
        let algorithms = cms.algorithms
        let digestOID = envelope.signerDigestAlgorithm.oid
        check(
            (algorithms.digest == .sha256) == (digestOID == sha256OID)
                && (algorithms.digest == .sha1) == (digestOID == sha1OID), "the same SignerInfo digest")
        // The certificate OpenSSL picks is the first whose issuer and serial number match the SignerInfo's, names
        // compared canonically (X509_NAME_cmp: ASCII case and runs of white space folded, string types
        // unified), so its serial number is the SignerInfo's byte for byte, and it comes no later than the first
        // certificate that matches byte for byte (byte-equal names are canonically equal).
        let issuer = Array(file[envelope.signerIssuerRange])
        let serialNumber = Array(file[envelope.signerSerialNumberRange])
        let identities = envelope.certificateRanges.map { issuerAndSerialNumber(Array(file[$0])) }
        if let index = cms.signerIndex {
            check(identities[index]?.serialNumber == serialNumber, "the signer's serial number")
        }
        if let exact = identities.firstIndex(where: { $0?.issuer == issuer && $0?.serialNumber == serialNumber }) {
            check(
                cms.signerIndex.map { $0 <= exact } == true,
                "OpenSSL picks the first certificate the SignerInfo names")
        }
    }

    /// The contents octets of the SHA-256 OID (2.16.840.1.101.3.4.2.1).
    public static let sha256OID: [UInt8] = [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01]
    /// The contents octets of the SHA-1 OID (1.3.14.3.2.26).
    public static let sha1OID: [UInt8] = [0x2B, 0x0E, 0x03, 0x02, 0x1A]

    /// The issuer Name and serial number TLVs of a DER certificate.
    static func issuerAndSerialNumber(_ der: [UInt8]) -> (issuer: [UInt8], serialNumber: [UInt8])? {
        var outer = DERReader(der)
        guard var certificate = try? outer.readSequence(), var tbs = try? certificate.readSequence() else { return nil }
        if tbs.nextTag == DERReader.contextTag(0, constructed: true) { _ = try? tbs.readElement() }
        guard let serial = try? tbs.readElement(tag: 0x02), (try? tbs.readSequence()) != nil,
            let issuer = try? tbs.readElement(tag: 0x30)
        else { return nil }
        return (Array(der[issuer.encoded]), Array(der[serial.encoded]))
    }

    /// The verifier pairs (warm: cache of 64; cold: none) of ``receipts(_:)``.
    static let receiptVerifiers: [(warm: AppReceiptVerifier, cold: AppReceiptVerifier)] = {
        let appleXcode = FuzzVectors.data("apple-library/xcode/StoreKitReceiptCertificate.cer")
        func make(_ capacity: Int) throws -> [AppReceiptVerifier] {
            let created = ReceiptFuzzVectors.created
            return [
                try AppReceiptVerifier(
                    rootCertificates: [AppleRootCertificate.appleIncRoot, ReceiptFuzzVectors.pki.root.der],
                    bundleId: nil, environments: [.production, .sandbox], chainCacheCapacity: capacity,
                    clock: { created }),
                try ReceiptFuzzVectors.verifier(.appStore, cacheCapacity: capacity),
                try AppReceiptVerifier(
                    bundleId: nil, environments: [.xcode], xcodeCertificate: appleXcode, chainCacheCapacity: capacity,
                    clock: { created }),
                try ReceiptFuzzVectors.verifier(.xcode, cacheCapacity: capacity),
            ]
        }
        do {
            return Array(zip(try make(64), try make(0)))
        } catch {
            fatalError("the fuzzed receipt verifiers cannot be configured: \(error)")
        }
    }()

    /// The checks each receipt code belongs to (Docs/ErrorCodes.md, "App receipts").
    static let checkOfReceiptCode: [VerificationError.Code: VerificationError.Check] = [
        .malformedReceipt: .format, .unsupportedAlgorithm: .header, .missingCertificateChain: .header,
        .invalidCertificate: .chain, .untrustedChain: .chain, .certificateExpired: .chain,
        .missingAppleExtension: .chain, .unsupportedKey: .chain, .invalidSignature: .signature,
        .invalidAppIdentifier: .claims, .invalidEnvironment: .claims, .deviceHashMismatch: .claims,
    ]

    /// Oracle 3: warm and cold agree; verified means every check passed.
    ///
    /// A warm verifier's first call on a receipt its cache does not know runs the full path, which is the cold
    /// verifier's: the cold one is asked when the warm one answered from its cache, and for one input in eight
    /// otherwise. The warm one is asked again when its first call verified (its cache may now hold the chain) or
    /// answered from the cache.
    static func receiptVerification(_ bytes: [UInt8], digest: UInt32) {
        let choice = Int((digest >> 3) % UInt32(receiptVerifiers.count))
        let (warm, cold) = receiptVerifiers[choice]
        let device = digest % 4 == 0 ? ReceiptFuzzVectors.deviceIdentifier : nil
        let data = Data(bytes)
        let hits = warm.cacheStatistics.hits
        let first = warm.verifyAndDecodeAppReceipt(data, deviceIdentifier: device)
        let fromCache = warm.cacheStatistics.hits != hits
        checkReceiptResult(first, configuration: choice, device: device)
        var answers = [(first, "warm")]
        if first.isVerified || fromCache {
            answers.append((warm.verifyAndDecodeAppReceipt(data, deviceIdentifier: device), "warm, asked again"))
        }
        guard fromCache || answers.count > 1 || digest % 8 == 0 else { return }
        let reference = cold.verifyAndDecodeAppReceipt(data, deviceIdentifier: device)
        for (result, name) in answers {
            check(
                result.error?.code == reference.error?.code && result.error?.check == reference.error?.check,
                "\(name) and cold give the same code and check: \(String(describing: result.error?.code)) vs"
                    + " \(String(describing: reference.error?.code))")
            check(result.report == reference.report, "\(name) and cold write the same report")
            check(result.payload == reference.payload, "\(name) and cold decode the same receipt")
        }
    }

    private static func checkReceiptResult(
        _ result: VerificationResult<AppReceipt>, configuration: Int, device: [UInt8]?
    ) {
        let report = result.report
        switch result {
        case .failed(let failure):
            let error = failure.error
            check(checkOfReceiptCode[error.code] == error.check, "receipt code \(error.code) is of its check")
            check(!error.message.isEmpty, "an error says why")
            let failed = report.steps.filter { $0.outcome == .failed }
            check(failed.count == 1 && failed[0].name.check == error.check, "one failed step, of the error's check")
        case .verified(let verified):
            check(report.failedStep == nil, "a verified receipt has no failed step")
            let expected: [VerificationReport.StepName] = [
                .format, .content, .algorithm, .certificateChain, .certificates, .trust, .validity, .appleExtensions,
                .signerKey, .signature, .bundleId, .environment,
            ]
            for name in expected {
                let step = report.steps.first { $0.name == name }
                let allowedSkip: Set<VerificationReport.StepName> =
                    configuration >= 2 ? [.validity, .appleExtensions, .bundleId] : [.bundleId]
                check(
                    step?.outcome == .passed || (step?.outcome == .skipped && allowedSkip.contains(name)),
                    "a verified receipt passed \(name)")
            }
            if device != nil {
                check(report.steps.first { $0.name == .deviceHash }?.outcome == .passed, "the device hash passed")
            }
            let receipt = verified.payload
            switch configuration {
            case 0:
                check(verified.chain.count == 3, "a verified App Store receipt has a chain of three")
                check(
                    [AppleRootCertificate.appleIncRoot, ReceiptFuzzVectors.pki.root.der].contains(
                        Data(verified.chain[2].der)), "the chain ends at a configured root")
            case 1:
                check(verified.chain.count == 3, "a verified App Store receipt has a chain of three")
                check(Data(verified.chain[2].der) == ReceiptFuzzVectors.pki.root.der, "the chain ends at the root")
                check(receipt.bundleId == ReceiptFuzzVectors.bundleId, "the configured bundle id")
            default:
                check(receipt.receiptType == "Xcode" && verified.environment == .xcode, "an Xcode receipt")
            }
        }
    }
}
