import Foundation
import JWSVerify

/// With `JWSVERIFY_OPERATION_COUNTS=1` in the environment, the process writes the library's operation
/// counts (``OperationCounters``) to standard error as it exits, one line:
/// `jwsverify-operations {"certificateParses":…,"es256Verifications":…,"tokenParses":…}`.
///
/// For tests and benchmarks of the real binary: they prove, for example, that `batch` parses each
/// token once, nested tokens included.
enum OperationCountReport {
    /// The environment variable that asks for the line.
    static let variable = "JWSVERIFY_OPERATION_COUNTS"

    /// The line, when the environment asks for it.
    static func line(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        guard environment[variable] == "1" else { return nil }
        let counts: [(String, Int)] = [
            ("certificateParses", OperationCounters.certificateParses),
            ("certificateSignatureVerifications", OperationCounters.certificateSignatureVerifications),
            ("es256Verifications", OperationCounters.es256Verifications),
            ("ocspRequests", OperationCounters.ocspRequests),
            ("tokenParses", OperationCounters.tokenParses),
        ]
        return "jwsverify-operations {" + counts.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}\n"
    }
}
