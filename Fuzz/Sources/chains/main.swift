import FuzzHarness

/// libFuzzer entry point: a crafted chain generated from the bytes, checked warm, cold and against
/// OpenSSL's `X509_verify_cert` (see `FuzzEntryPoints.chains` and `ChainsDifferential`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzChains(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzEntryPoints.chains(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}
