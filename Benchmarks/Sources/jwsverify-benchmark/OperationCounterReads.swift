import JWSVerify

// The one file that reads the library's `package` counters. In the JWSVerify package a plain import
// reaches them; a build from another package needs `@testable import JWSVerify` here and
// `-Xswiftc -enable-testing` (package access does not cross packages).

extension OperationCount {
    /// The process-wide counters now.
    static func now() -> OperationCount {
        OperationCount(
            es256Verifications: OperationCounters.es256Verifications,
            certificateSignatureVerifications: OperationCounters.certificateSignatureVerifications,
            certificateParses: OperationCounters.certificateParses,
            ocspRequests: OperationCounters.ocspRequests)
    }
}
