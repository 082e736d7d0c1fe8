import FuzzHarness

/// libFuzzer entry point: every payload model decoded from arbitrary JSON by `JSONDecoder` and by
/// the verifier's tree path, and re-encoded (see `FuzzEntryPoints.models`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzModels(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzEntryPoints.models(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}
