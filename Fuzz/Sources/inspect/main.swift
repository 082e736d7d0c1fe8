import FuzzHarness
import LibFuzzerMutation

/// libFuzzer entry point: `SignedDataVerifier.decodeUnverified` and a rendering of all it returns
/// (see `FuzzEntryPoints.inspect`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInspect(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzEntryPoints.inspect(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

/// Mutates header, payload, signature or one `x5c` certificate of a token and re-encodes it,
/// so that certificate parsing and rendering see mutated DER (see `TokenMutator`).
let mutator = TokenMutator.libFuzzer(signingKey: nil)

/// libFuzzer's custom mutator: the structure-aware mutation above, written back into libFuzzer's buffer.
@_cdecl("LLVMFuzzerCustomMutator")
public func mutateToken(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: CUnsignedInt) -> Int {
    mutator.mutate(data, size: size, maxSize: maxSize, seed: seed)
}
