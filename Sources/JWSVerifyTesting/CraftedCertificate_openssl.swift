import CJWSTesting
import Foundation

/// Crafted certificates, forged signatures and OpenSSL's chain verdict through CJWSTesting.
enum OpenSSLCrafting {
    static func create(_ spec: CraftedCertificate, spki: Data, issuerKey: OpenSSLKey) throws -> Data {
        var der: UnsafeMutablePointer<UInt8>?
        var length = 0
        // Every byte buffer must stay alive across the one C call: copy them into one array of
        // arrays and take their addresses inside nested closures.
        let oids = spec.extensions.map { Array($0.oid.utf8CString) }
        let values = spec.extensions.map { [UInt8]($0.value) }
        let subject = [UInt8](spec.subject.der)
        let issuer = [UInt8](spec.issuer.der)
        let serial = [UInt8](spec.serialNumber)
        let spkiBytes = [UInt8](spki)
        var oidPointers: [UnsafeMutablePointer<CChar>] = []
        var valuePointers: [UnsafeMutablePointer<UInt8>] = []
        defer {
            oidPointers.forEach { $0.deallocate() }
            valuePointers.forEach { $0.deallocate() }
        }
        var extensions: [cjwst_extension] = []
        for (index, item) in spec.extensions.enumerated() {
            let oid = UnsafeMutablePointer<CChar>.allocate(capacity: oids[index].count)
            oid.initialize(from: oids[index], count: oids[index].count)
            oidPointers.append(oid)
            let value = UnsafeMutablePointer<UInt8>.allocate(capacity: max(values[index].count, 1))
            value.initialize(from: values[index], count: values[index].count)
            valuePointers.append(value)
            extensions.append(
                cjwst_extension(
                    oid: UnsafePointer(oid), critical: item.critical ? 1 : 0, value: UnsafeRawPointer(value),
                    value_len: values[index].count))
        }
        let status: Int32 = subject.withUnsafeBytes { subjectBytes in
            issuer.withUnsafeBytes { issuerBytes in
                serial.withUnsafeBytes { serialBytes in
                    spkiBytes.withUnsafeBytes { spkiRaw in
                        extensions.withUnsafeBufferPointer { extensionBuffer in
                            var params = cjwst_crafted_cert(
                                subject_der: subjectBytes.baseAddress, subject_len: subjectBytes.count,
                                issuer_der: issuerBytes.baseAddress, issuer_len: issuerBytes.count,
                                serial: serialBytes.baseAddress, serial_len: serialBytes.count,
                                not_before: spec.notBefore, not_before_encoding: spec.notBeforeEncoding.cValue,
                                not_after: spec.notAfter, not_after_encoding: spec.notAfterEncoding.cValue,
                                signature_digest: spec.signatureDigest.cValue,
                                spki_der: spkiRaw.baseAddress, spki_len: spkiRaw.count,
                                extensions: extensionBuffer.baseAddress, extension_count: extensionBuffer.count)
                            return issuerKey.withHandle { issuerHandle in
                                cjwst_cert_create_crafted(&params, nil, issuerHandle, &der, &length)
                            }
                        }
                    }
                }
            }
        }
        try checkOpenSSL(status, "create crafted certificate")
        return takeData(der, length)
    }

    static func publicKeyDER(_ key: TestPrivateKey, compressed: Bool, explicit: Bool) throws -> Data {
        var der: UnsafeMutablePointer<UInt8>?
        var length = 0
        try key.handle.withHandle { handle in
            try checkOpenSSL(
                cjwst_key_public_spki_der_ex(
                    handle, compressed ? CJWST_POINT_COMPRESSED : CJWST_POINT_UNCOMPRESSED, explicit ? 1 : 0, &der,
                    &length), "write public key DER")
        }
        return takeData(der, length)
    }

    static func forgeInfinitySignature(_ message: Data, k: Data?) throws -> Data {
        var signature: UnsafeMutablePointer<UInt8>?
        var length = 0
        try withBytes(message) { pointer, count in
            if let k {
                try withBytes(k) { kPointer, kCount in
                    try checkOpenSSL(
                        cjwst_forge_es256_infinity(pointer, count, kPointer, kCount, &signature, &length),
                        "forge ES256 signature")
                }
            } else {
                try checkOpenSSL(
                    cjwst_forge_es256_infinity(pointer, count, nil, 0, &signature, &length), "forge ES256 signature")
            }
        }
        return takeData(signature, length)
    }

    static func verifyChain(leaf: Data, intermediate: Data, root: Data, at time: Int64) throws -> OpenSSLChainVerdict {
        var verdict = cjwst_chain_verdict()
        try withBytes(leaf) { leafPointer, leafCount in
            try withBytes(intermediate) { intermediatePointer, intermediateCount in
                try withBytes(root) { rootPointer, rootCount in
                    try checkOpenSSL(
                        cjwst_verify_chain(
                            leafPointer, leafCount, intermediatePointer, intermediateCount, rootPointer, rootCount,
                            time, &verdict), "verify chain")
                }
            }
        }
        func reason(_ code: Int32) -> String { String(cString: cjwst_verify_error_string(code)) }
        return OpenSSLChainVerdict(
            verified: verdict.verified == 1,
            trustError: verdict.trust_error != 0
                ? .init(
                    code: Int(verdict.trust_error), depth: Int(verdict.trust_error_depth),
                    reason: reason(verdict.trust_error))
                : nil,
            timeError: verdict.time_error != 0
                ? .init(
                    code: Int(verdict.time_error), depth: Int(verdict.time_error_depth),
                    reason: reason(verdict.time_error))
                : nil,
            chainLength: Int(verdict.chain_length), couldNotRun: verdict.could_not_run != 0)
    }
}

extension CraftedTimeEncoding {
    var cValue: Int32 {
        switch self {
        case .utcTime: return CJWST_TIME_UTC
        case .generalizedTime: return CJWST_TIME_GENERALIZED
        }
    }
}
