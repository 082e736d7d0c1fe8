import FuzzHarness

/// libFuzzer entry point: the bytes as an App Store Server API answer (status, headers, body) given by an in-memory
/// transport to the verifying client, for the call the first byte chooses (see `APIFuzzEntryPoints.run`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAPIResponses(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    APIFuzzEntryPoints.apiResponses(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}
