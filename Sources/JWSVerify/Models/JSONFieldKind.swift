/// What a model knows of one of its JSON members beyond its JSON type: that it is a timestamp, an App Store
/// enumeration or a nested model.
///
/// Each generated model lists its members of these kinds in `jsonFieldKinds` (written by
/// `Scripts/models/generate.py`, which knows every field's type), so that code that walks a payload's JSON (the
/// CLI's text output) annotates it without reflecting over the model.
package indirect enum JSONFieldKind: Sendable {
    /// Milliseconds since 1970 (``Timestamp``).
    case timestamp
    /// An App Store enumeration: the name of the Swift constant of a documented JSON value whose name differs
    /// from the value (`"Sandbox"`: `sandbox`), else nil.
    case enumeration(@Sendable (JSONValue) -> String?)
    /// A nested model, with its own members' kinds.
    case object([String: JSONFieldKind])
    /// An array whose elements are of one kind.
    case array(JSONFieldKind)
}

/// The annotations of a payload's JSON: the constant names of its enumeration values and the paths of its
/// timestamps, found by walking the JSON along its model's ``JSONFieldKind``s.
package struct PayloadAnnotations: Sendable, Hashable {
    /// Paths (`data.environment`, `items[0].offer.period`) of enumeration values whose constant name is known,
    /// with that name.
    package var enumerationNames: [String: String] = [:]
    /// Paths of timestamp values (JSON numbers where the model has a ``Timestamp``).
    package var timestampPaths: Set<String> = []

    /// No annotations.
    package init() {}

    /// Annotates `json` along `fields`, the kinds of its top-level members.
    ///
    /// - Parameters:
    ///   - json: A payload's JSON object, as in the token or as its model writes it.
    ///   - fields: The kinds of the object's members (its model's `jsonFieldKinds`).
    package init(json: JSONValue, fields: [String: JSONFieldKind]) {
        visit(json, kind: .object(fields), path: "")
    }

    private mutating func visit(_ value: JSONValue, kind: JSONFieldKind, path: String) {
        switch (kind, value) {
        case (.timestamp, .integer), (.timestamp, .double):
            timestampPaths.insert(path)
        case (.enumeration(let name), _):
            if let name = name(value) { enumerationNames[path] = name }
        case (.object(let fields), .object(let members)):
            for (key, member) in members {
                guard let kind = fields[key] else { continue }
                visit(member, kind: kind, path: path.isEmpty ? key : path + "." + key)
            }
        case (.array(let element), .array(let elements)):
            for (index, member) in elements.enumerated() {
                visit(member, kind: element, path: path + "[\(index)]")
            }
        default:
            return
        }
    }
}
