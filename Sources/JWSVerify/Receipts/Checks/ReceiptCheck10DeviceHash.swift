/// Receipt check 10, **device hash** (`deviceHashMismatch`), when a device identifier is given: the
/// receipt's SHA-1 hash (field 5) equals SHA-1 of the identifier's bytes, then the opaque value's bytes
/// (field 4), then the bundle id's bytes as the receipt holds them (field 2's whole value): the receipt
/// was issued to that device.
enum ReceiptDeviceHashCheck {
    static func check(
        _ receipt: AppReceipt, deviceIdentifier: [UInt8]?, recorder: inout ReportRecorder
    ) throws(VerificationError) {
        guard let deviceIdentifier else {
            recorder.skipped(.deviceHash, "no device identifier given")
            return
        }
        guard let hash = receipt.sha1Hash, let opaque = receipt.opaqueValue, let bundleId = receipt.bundleIdRawValue
        else {
            throw VerificationError(
                .deviceHashMismatch, step: .deviceHash,
                "the receipt lacks its SHA-1 hash, opaque value or bundle id (fields 5, 4, 2), so it is bound to no"
                    + " device")
        }
        let expected = SHA1.hash(deviceIdentifier + opaque + bundleId)
        guard expected == hash else {
            throw VerificationError(
                .deviceHashMismatch, step: .deviceHash,
                "the receipt's SHA-1 hash (field 5) is not that of this device identifier (\(deviceIdentifier.count)"
                    + " bytes), its opaque value and its bundle id: it was issued to another device")
        }
        recorder.passed(.deviceHash, "SHA-1 of the device identifier, opaque value and bundle id matches")
    }
}
