import Foundation
import JWSVerify

// How the cases of `GeneratedVectors+Cases.swift` alter signed tokens after signing.
extension GeneratedVectors {
    /// Changes one character of the payload segment so that the payload is still valid base64url
    /// and a JSON object with the same members and the same `bundleId`, `environment` and
    /// `signedDate`; the choice is deterministic.
    static func tamperPayload(_ token: String) throws -> String {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let segment = Array(parts[1])
        guard let original = Base64URL.decode(parts[1]) else {
            throw JWSTestingError.invalidArgument("payload segment is not base64url")
        }
        let originalObject = try JSONText.parseObject(original)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let middle = segment.count / 2
        // Positions from the middle outwards, never the last (whose low bits may be padding).
        let positions = (0..<(segment.count - 1)).sorted { abs($0 - middle) < abs($1 - middle) }
        for position in positions {
            for replacement in alphabet where replacement != segment[position] {
                var changed = segment
                changed[position] = replacement
                guard let decoded = Base64URL.decode(String(changed)), decoded != original,
                    String(data: decoded, encoding: .utf8) != nil,
                    let object = try? JSONText.parseObject(decoded),
                    Set(object.keys) == Set(originalObject.keys),
                    ["bundleId", "environment", "signedDate"].allSatisfy({ object[$0] == originalObject[$0] })
                else { continue }
                return [parts[0], String(changed), parts[2]].joined(separator: ".")
            }
        }
        throw JWSTestingError.invalidArgument("no single-character payload change keeps the JSON valid")
    }

    /// The P-256 group order n, big-endian.
    static let p256Order: [UInt8] = [
        0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17, 0x9e, 0x84, 0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x51,
    ]

    /// A raw P-256 R‖S signature with S replaced by n - S, which verifies as well.
    static func negateS(_ signature: Data) -> Data {
        let bytes = [UInt8](signature)
        var negated = [UInt8](repeating: 0, count: 32)
        var borrow = 0
        for index in stride(from: 31, through: 0, by: -1) {
            var difference = Int(p256Order[index]) - Int(bytes[32 + index]) - borrow
            borrow = difference < 0 ? 1 : 0
            if difference < 0 { difference += 256 }
            negated[index] = UInt8(difference)
        }
        return Data(bytes[0..<32] + negated)
    }

    /// Sets an unused low bit in the last character of the signature segment (64 bytes leave four
    /// unused bits), so that only strict base64url decoders notice.
    static func nonCanonicalLastCharacter(_ token: String) throws -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var characters = Array(token)
        guard let last = characters.last, let index = alphabet.firstIndex(of: last) else {
            throw JWSTestingError.invalidArgument("token does not end in a base64url character")
        }
        characters[characters.count - 1] = alphabet[index | 1]
        return String(characters)
    }

    /// Replaces `jwsverify-test-1` by `jwsverify-test-2` in the header after signing.
    static func tamperHeader(_ token: String) throws -> String {
        var parts = try JWSSegments(token: token)
        let original = String(decoding: parts.header, as: UTF8.self)
        let changed = original.replacingOccurrences(of: "\"jwsverify-test-1\"", with: "\"jwsverify-test-2\"")
        guard changed != original else {
            throw JWSTestingError.invalidArgument("the header has no kid to tamper with")
        }
        parts.header = Data(changed.utf8)
        return parts.token
    }
}
