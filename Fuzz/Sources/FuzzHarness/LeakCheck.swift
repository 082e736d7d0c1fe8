import Foundation
import JWSVerifyTesting

@testable import JWSVerify

/// The work of the `leak-check` executable: many verifications of good and bad tokens.
public enum LeakCheck {
    /// The generated vectors (every kind, valid and one per failure) plus mutations of the valid
    /// ones: re-signed payloads with other claims, flipped signature bytes, broken certificates.
    public static func tokens() -> [(kind: PayloadKind, token: String)] {
        let kinds: [String: PayloadKind] = [
            "transaction": .transaction, "renewal": .renewalInfo, "app-transaction": .appTransaction,
            "notification": .notification, "realtime": .realtimeRequest,
        ]
        var result: [(kind: PayloadKind, token: String)] = []
        for vector in FuzzVectors.generatedTokens {
            guard let kind = kinds[vector.kind] else { continue }
            result.append((kind, vector.token))
        }
        // Mutations of the valid tokens, some re-signed, with a fixed byte mutator (no libFuzzer here).
        let mutator = TokenMutator(
            byteMutator: { bytes, maxSize in
                guard !bytes.isEmpty else {
                    bytes = [0x41]
                    return
                }
                var hash: UInt64 = 1469598103934665603
                for byte in bytes { hash = (hash ^ UInt64(byte)) &* 1099511628211 }
                bytes[Int(hash % UInt64(bytes.count))] ^= UInt8(truncatingIfNeeded: hash >> 8) | 1
                if bytes.count > maxSize { bytes.removeLast(bytes.count - maxSize) }
            }, signingKey: FuzzVectors.leafKey)
        let valid = FuzzVectors.generatedTokens.compactMap { vector in
            vector.id.hasSuffix("-valid") ? kinds[vector.kind].map { ($0, vector.token) } : nil
        }
        var seed: UInt32 = 1
        for (kind, token) in valid {
            for _ in 0..<20 {
                seed &+= 1
                let mutated = mutator.mutate(Array(token.utf8), maxSize: 70_000, seed: seed)
                result.append((kind, String(decoding: mutated, as: UTF8.self)))
            }
        }
        return result
    }

    /// Verifies `count` tokens round-robin from `offset`: most with one long-lived verifier whose
    /// cache holds 4 chains, some with a fresh verifier (dropped after use), and a decode without
    /// verification. Returns how many verified.
    public static func run(_ tokens: [(kind: PayloadKind, token: String)], count: Int, offset: Int) -> Int {
        var verified = 0
        for step in offset..<(offset + count) {
            let (kind, token) = tokens[step % tokens.count]
            let result: VerificationResult<DecodedPayload>
            if step % 97 == 0 {
                result = FuzzEntryPoints.makeVerifier(cacheCapacity: 2).verifyAndDecode(token, as: kind)
            } else {
                result = shared.verifyAndDecode(token, as: kind)
            }
            if result.isVerified { verified += 1 }
            if step % 13 == 0 { _ = try? SignedDataVerifier.decodeUnverified(token) }
        }
        return verified
    }

    static let shared = FuzzEntryPoints.makeVerifier(cacheCapacity: 4)
}
