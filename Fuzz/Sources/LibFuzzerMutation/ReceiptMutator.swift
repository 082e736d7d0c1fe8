import CLibFuzzer
import Foundation
import FuzzHarness
import JWSVerifyTesting

@testable import JWSVerify

/// The `receipts` target's mutator: libFuzzer's byte mutations of the whole receipt, and for one input in four
/// that is a strict-DER receipt, a new receipt signed by the minted leaf (``ReceiptFuzzVectors/pki``) over its
/// content changed: a field of the decoded receipt changed (bundle id, receipt type, app item id, hash, dates,
/// purchases) or the content's bytes mutated. Re-signed receipts get past the signature check, so the claims,
/// the device hash and the warm path (the same certificates, new content) are fuzzed too.
public enum ReceiptMutator {
    static let signer = ReceiptSigner(hierarchy: ReceiptFuzzVectors.pki)

    /// `LLVMFuzzerCustomMutator`'s contract: mutates the `size` bytes at `data` in place, within `maxSize`, and
    /// returns the new size.
    public static func mutate(_ data: UnsafeMutablePointer<UInt8>, size: Int, maxSize: Int, seed: CUnsignedInt) -> Int {
        let input = Array(UnsafeBufferPointer(start: data, count: size))
        var output = input
        if seed % 4 == 0, let file = FuzzEntryPoints.receiptFile(input), let envelope = ReceiptEnvelope.scan(file) {
            var content = envelope.content
            if seed % 8 == 0, let receipt = try? AppReceipt(content: content) {
                content = ReceiptContentEncoder.content(changed(receipt, seed: seed >> 3), sorted: seed % 32 != 0)
            } else {
                byteMutate(&content, maxSize: content.count + 64)
            }
            let digest: ReceiptDigest = envelope.signerDigestAlgorithm.oid == FuzzEntryPoints.sha1OID ? .sha1 : .sha256
            if let signed = try? signer.sign(content: content, options: ReceiptSigner.Options(digest: digest)),
                signed.count <= maxSize
            {
                output = signed
            } else {
                byteMutate(&output, maxSize: maxSize)
            }
        } else {
            byteMutate(&output, maxSize: maxSize)
        }
        let count = min(output.count, maxSize)
        output.withUnsafeBufferPointer { buffer in
            if let base = buffer.baseAddress { data.update(from: base, count: count) }
        }
        return count
    }

    /// libFuzzer's own mutation of `bytes`, within `maxSize`.
    static func byteMutate(_ bytes: inout [UInt8], maxSize: Int) {
        let size = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: max(0, maxSize - size)))
        let newSize = bytes.withUnsafeMutableBufferPointer { LLVMFuzzerMutate($0.baseAddress, size, maxSize) }
        bytes.removeLast(bytes.count - min(newSize, bytes.count))
    }

    /// `receipt` with one field changed, chosen by `seed`.
    static func changed(_ receipt: AppReceipt, seed: CUnsignedInt) -> AppReceipt {
        var receipt = receipt
        let pick = Int(seed >> 4)
        switch seed % 12 {
        case 0:
            receipt.bundleId =
                [ReceiptFuzzVectors.bundleId, "com.example.other", "", "com.example.receipts\u{0}"][
                    pick % 4]
            receipt.bundleIdRawValue = nil
        case 1:
            receipt.receiptType =
                [
                    "Production", "ProductionSandbox", "ProductionVPP", "ProductionVPPSandbox", "Xcode", "Sandbox", "",
                ][pick % 7]
        case 2: receipt.appItemId = [nil, ReceiptFuzzVectors.appAppleId, 99, -1, Int64.max][pick % 5]
        case 3:
            if var hash = receipt.sha1Hash, !hash.isEmpty {
                hash[pick % hash.count] ^= 1
                receipt.sha1Hash = hash
            } else {
                receipt.sha1Hash = nil
            }
        case 4:
            let shift = [-400_000_000.0, -1.0, 1.0, 400_000_000.0, 9e12][pick % 5]
            receipt.receiptCreationDate = receipt.receiptCreationDate.map { $0.addingTimeInterval(shift) }
        case 5: receipt.receiptCreationDate = nil
        case 6: receipt.opaqueValue = pick % 2 == 0 ? nil : []
        case 7: if !receipt.inApp.isEmpty { receipt.inApp.removeFirst() }
        case 8:
            if let first = receipt.inApp.first {
                receipt.inApp.append(contentsOf: repeatElement(first, count: 1 + pick % 3))
            }
        case 9:
            if !receipt.inApp.isEmpty {
                receipt.inApp[0].transactionId = ["", "0", "2000000100000001", "\u{FEFF}1"][pick % 4]
                receipt.inApp[0].expiresDate = pick % 2 == 0 ? nil : Date(timeIntervalSince1970: -62_135_596_800)
            }
        case 10:
            receipt.unknownAttributes.append(ReceiptAttribute(type: Int64(pick % 40), version: 2, value: [0x05, 0x00]))
        default: receipt.expirationDate = Date(timeIntervalSince1970: Double(pick) * 86_400)
        }
        return receipt
    }
}
