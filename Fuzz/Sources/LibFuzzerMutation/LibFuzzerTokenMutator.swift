import CLibFuzzer
import FuzzHarness
import JWSVerifyTesting

extension TokenMutator {
    /// A structure-aware mutator whose byte-level mutations are libFuzzer's own (`LLVMFuzzerMutate`),
    /// for the fuzz targets that mutate tokens (`verifier`, `inspect`). Only a binary linked with
    /// `-sanitize=fuzzer` may use it: the leak check, which links `FuzzHarness` alone, does not.
    ///
    /// - Parameter signingKey: The key that re-signs mutated tokens, or nil never to re-sign.
    public static func libFuzzer(signingKey: TestPrivateKey?) -> TokenMutator {
        TokenMutator(
            byteMutator: { bytes, maxSize in
                let size = bytes.count
                bytes.append(contentsOf: repeatElement(0, count: max(0, maxSize - size)))
                let newSize = bytes.withUnsafeMutableBufferPointer { LLVMFuzzerMutate($0.baseAddress, size, maxSize) }
                bytes.removeLast(bytes.count - min(newSize, bytes.count))
            },
            signingKey: signingKey)
    }

    /// `LLVMFuzzerCustomMutator`'s contract: mutates the `size` bytes at `data` in place, within
    /// `maxSize`, and returns the new size.
    public func mutate(_ data: UnsafeMutablePointer<UInt8>, size: Int, maxSize: Int, seed: CUnsignedInt) -> Int {
        let input = Array(UnsafeBufferPointer(start: data, count: size))
        let output = mutate(input, maxSize: maxSize, seed: seed)
        let count = min(output.count, maxSize)
        output.withUnsafeBufferPointer { buffer in
            if let base = buffer.baseAddress { data.update(from: base, count: count) }
        }
        return count
    }
}
