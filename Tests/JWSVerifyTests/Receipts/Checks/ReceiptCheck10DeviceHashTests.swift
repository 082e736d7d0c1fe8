import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// Receipt check 10, device hash (Docs/ErrorCodes.md, "App receipts"): with a device identifier, field 5 is
/// SHA-1 of it, the opaque value and the bundle id; else `deviceHashMismatch`.
@Suite("Receipt check 10, device hash: deviceHashMismatch")
struct ReceiptCheck10DeviceHashTests {
    /// Input: each crafted receipt of this check (``CraftedReceipts``, ids starting `device-hash-`). Expected: the
    /// catalog's code, check and failed step, warm as cold (``ReceiptContractTests/expectVerdict(_:)``).
    @Test(
        "each crafted receipt of this check gets its code, check and step, warm as cold",
        arguments: CraftedReceipts.ids(check: .deviceHash))
    func verdict(_ id: String) throws {
        try ReceiptContractTests.expectVerdict(id)
    }

    /// Input: the test's own SHA-1 on FIPS 180-4's "abc", then a receipt whose field 5 is that SHA-1 of the device
    /// identifier, the opaque value and the bundle id's value, verified with the identifier (and as a `UUID`).
    /// Expected: the helper gives the standard answer; the receipt verifies with the device-hash step passed, and
    /// fails with one byte of the identifier changed.
    @Test("a device hash computed in the test verifies; another device does not")
    func deviceHash() throws {
        #expect([UInt8](ReceiptDeviceHash.sha1(Array("abc".utf8))) == ReceiptDeviceHash.abc)
        let fixture = try ReceiptFixture.get()
        let verifier = try ReceiptVerifiers.make(capacity: 0)
        let good = try fixture.good()
        let result = verifier.verifyAndDecodeAppReceipt(
            Data(good), deviceIdentifier: ReceiptFixture.deviceIdentifier)
        #expect(result.isVerified, "\(String(describing: result.error))")
        #expect(result.report.steps.first { $0.name == .deviceHash }?.outcome == .passed)
        let uuid = UUID(
            uuid: (0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1A, 0x1B, 0x1C, 0x1D, 0x1E, 0x1F))
        #expect(verifier.verifyAndDecodeAppReceipt(Data(good).base64EncodedString(), deviceIdentifier: uuid).isVerified)
        var other = ReceiptFixture.deviceIdentifier
        other[15] ^= 0x80
        #expect(
            verifier.verifyAndDecodeAppReceipt(Data(good), deviceIdentifier: other).error?.code == .deviceHashMismatch)
        #expect(
            verifier.verifyAndDecodeAppReceipt(Data(good)).report.steps.first { $0.name == .deviceHash }?.outcome
                == .skipped)
    }
}
