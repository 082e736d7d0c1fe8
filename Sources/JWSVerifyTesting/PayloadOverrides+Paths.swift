import Foundation
import JWSVerify

extension PayloadOverrides {
    /// Parses `key=value` where the key may be a dotted path to a nested member (`data.status=2`).
    ///
    /// The value is read as ``parseAssignment(_:)`` reads it: JSON when it parses as JSON, otherwise the
    /// string as written. App Store payload keys never contain dots, so every dot separates two keys.
    ///
    /// - Parameter text: `key=value` or `outer.inner=value`.
    /// - Returns: the path, outermost key first (one element for a top-level key), and the value.
    /// - Throws: ``JWSTestingError/invalidArgument(_:)`` when there is no `=`, the key is empty, or a path
    ///   segment is empty (`data..status`, `.status`, `data.`).
    public static func parsePathAssignment(_ text: String) throws -> (path: [String], value: JSONValue) {
        let (key, value) = try parseAssignment(text)
        let path = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !path.contains(where: \.isEmpty) else {
            throw JWSTestingError.invalidArgument("expected key=value with a key such as data.status, got \(text)")
        }
        return (path, value)
    }

    /// Overrides from `key=value` assignments whose keys may be dotted paths, applied in order on top of
    /// `merge`.
    ///
    /// A top-level key replaces the member (``set``). A dotted key replaces one nested member and keeps its
    /// siblings: it is merged deeply (``merge``) or, when an earlier assignment set its top-level member,
    /// written into that value. A later assignment wins over an earlier one, so
    /// `data={"a":1}` then `data.b=2` gives `{"a":1,"b":2}`, while `data.b=2` then `data={"a":1}` gives
    /// `{"a":1}`. A member on the way that is not an object is replaced by one; an object value of a
    /// dotted key that lands in ``merge`` merges into an existing object member.
    ///
    /// - Parameters:
    ///   - pathAssignments: `key=value` texts (see ``parsePathAssignment(_:)``).
    ///   - merge: members merged deeply into the payload first (typically a payload JSON file).
    /// - Throws: ``JWSTestingError/invalidArgument(_:)`` for a malformed assignment.
    public init(pathAssignments: [String], merge: [String: JSONValue] = [:]) throws {
        self.init(merge: merge)
        for assignment in pathAssignments {
            let (path, value) = try Self.parsePathAssignment(assignment)
            assign(value, at: path)
        }
    }

    /// Sets the member at `path` (outermost key first), as an assignment of
    /// ``init(pathAssignments:merge:)`` does. An empty path changes nothing.
    public mutating func assign(_ value: JSONValue, at path: [String]) {
        guard let first = path.first else { return }
        let rest = path.dropFirst()
        if rest.isEmpty {
            set[first] = value
        } else if let current = set[first] {
            set[first] = Self.setting(value, at: rest, in: current)
        } else {
            merge = Self.deepMerge(merge, [first: Self.setting(value, at: rest, in: .object([:]))])
        }
    }

    /// `container` with the member at `path` set to `value`; a non-object on the way becomes an object.
    private static func setting(_ value: JSONValue, at path: ArraySlice<String>, in container: JSONValue) -> JSONValue {
        guard let key = path.first else { return value }
        var members: [String: JSONValue] = [:]
        if case .object(let existing) = container { members = existing }
        members[key] = setting(value, at: path.dropFirst(), in: members[key] ?? .object([:]))
        return .object(members)
    }
}
