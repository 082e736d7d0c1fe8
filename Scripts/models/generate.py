#!/usr/bin/env python3
"""Writes the enumeration and model files of Sources/JWSVerify/Models from spec_enums.py and spec_models.py."""
import os
import sys
import textwrap

sys.path.insert(0, os.path.dirname(__file__))
from spec_enums import ENUMS  # noqa: E402
from spec_models import MODELS  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Sources", "JWSVerify", "Models")
WIDTH = 120


def doc(text, indent):
    prefix = " " * indent + "/// "
    return [line.rstrip() for line in textwrap.wrap(text, WIDTH, initial_indent=prefix, subsequent_indent=prefix,
                                                    break_long_words=False, break_on_hyphens=False)]


def link_lines(link_md, indent):
    """A Markdown link to Apple's documentation, or a bare autolink when the link doesn't fit in WIDTH."""
    url = link_md[link_md.index("](") + 2:-1]
    for line in (" " * indent + "/// " + link_md, " " * indent + "/// <%s>" % url):
        if len(line) <= WIDTH:
            return [" " * indent + "///", line]
    return []


def wrapped_list(items, indent, lead):
    """Comma-separated items after `lead`, wrapped at WIDTH."""
    lines, current = [], " " * indent + lead
    for i, item in enumerate(items):
        piece = item + ("," if i < len(items) - 1 else "")
        if len(current) + 1 + len(piece) > WIDTH and current.strip() != lead.strip():
            lines.append(current.rstrip())
            current = " " * (indent + len(lead)) + piece
        else:
            current = current + ("" if current.endswith(lead) else " ") + piece
    lines.append(current)
    return lines


def swift_literal(raw_type, value):
    return '"%s"' % value if raw_type == "String" else str(value)


def write(name, lines):
    text = "\n".join(lines) + "\n"
    for n, line in enumerate(lines, 1):
        if len(line) > WIDTH:
            raise SystemExit("%s:%d is %d columns" % (name, n, len(line)))
    with open(os.path.join(OUT, name + ".swift"), "w") as f:
        f.write(text)


def enum_file(name, raw_type, summary, link, cases):
    lines = doc(summary, 0) + link_lines(link, 0)
    lines += ["///", "/// A value this version doesn't know decodes and encodes unchanged; its ``name`` is `nil`."]
    lines += ["public struct %s: AppStoreEnumeration {" % name,
              "    /// The raw JSON value.",
              "    public let rawValue: %s" % raw_type,
              "",
              "    /// Wraps a raw JSON value, documented or not.",
              "    public init(rawValue: %s) {" % raw_type,
              "        self.rawValue = rawValue",
              "    }",
              "",
              "    /// The name of the Swift constant for a documented value, `nil` for a value this version doesn't know.",
              "    public var name: String? { constantName }",
              "",
              "    /// The raw JSON value as a tree.",
              "    package var jsonValue: JSONValue { rawValue.jsonValue }",
              ""]
    for constant, value, text in cases:
        lines += doc("%s: %s" % (swift_literal(raw_type, value).replace('"', "`") if raw_type == "String"
                                  else "`%s`" % value, text), 4)
        lines.append("    public static let %s = %s(rawValue: %s)" % (constant, name, swift_literal(raw_type, value)))
    lines += ["", "    static let constantNames: [%s: String] = [" % raw_type]
    for constant, value, _ in cases:
        lines.append('        %s: "%s",' % (swift_literal(raw_type, value), constant))
    lines += ["    ]", "}"]
    write(name, lines)


def optional_type(swift_type):
    return swift_type + "?"


def model_file(name, summary, link, fields):
    lines = doc(summary, 0)
    short = link.rsplit("/", 1)[1]
    lines += link_lines("[%s](%s)" % (short, link), 0)
    lines += ["public struct %s: Codable, Hashable, Sendable, JSONObjectDecodable, JSONObjectEncodable {" % name]
    for swift_name, swift_type, key, text in fields:
        lines += doc(text, 4)
        lines.append("    public var %s: %s" % (swift_name, optional_type(swift_type)))
        lines.append("")
    lines += ["    /// The JSON members this type doesn't model (and known members whose value is `null`), written back",
              "    /// by `encode(to:)` so that decoding and re-encoding loses nothing.",
              "    public var additionalFields: [String: JSONValue]",
              "",
              "    /// Creates a value from its fields; every field defaults to absent.",
              "    public init("]
    for swift_name, swift_type, _, _ in fields:
        lines.append("        %s: %s = nil," % (swift_name, optional_type(swift_type)))
    lines += ["        additionalFields: [String: JSONValue] = [:]", "    ) {"]
    for swift_name, _, _, _ in fields:
        lines.append("        self.%s = %s" % (swift_name, swift_name))
    lines += ["        self.additionalFields = additionalFields", "    }", ""]
    case_items = [f[0] if f[2] is None else '%s = "%s"' % (f[0], f[2]) for f in fields]
    lines += ["    enum CodingKeys: String, CodingKey, CaseIterable {"]
    lines += wrapped_list(case_items, 8, "case ")
    lines += ["    }", "",
              "    /// The JSON keys of the modelled fields.",
              "    static let jsonKeys: Set<String> = Set(CodingKeys.allCases.map(\\.stringValue))", "",
              "    /// Decodes from any `Decoder` by reading the same JSON tree as the verifier does.",
              "    public init(from decoder: any Decoder) throws {",
              "        try self.init(json: JSONObjectReader(decoder: decoder))",
              "    }", "",
              "    /// Decodes the members of a parsed JSON object (the verifier's path: no second parse, no Codable boxes).",
              "    init(json reader: JSONObjectReader) throws {"]
    for swift_name, _, key, _ in fields:
        lines.append('        %s = try reader.value("%s")' % (swift_name, key or swift_name))
    lines += ["        additionalFields = reader.additionalFields(known: Self.jsonKeys)", "    }", "",
              "    /// Encodes every present field, then ``additionalFields``.",
              "    public func encode(to encoder: any Encoder) throws {",
              "        var container = PayloadEncodingContainer<CodingKeys>(encoder)"]
    for swift_name, _, _, _ in fields:
        lines.append("        try container.encode(%s, .%s)" % (swift_name, swift_name))
    lines += ["        try container.encodeAdditionalFields(additionalFields)", "    }", "",
              "    /// The members `encode(to:)` writes, as a tree (no `Encoder`): ``additionalFields``, then every present field.",
              "    package var jsonObject: [String: JSONValue] {",
              "        var object = additionalFields"]
    for swift_name, _, key, _ in fields:
        line = '        if let %s { object["%s"] = %s.jsonValue }' % (swift_name, key or swift_name, swift_name)
        if len(line) > WIDTH:
            line = '        if let value = %s { object["%s"] = value.jsonValue }' % (swift_name, key or swift_name)
        lines.append(line)
    lines += ["        return object", "    }", "}"]
    write(name, lines)


for e in ENUMS:
    enum_file(*e)
for m in MODELS:
    model_file(*m)
# Keep the generated files in the repository's format (.swift-format).
import subprocess
subprocess.run(["swift", "format", "format", "-i", "-r", OUT], check=False)
print("wrote %d enumerations and %d models" % (len(ENUMS), len(MODELS)))
