/// What each `batch` result line holds: `--report compact` (the default) or `--report full`.
package enum BatchReport: String, CaseIterable, Sendable {
    /// The compact line (`schemaVersion` 2): verdict, identifiers, decoded payload.
    case compact
    /// The verification object of `verify --json` (`schemaVersion` 1), with `line` and `id`.
    case full
}

/// The `batch` result line of a token or an app receipt, both reports: the fields each has, and the compact line's
/// rendering.
///
/// Documented in `Docs/CLI.md` ("Batch result line"). The compact line names the token by the key
/// identifiers of its kind (``PayloadKind/identifierKeys``; a receipt by ``SignedDataForm/receiptIdentifierKeys``)
/// and carries its decoded payload (a receipt: in the `verifyReceipt` shape, as the library writes it); a
/// notification's nested tokens are replaced, at their place in the payload, by their own verdict and decoded
/// payload, so no raw token is ever echoed. The full object is ``SignedDataOutcome/jsonDocument(includeDER:)`` with
/// `line` and `id`, without certificates' `der`. A caller that verifies tokens itself writes the same compact line,
/// with members of its own first (``writeCompact(_:kind:id:leading:into:)``).
package enum BatchResultLine {
    /// The version of the compact line (the full object keeps ``JSONSchema/version``).
    package static let compactSchemaVersion = 2

    /// The fields that every line keeps, whatever `--fields` selects: the line stays identifiable and versioned.
    package static let alwaysKept: Set<String> = ["line", "schemaVersion"]

    /// The compact line's top-level fields (some only when they apply).
    package static let compactFields: [String] = {
        var fields = [
            "schemaVersion", "line", "id", "verified", "code", "check", "message", "underlying", "retryable", "kind",
            "environment", "nestedField", "nestedCheck", "payload",
        ]
        for key in PayloadKind.allCases.flatMap(\.identifierKeys) + SignedDataForm.receiptIdentifierKeys
        where !fields.contains(key) {
            fields.append(key)
        }
        return fields
    }()

    /// The full object's top-level fields, a token's and a receipt's.
    package static let fullFields = [
        "schemaVersion", "line", "id", "verified", "kind", "code", "check", "message", "underlying", "retryable",
        "nestedField", "nestedCheck", "checks", "chain", "chainValidated", "certificateProblems", "validationTime",
        "payload", "nested", "environment", "hints", "receipt",
    ]

    /// Every name `--fields` accepts: the fields of either report, for tokens and receipts, sorted.
    package static let selectableFields = Array(Set(compactFields + fullFields)).sorted()

    /// Appends one result line, newline-terminated, to `out`.
    ///
    /// - Parameters:
    ///   - outcome: The token's or receipt's outcome.
    ///   - line: The 1-based input line.
    ///   - id: The input object's `id`, echoed as given.
    ///   - report: Compact or full.
    ///   - fields: The top-level fields to keep (plus ``alwaysKept``); nil keeps all.
    ///   - out: The bytes the line is appended to. They are UTF-8: the JSON writer writes strings from
    ///     `String`s, and the payload copier copies only payload text that is valid UTF-8.
    package static func render(
        _ outcome: SignedDataOutcome, line: Int, id: JSONLiteral?, report: BatchReport, fields: Set<String>?,
        into out: inout [UInt8]
    ) {
        if report == .compact {
            writeCompact(outcome, line: line, id: id?.bytes, fields: fields, into: &out)
        } else if case .object(var members) = outcome.jsonDocument(includeDER: false) {
            members["line"] = .integer(Int64(line))
            if let fields { members = members.filter { fields.contains($0.key) || alwaysKept.contains($0.key) } }
            writeObject(members, id: fields?.contains("id") ?? true ? id : nil, payloadOf: nil, into: &out)
        }
        out.append(UInt8(ascii: "\n"))
    }

    /// A field of the compact line, as ``writeCompact(_:line:id:fields:leading:into:)`` writes it.
    private enum CompactField: String {
        case schemaVersion, line, id, verified, code, check, message, underlying, retryable, kind, environment
        case nestedField, nestedCheck, payload
        /// One of ``PayloadKind/identifierKeys`` or ``SignedDataForm/receiptIdentifierKeys`` (any other name).
        case identifier
    }

    /// The compact line's fields, each with its key written once as `"key":`, in the order keys sort
    /// (``JSONWriter/precedes(_:_:)``), which is the order ``JSONWriter`` writes an object's members.
    private static let compactKeysInOrder: [(name: String, field: CompactField, key: [UInt8])] =
        compactFields.sorted(by: JSONWriter.precedes).map { name in
            var key: [UInt8] = []
            JSONWriter.writeString(name, into: &key)
            key.append(UInt8(ascii: ":"))
            return (name, CompactField(rawValue: name) ?? .identifier, key)
        }

    /// A member of the compact line as ``writeCompact(_:line:id:fields:leading:into:)`` writes it: its field, and
    /// its position in ``compactKeysInOrder`` and so the range of its `,"key":` in ``compactKeyBytes``.
    private struct CompactMember {
        var field: CompactField
        var index: Int
        var key: Range<Int>
    }

    /// Every `"key":` of ``compactKeysInOrder``, each after a comma, one after the other.
    private static let compactKeyBytes: [UInt8] = compactKeysInOrder.flatMap { [UInt8(ascii: ",")] + $0.key }

    /// ``compactKeysInOrder`` without the identifiers not in `identifiers`.
    private static func compactMembers(identifiers: [String]) -> [CompactMember] {
        var members: [CompactMember] = []
        var offset = 0
        for (index, entry) in compactKeysInOrder.enumerated() {
            let key = offset..<(offset + 1 + entry.key.count)
            offset = key.upperBound
            guard entry.field != .identifier || identifiers.contains(entry.name) else { continue }
            members.append(CompactMember(field: entry.field, index: index, key: key))
        }
        return members
    }

    /// The compact members of each payload kind's tokens, in the order of ``PayloadKind/allCases``.
    private static let membersByKind = PayloadKind.allCases.map { compactMembers(identifiers: $0.identifierKeys) }
    /// The compact members of a token of unknown kind.
    private static let membersWithoutKind = compactMembers(identifiers: [])
    /// The compact members of a receipt.
    private static let receiptMembers = compactMembers(identifiers: SignedDataForm.receiptIdentifierKeys)

    /// The members of the compact line of an outcome: its kind's identifiers, a receipt's, or none.
    private static func compactMembers(of outcome: SignedDataOutcome) -> [CompactMember] {
        if outcome.form == .receipt { return receiptMembers }
        guard let kind = outcome.kind, let index = PayloadKind.allCases.firstIndex(of: kind) else {
            return membersWithoutKind
        }
        return membersByKind[index]
    }

    /// Writes the compact line of one token verification the library made, without its newline: the line `batch`
    /// writes, without `line`, after the caller's own members (the page and index of an API response).
    ///
    /// - Parameters:
    ///   - result: The library's result of the token.
    ///   - kind: The kind the caller asked for, kept when the token tells none.
    ///   - id: The caller's `id` as JSON text, written byte for byte; nil writes no `id`.
    ///   - leading: Members written first, in this order, before the line's own (sorted) members; their keys must
    ///     not be the line's.
    ///   - out: The bytes the line is appended to.
    package static func writeCompact(
        _ result: consuming VerificationResult<DecodedPayload>, kind: PayloadKind? = nil, id: [UInt8]? = nil,
        leading: [(key: String, value: JSONValue)] = [], into out: inout [UInt8]
    ) {
        let outcome = SignedDataOutcome(token: result, kind: kind, reporting: false)
        writeCompact(outcome, line: nil, id: id, fields: nil, leading: leading, into: &out)
    }

    /// Writes the compact line of one outcome, without its newline, those of its members `fields` keeps:
    /// the one place that decides what a compact line holds.
    ///
    /// Writes the `leading` members first, in their order, then each member straight into `out` in the order of
    /// ``compactKeysInOrder`` (sorted keys, as ``JSONWriter`` writes an object), each value with the writer's own
    /// functions, without building a dictionary of ``JSONValue``s.
    ///
    /// - Parameters:
    ///   - outcome: The token's or receipt's outcome.
    ///   - line: The 1-based input line (`line`); nil writes none.
    ///   - id: The caller's `id` as JSON text, written byte for byte; nil writes none.
    ///   - fields: The members to keep (plus ``alwaysKept``); nil keeps all. The `leading` ones are always kept.
    ///   - leading: Members written first, in this order; their keys must not be the line's.
    ///   - out: The bytes the line is appended to.
    package static func writeCompact(
        _ outcome: SignedDataOutcome, line: Int?, id: [UInt8]?, fields: Set<String>?,
        leading: [(key: String, value: JSONValue)] = [], into out: inout [UInt8]
    ) {
        let keyBytes = compactKeyBytes
        var first = true
        // `,` before every member but the first, then `"key":`.
        func begin(_ member: CompactMember, _ out: inout [UInt8]) {
            out.append(contentsOf: keyBytes[first ? member.key.dropFirst() : member.key])
            first = false
        }
        let error = outcome.error
        out.append(UInt8(ascii: "{"))
        for (key, value) in leading {
            if !first { out.append(UInt8(ascii: ",")) }
            JSONWriter.writeString(key, into: &out)
            out.append(UInt8(ascii: ":"))
            JSONWriter.write(value, pretty: false, depth: 1, into: &out)
            first = false
        }
        for member in compactMembers(of: outcome) {
            if let fields {
                let name = compactKeysInOrder[member.index].name
                if !fields.contains(name), !alwaysKept.contains(name) { continue }
            }
            switch member.field {
            case .payload:
                begin(member, &out)
                writePayload(outcome, into: &out)
            case .verified:
                begin(member, &out)
                JSONWriter.writeBool(outcome.verified, into: &out)
            case .code:
                begin(member, &out)
                JSONWriter.writeString(orNull: error?.code.rawValue, into: &out)
            case .check:
                begin(member, &out)
                JSONWriter.writeString(orNull: error?.check.rawValue, into: &out)
            case .message:
                begin(member, &out)
                JSONWriter.writeString(error?.message ?? "every check passed", into: &out)
            case .kind:
                begin(member, &out)
                JSONWriter.writeString(orNull: outcome.kindName, into: &out)
            case .schemaVersion:
                begin(member, &out)
                JSONWriter.writeInteger(Int64(compactSchemaVersion), into: &out)
            case .retryable:
                begin(member, &out)
                JSONWriter.writeBool(error?.isRetryable ?? false, into: &out)
            case .environment:
                begin(member, &out)
                JSONWriter.writeString(orNull: outcome.environment, into: &out)
            case .underlying:
                guard let underlying = error?.underlying else { continue }
                begin(member, &out)
                JSONWriter.writeString(underlying, into: &out)
            case .nestedField:
                guard let field = error?.nestedField else { continue }
                begin(member, &out)
                JSONWriter.writeString(field, into: &out)
            case .nestedCheck:
                guard let check = error?.nestedCheck else { continue }
                begin(member, &out)
                JSONWriter.writeString(check.rawValue, into: &out)
            case .line:
                guard let line else { continue }
                begin(member, &out)
                JSONWriter.writeInteger(Int64(line), into: &out)
            case .id:
                guard let id else { continue }
                begin(member, &out)
                out.append(contentsOf: id)
            case .identifier:
                guard let value = identifier(compactKeysInOrder[member.index].name, of: outcome) else { continue }
                begin(member, &out)
                JSONWriter.write(value, pretty: false, depth: 1, into: &out)
            }
        }
        out.append(UInt8(ascii: "}"))
    }

    /// `verified`, `code`, `check`, `message` and `kind`: with `payload`, the members a nested token's
    /// verdict has too.
    private static func verdict(_ outcome: SignedDataOutcome) -> [String: JSONValue] {
        [
            "verified": .bool(outcome.verified),
            "code": outcome.error.map { .string($0.code.rawValue) } ?? .null,
            "check": outcome.error.map { .string($0.check.rawValue) } ?? .null,
            "message": .string(outcome.error?.message ?? "every check passed"),
            "kind": outcome.kind.map { .string($0.rawValue) } ?? .null,
        ]
    }

    /// The verdict of a nested token the notification's own failure left unchecked.
    private static let unchecked: [String: JSONValue] = [
        "verified": .bool(false), "code": .null, "check": .null, "kind": .null, "payload": .null,
        "message": .string("not checked: the notification itself did not pass its checks"),
    ]

    /// A member of an object that ``writeObject(_:id:payloadOf:into:)`` writes.
    private enum Member {
        /// A value, written by the writer.
        case value(JSONValue)
        /// The caller's `id`, written as the caller wrote it.
        case literal(JSONLiteral)
        /// The payload, written from the outcome.
        case payload(SignedDataOutcome)
    }

    /// Writes an object, members sorted by key, with an `id` member echoed as written and a `payload` member
    /// written from `outcome`, when given.
    private static func writeObject(
        _ members: [String: JSONValue], id: JSONLiteral?, payloadOf outcome: SignedDataOutcome?, into out: inout [UInt8]
    ) {
        var entries: [(key: String, value: Member)] = []
        entries.reserveCapacity(members.count + 2)
        for (key, value) in members { entries.append((key, .value(value))) }
        if let id { entries.append(("id", .literal(id))) }
        if let outcome { entries.append(("payload", .payload(outcome))) }
        entries.sort { JSONWriter.precedes($0.key, $1.key) }
        out.append(UInt8(ascii: "{"))
        for (index, entry) in entries.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            JSONWriter.writeString(entry.key, into: &out)
            out.append(UInt8(ascii: ":"))
            switch entry.value {
            case .value(let value): JSONWriter.write(value, pretty: false, depth: 1, into: &out)
            case .literal(let id): out.append(contentsOf: id.bytes)
            case .payload(let outcome): writePayload(outcome, into: &out)
            }
        }
        out.append(UInt8(ascii: "}"))
    }

    /// Writes the decoded payload: its JSON text as in the token, compacted and escaped (member order
    /// the token's), a notification's nested tokens replaced by their verdicts; null when there is none.
    private static func writePayload(_ outcome: SignedDataOutcome, into out: inout [UInt8]) {
        if outcome.form == .receipt {
            if outcome.receipt?.appendJSON(to: &out) != true { JSONWriter.writeNull(into: &out) }
            return
        }
        var replacements: [String: JSONTextCopier.Writer] = [:]
        if outcome.kind == .notification {
            for nested in outcome.nested {
                replacements[nested.path] = {
                    writeObject(verdict(nested.outcome), id: nil, payloadOf: nested.outcome, into: &$0)
                }
            }
            // A notification refused by its own checks did not verify its nested tokens: they are not
            // echoed either.
            for field in PayloadKind.notification.nestedTokenFields where replacements[field.path] == nil {
                replacements[field.path] = { JSONWriter.write(.object(unchecked), pretty: false, depth: 1, into: &$0) }
            }
        }
        if let json = outcome.payloadJSON, JSONTextCopier.copy(parsed: json, replacing: replacements, into: &out) {
            return
        }
        JSONWriter.write(payloadTree(outcome), pretty: false, depth: 1, into: &out)
    }

    /// The payload as a tree, for payloads the copier refused: each nested token replaced by its verdict.
    private static func payloadTree(_ outcome: SignedDataOutcome) -> JSONValue {
        guard var json = outcome.payload?.json else { return .null }
        guard outcome.kind == .notification else { return json }
        for nested in outcome.nested {
            var members = verdict(nested.outcome)
            members["payload"] = payloadTree(nested.outcome)
            json = replacing(path: nested.path[...], in: json, with: .object(members))
        }
        for field in PayloadKind.notification.nestedTokenFields
        where !outcome.nested.contains(where: {
            $0.path == field.path
        }) {
            json = replacing(path: field.path[...], in: json, with: .object(unchecked))
        }
        return json
    }

    /// `json` with the member at a dotted `path` set to `value` when present.
    private static func replacing(path: Substring, in json: JSONValue, with value: JSONValue) -> JSONValue {
        guard case .object(var members) = json else { return json }
        let dot = path.firstIndex(of: ".")
        let key = String(path[..<(dot ?? path.endIndex)])
        guard let member = members[key] else { return json }
        members[key] = dot.map { replacing(path: path[path.index(after: $0)...], in: member, with: value) } ?? value
        return .object(members)
    }

    /// An identifier of the token: a top-level string or number of its payload; for a notification,
    /// of its nested transaction or renewal info when the notification has no such member.
    private static func identifier(_ key: String, of outcome: SignedDataOutcome) -> JSONValue? {
        if let inApp = outcome.receipt?.inApp {
            // Read in place: `inApp.first` (or binding the receipt) would copy a whole purchase for one string.
            let value: String? =
                switch key {
                case "bundleId": outcome.receipt?.bundleId
                case "transactionId": inApp.isEmpty ? nil : inApp[0].transactionId
                case "originalTransactionId": inApp.isEmpty ? nil : inApp[0].originalTransactionId
                default: nil
                }
            return value.map(JSONValue.string)
        }
        if case .object(let members)? = outcome.payload?.json, let value = members[key] {
            switch value {
            case .string, .integer, .double: return value
            default: break
            }
        }
        guard outcome.kind == .notification else { return nil }
        for nested in outcome.nested {
            if let value = identifier(key, of: nested.outcome) { return value }
        }
        return nil
    }
}
