import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// Check 4, header (Docs/ErrorCodes.md): exactly 3 `x5c` entries; else `invalidChainLength`.
@Suite("Check 4, header: invalidChainLength")
struct Check04ChainLengthTests: AppleTokenVariants {
    @Test("x5c must hold exactly three certificates")
    func x5cLength() throws {
        let x5c = try #require(try TokenParts(Self.base()).header["x5c"] as? [String])
        try Self.check(
            try Self.withHeader { $0["x5c"] = [] as [String] }, .invalidChainLength, .header, "0 certificates")
        try Self.check(
            try Self.withHeader { $0["x5c"] = Array(x5c.prefix(2)) }, .invalidChainLength, .header, "2 certificates")
        try Self.check(
            try Self.withHeader { $0["x5c"] = x5c + [x5c[2]] }, .invalidChainLength, .header, "4 certificates")
    }
}
