import Foundation
import JWSVerifyTesting
import Testing

/// `JWSTestingError` as Foundation's `localizedDescription` shows it.
@Suite("Testing errors")
struct JWSTestingErrorTests {
    /// Input: each case of `JWSTestingError`, as `any Error`. Expected: `localizedDescription` is its
    /// one-line description, not Foundation's "The operation could not be completed".
    @Test("localizedDescription of each testing error is its message")
    func localizedDescriptionIsTheMessage() {
        let cases: [JWSTestingError] = [
            .openSSL(operation: "EVP_PKEY_keygen", message: "no memory"),
            .invalidArgument("bad override 'x'"),
            .file(path: "/tmp/pki/root.der", message: "No such file"),
            .keyMismatch("leaf.key.pem does not belong to leaf.der"),
        ]
        for error in cases {
            let any: any Error = error
            #expect(any.localizedDescription == error.description, "\(error)")
        }
        #expect((JWSTestingError.invalidArgument("x") as any Error).localizedDescription == "invalid argument: x")
    }
}
