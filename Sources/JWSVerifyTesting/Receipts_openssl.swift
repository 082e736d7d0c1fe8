import CJWSTesting
import Foundation

/// Copies of byte arrays at stable addresses, owned by this object and freed in `deinit`, so that
/// a C call can take several `cjwst_bytes` at once.
private final class ByteStore {
    private var pointers: [UnsafeMutableRawPointer] = []

    /// A `cjwst_bytes` for a copy of `bytes` (a valid pointer also when empty).
    func bytes<C: Collection>(_ bytes: C) -> cjwst_bytes where C.Element == UInt8 {
        let array = Array(bytes)
        let pointer = UnsafeMutableRawPointer.allocate(byteCount: max(array.count, 1), alignment: 1)
        array.withUnsafeBytes { source in
            if let base = source.baseAddress { pointer.copyMemory(from: base, byteCount: source.count) }
        }
        pointers.append(pointer)
        return cjwst_bytes(data: UnsafeRawPointer(pointer), length: array.count)
    }

    /// A NUL-terminated copy of `text`, or nil.
    func string(_ text: String?) -> UnsafePointer<CChar>? {
        guard let text else { return nil }
        let utf8 = Array(text.utf8CString)
        let pointer = UnsafeMutableRawPointer.allocate(byteCount: utf8.count, alignment: 1)
        utf8.withUnsafeBytes { source in
            if let base = source.baseAddress { pointer.copyMemory(from: base, byteCount: source.count) }
        }
        pointers.append(pointer)
        return UnsafePointer(pointer.assumingMemoryBound(to: CChar.self))
    }

    deinit {
        for pointer in pointers {
            pointer.deallocate()
        }
    }
}

/// One SignerInfo as the C call takes it.
struct OpenSSLReceiptSigner {
    var certificate: Data
    var key: OpenSSLKey
    var digest: ReceiptDigest
    var signedAttributes: Bool
}

/// CMS SignedData signing, OpenSSL's reference CMS_verify and CMS inspection through CJWSTesting.
enum OpenSSLReceipts {
    /// cjwst_cms_sign: the encoded ContentInfo.
    static func sign(
        content: [UInt8], contentTypeOID: String?, signers: [OpenSSLReceiptSigner], certificates: [Data],
        detached: Bool, encoding: ReceiptEncoding, digestAlgorithmOIDs: [String]? = nil
    ) throws -> [UInt8] {
        let store = ByteStore()
        var cSigners = signers.map { signer in
            cjwst_cms_signer(
                certificate_der: nil, certificate_len: 0, key: nil, digest: signer.digest.cValue,
                signed_attributes: signer.signedAttributes ? 1 : 0)
        }
        for (index, signer) in signers.enumerated() {
            let bytes = store.bytes(signer.certificate)
            cSigners[index].certificate_der = bytes.data
            cSigners[index].certificate_len = bytes.length
        }
        let cCertificates = certificates.map { store.bytes($0) }
        let contentBytes = store.bytes(content)
        let contentType = store.string(contentTypeOID)
        let digestOIDs = (digestAlgorithmOIDs ?? []).map { store.string($0) }
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        let status = withHandles(signers.map(\.key)) { handles -> Int32 in
            for index in cSigners.indices { cSigners[index].key = handles[index] }
            return cSigners.withUnsafeBufferPointer { signerBuffer in
                cCertificates.withUnsafeBufferPointer { certificateBuffer in
                    digestOIDs.withUnsafeBufferPointer { digestBuffer in
                        var params = cjwst_cms_params(
                            content: contentBytes.data, content_len: contentBytes.length,
                            content_type_oid: contentType, signers: signerBuffer.baseAddress,
                            signer_count: signerBuffer.count, certificates: certificateBuffer.baseAddress,
                            certificate_count: certificateBuffer.count, detached: detached ? 1 : 0,
                            replaces_digest_algorithms: digestAlgorithmOIDs == nil ? 0 : 1,
                            digest_algorithm_oids: digestBuffer.baseAddress, digest_algorithm_count: digestBuffer.count,
                            encoding: encoding.cValue)
                        return cjwst_cms_sign(&params, &output, &length)
                    }
                }
            }
        }
        withExtendedLifetime(store) {}
        try checkOpenSSL(status, "sign receipt (CMS)")
        return [UInt8](takeData(output, length))
    }

    /// cjwst_cms_verify_reference.
    static func verify(
        _ receipt: [UInt8], roots: [Data], at time: Int64, purpose: ReceiptReference.Purpose
    ) throws -> ReceiptReference.Verdict {
        guard !receipt.isEmpty else { throw JWSTestingError.invalidArgument("an empty receipt") }
        let store = ByteStore()
        let cRoots = roots.map { store.bytes($0) }
        var verdict = cjwst_cms_verdict()
        let status = receipt.withUnsafeBytes { raw in
            cRoots.withUnsafeBufferPointer { rootBuffer in
                cjwst_cms_verify_reference(
                    raw.baseAddress, raw.count, rootBuffer.baseAddress, rootBuffer.count, time, purpose.cValue,
                    &verdict)
            }
        }
        withExtendedLifetime(store) {}
        let signer = takeData(verdict.signer_certificate, verdict.signer_certificate_len)
        let content = takeData(verdict.content, verdict.content_len)
        try checkOpenSSL(status, "reference receipt verification")
        let reason = withUnsafeBytes(of: verdict.reason) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return ReceiptReference.Verdict(
            verified: verdict.verified == 1,
            failure: ReceiptReference.Verdict.Failure(cValue: verdict.failure),
            reason: reason,
            openSSLErrorCode: UInt(verdict.openssl_error),
            x509Error: verdict.x509_error != 0
                ? OpenSSLChainVerdict.Failure(
                    code: Int(verdict.x509_error), depth: Int(verdict.x509_error_depth),
                    reason: String(cString: cjwst_verify_error_string(verdict.x509_error)))
                : nil,
            signerCount: Int(verdict.signer_count), trailingByteCount: verdict.trailing_bytes,
            signerCertificate: signer.isEmpty ? nil : signer,
            content: verdict.verified == 1 ? [UInt8](content) : nil)
    }

    /// cjwst_cms_inspect for every SignerInfo.
    static func inspect(_ receipt: [UInt8]) throws -> ReceiptReference.Structure {
        guard !receipt.isEmpty else { throw JWSTestingError.invalidArgument("an empty receipt") }
        func info(_ index: Int32) throws -> cjwst_cms_info {
            var info = cjwst_cms_info()
            let status = receipt.withUnsafeBytes { raw in
                cjwst_cms_inspect(raw.baseAddress, raw.count, index, &info)
            }
            try checkOpenSSL(status, "inspect receipt (CMS)")
            return info
        }
        func text<T>(_ field: T) -> String {
            withUnsafeBytes(of: field) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
        }
        let first = try info(0)
        var signers: [ReceiptReference.Structure.SignerInfo] = []
        for index in 0..<first.signer_count {
            let one = index == 0 ? first : try info(index)
            signers.append(
                .init(
                    digestAlgorithmOID: text(one.digest_algorithm),
                    signatureAlgorithmOID: text(one.signature_algorithm),
                    signedAttributeCount: Int(one.signed_attribute_count),
                    identifiesByIssuerAndSerialNumber: one.sid_is_issuer_serial == 1,
                    certificateIndex: one.sid_certificate_index >= 0 ? Int(one.sid_certificate_index) : nil))
        }
        return ReceiptReference.Structure(
            isIndefiniteLength: first.indefinite_length == 1, contentTypeOID: text(first.content_type),
            encapsulatedContentTypeOID: text(first.econtent_type), isDetached: first.detached == 1,
            contentLength: first.content_len, certificateCount: Int(first.certificate_count), signers: signers)
    }

    /// Runs `body` with the C handles of `keys`, all kept alive for the call.
    private static func withHandles<R>(_ keys: [OpenSSLKey], _ body: ([OpaquePointer]) throws -> R) rethrows -> R {
        try withExtendedLifetime(keys) {
            var handles: [OpaquePointer] = []
            for key in keys { key.withHandle { handles.append($0) } }
            return try body(handles)
        }
    }
}

extension ReceiptDigest {
    var cValue: Int32 {
        switch self {
        case .sha1: return CJWST_DIGEST_SHA1
        case .sha256: return CJWST_DIGEST_SHA256
        case .sha384: return CJWST_DIGEST_SHA384
        case .sha512: return CJWST_DIGEST_SHA512
        case .md5: return CJWST_DIGEST_MD5
        }
    }
}

extension ReceiptEncoding {
    var cValue: Int32 {
        switch self {
        case .der: return CJWST_CMS_DER
        case .berIndefiniteLength: return CJWST_CMS_BER
        }
    }
}

extension ReceiptReference.Purpose {
    var cValue: Int32 {
        switch self {
        case .openSSLDefault: return CJWST_CMS_PURPOSE_DEFAULT
        case .any: return CJWST_CMS_PURPOSE_ANY
        }
    }
}

extension ReceiptReference.Verdict.Failure {
    init?(cValue: Int32) {
        switch cValue {
        case CJWST_CMS_FAILURE_NONE: return nil
        case CJWST_CMS_FAILURE_PARSE: self = .parse
        case CJWST_CMS_FAILURE_NOT_SIGNED_DATA: self = .notSignedData
        case CJWST_CMS_FAILURE_NO_CONTENT: self = .noContent
        case CJWST_CMS_FAILURE_SIGNER_NOT_FOUND: self = .signerNotFound
        case CJWST_CMS_FAILURE_CERTIFICATE: self = .certificate
        case CJWST_CMS_FAILURE_SIGNATURE: self = .signature
        default: self = .other
        }
    }
}
