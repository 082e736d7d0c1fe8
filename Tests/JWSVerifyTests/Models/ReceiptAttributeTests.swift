import Foundation
import Testing

@testable import JWSVerify

/// ``ReceiptAttribute``'s value kept packed in a word (up to eight bytes) or in an array: the same bytes, equality,
/// hash, JSON and `Codable` form whichever way it was made.
@Suite("Receipt attributes: packed and array values")
struct ReceiptAttributeTests {
    /// Values of every length from 0 to 20 bytes, the packed and the array forms and the switch between them.
    static let values: [[UInt8]] = (0...20).map { length in
        (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 167 &+ 0xF1) }
    }

    @Test("a value reads back as made, from an array, a slice or the setter, in the form its length gives")
    func valueRoundTrip() {
        for value in Self.values {
            let made = ReceiptAttribute(type: 1709, version: 2, value: value)
            let sliced = ReceiptAttribute(
                type: 1709, version: 2, value: ([0x55] + value + [0x66])[1..<(1 + value.count)])
            var set = ReceiptAttribute(type: 1709, version: 2, value: [9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9])
            set.value = value
            for attribute in [made, sliced, set] {
                #expect(attribute.value == value)
                #expect(attribute == made)
                #expect(attribute.hashValue == made.hashValue)
                switch attribute.storage {
                case .packed(_, let count): #expect(value.count <= 8 && count == value.count)
                case .array: #expect(value.count > 8)
                }
            }
            #expect("\(made)" == "ReceiptAttribute(type: 1709, version: 2, value: \(value))")
            #expect(made != ReceiptAttribute(type: 1709, version: 2, value: value + [0]))
            if let last = value.last {
                #expect(made != ReceiptAttribute(type: 1709, version: 2, value: value.dropLast() + [last ^ 1]))
            }
        }
    }

    @Test("the payload JSON of a value is its standard base64, whichever form keeps it")
    func payloadJSON() throws {
        for value in Self.values {
            var receipt = AppReceipt()
            receipt.unknownAttributes = [ReceiptAttribute(type: 8, version: 1, value: value)]
            var out: [UInt8] = []
            #expect(receipt.appendJSON(to: &out))
            let expected =
                "{\"asn1_unknown_attributes\":[{\"type\":8,\"value\":\"\(Base64.encodeStandard(value))\",\"version\":1}]"
            #expect(String(decoding: out, as: UTF8.self).hasPrefix(expected))
            let decoded = try JSONDecoder().decode(
                ReceiptAttribute.self, from: try JSONEncoder().encode(receipt.unknownAttributes[0]))
            #expect(decoded == receipt.unknownAttributes[0])
        }
    }
}
