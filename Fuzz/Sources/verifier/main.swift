import FuzzHarness
import LibFuzzerMutation

/// libFuzzer entry point: the whole `SignedDataVerifier` path for every kind, configured with the
/// generated test root (see `FuzzEntryPoints.verifier`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVerifier(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzEntryPoints.verifier(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

/// Mutates header, payload, signature or one `x5c` certificate of a token and re-encodes it,
/// re-signing half of the mutated tokens with the generated leaf key (see `TokenMutator`).
let mutator = TokenMutator.libFuzzer(signingKey: FuzzVectors.leafKey)

/// libFuzzer's custom mutator: the structure-aware mutation above, written back into libFuzzer's buffer.
@_cdecl("LLVMFuzzerCustomMutator")
public func mutateToken(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: CUnsignedInt) -> Int {
    mutator.mutate(data, size: size, maxSize: maxSize, seed: seed)
}
