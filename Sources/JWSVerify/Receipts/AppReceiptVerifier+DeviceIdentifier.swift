extension AppReceiptVerifier {
    /// The most bytes ``deviceIdentifier(hex:)`` takes (an `identifierForVendor` has 16, a MAC address 6).
    package static let maximumDeviceIdentifierBytes = 64

    /// The bytes of a device identifier written in hex: pairs of hex digits in either case, which `-` (the UUID
    /// form of `identifierForVendor`) or `:` (a MAC address) may separate; nil for anything else, for no digits,
    /// and for more than ``maximumDeviceIdentifierBytes`` bytes.
    package static func deviceIdentifier(hex string: String) -> [UInt8]? {
        let digits = Array(string.utf8.filter { $0 != UInt8(ascii: "-") && $0 != UInt8(ascii: ":") })
        guard !digits.isEmpty, digits.count % 2 == 0, digits.count <= 2 * maximumDeviceIdentifierBytes else {
            return nil
        }
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }
}
