import CLibFuzzer
import FuzzHarness

/// libFuzzer entry point: `SignedDataVerifier.decodeUnverified` and a rendering of all it returns
/// (see `FuzzEntryPoints.inspect`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInspect(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzEntryPoints.inspect(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

/// Mutates header, payload, signature or one `x5c` certificate of a token and re-encodes it,
/// so that certificate parsing and rendering see mutated DER (see `TokenMutator`).
let mutator = TokenMutator(
    byteMutator: { bytes, maxSize in
        let size = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: max(0, maxSize - size)))
        let newSize = bytes.withUnsafeMutableBufferPointer { LLVMFuzzerMutate($0.baseAddress, size, maxSize) }
        bytes.removeLast(bytes.count - min(newSize, bytes.count))
    },
    signingKey: nil)

/// libFuzzer's custom mutator: the structure-aware mutation above, written back into libFuzzer's buffer.
@_cdecl("LLVMFuzzerCustomMutator")
public func mutateToken(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: CUnsignedInt) -> Int {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let output = mutator.mutate(input, maxSize: maxSize, seed: seed)
    let count = min(output.count, maxSize)
    output.withUnsafeBufferPointer { buffer in
        if let base = buffer.baseAddress { data.update(from: base, count: count) }
    }
    return count
}
