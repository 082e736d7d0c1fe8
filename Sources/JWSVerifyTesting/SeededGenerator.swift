import Foundation

/// A deterministic random number generator (SplitMix64) for test material: keys, serial numbers,
/// identifiers. Not cryptographically secure, and not meant to be: it only makes test fixtures
/// reproducible. The same seed and label always give the same sequence: a test that shuffles or picks with it can
/// be replayed from its seed.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator for `seed`, separated from other uses of the same seed by `label`.
    public init(seed: UInt64, label: String) {
        // FNV-1a over the label, then mixed with the seed.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in label.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        state = seed ^ hash
        _ = next()
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state = state &+ 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// `count` bytes.
    mutating func bytes(_ count: Int) -> Data {
        var data = Data(capacity: count + 8)
        while data.count < count {
            withUnsafeBytes(of: next().bigEndian) { data.append(contentsOf: $0) }
        }
        return data.prefix(count)
    }

    /// A random (version 4) UUID, lowercased as Apple writes them.
    mutating func uuid() -> String {
        var bytes = [UInt8](bytes(16))
        bytes[6] = (bytes[6] & 0x0f) | 0x40
        bytes[8] = (bytes[8] & 0x3f) | 0x80
        let uuid = UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6],
                bytes[7], bytes[8], bytes[9], bytes[10], bytes[11], bytes[12],
                bytes[13], bytes[14], bytes[15]
            ))
        return uuid.uuidString.lowercased()
    }

    /// A positive serial number of `count` bytes (top bit clear, never zero).
    mutating func serialNumber(_ count: Int = 16) -> Data {
        var bytes = [UInt8](bytes(count))
        bytes[0] = (bytes[0] & 0x7f) | 0x01
        return Data(bytes)
    }

    /// A generator with a fresh random seed.
    static func random(label: String) -> SeededGenerator {
        var system = SystemRandomNumberGenerator()
        return SeededGenerator(seed: system.next(), label: label)
    }
}
