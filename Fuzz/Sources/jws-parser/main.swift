import FuzzHarness

/// libFuzzer entry point: `CompactJWS(parsing:)`, the strict base64 decoders and `JSONParser` on
/// arbitrary bytes (see `FuzzEntryPoints.jwsParser`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJWSParser(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzEntryPoints.jwsParser(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}
