import Foundation

/// The outcome of a Retention Messaging performance test.
///
/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`.
public struct PerformanceTestStatus: APIEnumeration {
    /// The raw JSON value.
    public let rawValue: String
    /// Wraps a raw JSON value, documented or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `PENDING`: Still running.
    public static let pending = PerformanceTestStatus(rawValue: "PENDING")
    /// `PASS`: Passed.
    public static let pass = PerformanceTestStatus(rawValue: "PASS")
    /// `FAIL`: Failed.
    public static let fail = PerformanceTestStatus(rawValue: "FAIL")

    static let constantNames: [String: String] = [
        "PENDING": "pending",
        "PASS": "pass",
        "FAIL": "fail",
    ]
}
