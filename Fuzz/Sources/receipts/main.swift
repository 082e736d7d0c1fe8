import FuzzHarness
import LibFuzzerMutation

/// libFuzzer entry point: app receipts through the content decoder, the envelope scan against OpenSSL's CMS
/// parse, and warm and cold `AppReceiptVerifier`s (see `FuzzEntryPoints.receipts`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReceipts(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzEntryPoints.receipts(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

/// Byte mutations, and for some strict-DER receipts a new receipt over changed content signed by the minted leaf
/// (see `ReceiptMutator`).
@_cdecl("LLVMFuzzerCustomMutator")
public func mutateReceipt(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: CUnsignedInt) -> Int
{
    ReceiptMutator.mutate(data, size: size, maxSize: maxSize, seed: seed)
}
