import CJWSTesting
import Foundation

/// NUL-terminated copies of Swift strings, owned by this object and freed in `deinit`, so that
/// several C string pointers can stay valid across one C call.
private final class CStringStore {
    private var pointers: [UnsafeMutablePointer<CChar>] = []

    func pointer(_ string: String?) -> UnsafePointer<CChar>? {
        guard let string else { return nil }
        let utf8 = Array(string.utf8CString)
        let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: utf8.count)
        pointer.initialize(from: utf8, count: utf8.count)
        pointers.append(pointer)
        return UnsafePointer(pointer)
    }

    deinit {
        for pointer in pointers {
            pointer.deallocate()
        }
    }
}

/// X.509 creation and inspection through CJWSTesting.
enum OpenSSLCertificates {
    /// Creates a DER certificate for `subjectKey`, signed by `issuerKey` (self-signed when nil).
    static func create(
        _ spec: TestCertificateSpec, subjectKey: TestPrivateKey, issuerKey: TestPrivateKey?
    ) throws -> Data {
        let strings = CStringStore()
        var params = cjwst_cert_params()
        params.subject = cjwst_name(
            common_name: strings.pointer(spec.subject.commonName),
            organizational_unit: strings.pointer(spec.subject.organizationalUnit),
            organization: strings.pointer(spec.subject.organization),
            country: strings.pointer(spec.subject.country))
        params.issuer = cjwst_name(
            common_name: strings.pointer(spec.issuer.commonName),
            organizational_unit: strings.pointer(spec.issuer.organizationalUnit),
            organization: strings.pointer(spec.issuer.organization),
            country: strings.pointer(spec.issuer.country))
        params.not_before = Int64(spec.notBefore.timeIntervalSince1970.rounded(.down))
        params.not_after = Int64(spec.notAfter.timeIntervalSince1970.rounded(.down))
        params.signature_digest = spec.signatureDigest.cValue
        params.is_ca = spec.isCertificateAuthority ? 1 : 0
        params.path_length = Int32(clamping: spec.pathLengthConstraint ?? -1)
        params.key_usage = UInt32(spec.keyUsage.rawValue)
        params.subject_key_identifier = spec.includeSubjectKeyIdentifier ? 1 : 0
        params.authority_key_identifier = spec.includeAuthorityKeyIdentifier ? 1 : 0
        params.marker_oid = strings.pointer(spec.appleMarkerOID)
        params.ocsp_url = strings.pointer(spec.ocspURL)

        var der: UnsafeMutablePointer<UInt8>?
        var length = 0
        try withBytes(spec.serialNumber) { serial, serialCount in
            params.serial = serial
            params.serial_len = serialCount
            try subjectKey.handle.withHandle { subject in
                if let issuerKey {
                    try issuerKey.handle.withHandle { issuer in
                        try checkOpenSSL(
                            cjwst_cert_create(&params, subject, issuer, &der, &length), "create certificate")
                    }
                } else {
                    try checkOpenSSL(
                        cjwst_cert_create(&params, subject, nil, &der, &length), "create certificate")
                }
            }
        }
        withExtendedLifetime(strings) {}
        return takeData(der, length)
    }

    static func publicKeyDER(certificate: Data) throws -> Data {
        var der: UnsafeMutablePointer<UInt8>?
        var length = 0
        try withBytes(certificate) { pointer, count in
            try checkOpenSSL(
                cjwst_cert_public_spki_der(pointer, count, &der, &length), "read certificate public key")
        }
        return takeData(der, length)
    }

    /// The subject name's CN, OU, O and C (nil when absent).
    static func subject(certificate: Data) throws -> TestDistinguishedName {
        func attribute(_ which: Int32) -> String? {
            var text: UnsafeMutablePointer<CChar>?
            var length = 0
            let status = withBytes(certificate) { pointer, count in
                cjwst_cert_subject_attribute(pointer, count, which, &text, &length)
            }
            guard status == 1 else { return nil }
            return takeString(text, length)
        }
        // Parse once with a checked call so that a broken certificate is an error, not empty names.
        _ = try publicKeyDER(certificate: certificate)
        return TestDistinguishedName(
            commonName: attribute(CJWST_NAME_CN) ?? "",
            organizationalUnit: attribute(CJWST_NAME_OU),
            organization: attribute(CJWST_NAME_O) ?? "",
            country: attribute(CJWST_NAME_C))
    }

    static func validity(certificate: Data) throws -> (notBefore: Date, notAfter: Date) {
        var notBefore: Int64 = 0
        var notAfter: Int64 = 0
        try withBytes(certificate) { pointer, count in
            try checkOpenSSL(
                cjwst_cert_validity(pointer, count, &notBefore, &notAfter), "read certificate validity")
        }
        return (
            Date(timeIntervalSince1970: TimeInterval(notBefore)),
            Date(timeIntervalSince1970: TimeInterval(notAfter))
        )
    }

    static func pem(certificate: Data) throws -> String {
        var text: UnsafeMutablePointer<CChar>?
        var length = 0
        try withBytes(certificate) { pointer, count in
            try checkOpenSSL(cjwst_cert_der_to_pem(pointer, count, &text, &length), "write certificate PEM")
        }
        return takeString(text, length)
    }

    static func der(pem: String) throws -> Data {
        var der: UnsafeMutablePointer<UInt8>?
        var length = 0
        try withBytes(Data(pem.utf8)) { pointer, count in
            try checkOpenSSL(cjwst_cert_pem_to_der(pointer, count, &der, &length), "read certificate PEM")
        }
        return takeData(der, length)
    }
}
