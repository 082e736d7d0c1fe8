#!/usr/bin/env python3
"""Writes the Swift package of Scripts/doc-snippets.sh: every ```swift block of the documentation, compiled.

Usage: extract.py REPO PACKAGE STANDINS

Reads, in this order: README.md, Docs/*.md, Sources/*/Documentation.docc/*.md, and the `///` comments of
Sources/**/*.swift (each run of `///` lines read as Markdown). A new page is picked up by being there.

Each ```swift block becomes a module of PACKAGE (an executable target whose one file is main.swift, so that
top-level statements compile; it is built, never run), unless markers say otherwise. A marker is an HTML comment (invisible in
rendered Markdown) between the previous code block and the block it applies to, starting `snippet:`:

    <!-- snippet: group NAME [NAME...] -->
        The block joins the module of each named group instead of having its own. A group's blocks are
        concatenated in reading order (across pages too) into its main.swift: use it for a block that
        continues another (a `verifier` made in one block and used in the next) or that uses a type
        another block declares (the `NotificationStore` of Receiving-notifications.md).
    <!-- snippet: before
    SWIFT
    -->
    <!-- snippet: after
    SWIFT
    -->
        Hidden code compiled just before or after the block, in its module: the enclosing function a
        fragment returns from, a stand-in for a type that is the reader's own.
    <!-- snippet: skip REASON -->
        Not compiled; the script lists it with REASON. For an excerpt that cannot compile (a manifest
        fragment with `…`); the page must say so too.

Every module imports SnippetSupport (Scripts/doc-snippets/SnippetSupport.swift: the reader's own values and
functions, `grant`, `receiptBase64`, ...). A module none of whose blocks has an `import` line is a fragment
and also imports Foundation, JWSVerify, JWSSigning and JWSVerifyTesting. A block that imports a module with a
stand-in in STANDINS (Vapor, Hummingbird, AppStoreServerLibrary) gets that stand-in as a dependency.
`#sourceLocation` directives make the compiler's messages name the page and line of the block.

A block whose first line is `// swift-tools-version` is a manifest: it is written to its own folder
Manifest-<page>-<n>/Package.swift, listed in PACKAGE/manifests.txt, for `swift package dump-package`.

Exit status 0, or 1 with a message naming the page and line of a malformed marker or fence.
"""

import os
import re
import sys
from pathlib import Path

FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([^\s`]*)")
IMPORT = re.compile(r"^\s*(?:@\w+\s+)*import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?(\w+)")
IMPLICIT_IMPORTS = ["Foundation", "JWSVerify", "JWSSigning", "JWSVerifyTesting"]
PRODUCTS = [
    "JWSVerify", "JWSSigning", "JWSVerifyTesting", "AppStoreServerAPI", "PurchaseLedger", "PurchaseLedgerPostgreSQL",
    "PurchaseLedgerReconciliation",
]


class Block:
    def __init__(self, source, line, code, markers, index):
        self.source = source  # repository-relative path
        self.line = line  # line of the first code line in `source`
        self.code = code  # list of lines
        self.markers = markers  # list of (keyword, argument text, code lines, line)
        self.index = index  # 1-based among the swift blocks of `source`

    def marker(self, keyword):
        return [m for m in self.markers if m[0] == keyword]

    @property
    def where(self):
        return f"{self.source}:{self.line - 1}"


def fail(message):
    sys.exit(f"Scripts/doc-snippets.sh: {message}")


def parse_markdown(source, numbered_lines, first_index):
    """Swift blocks of one Markdown text, given as (line number, text) pairs."""
    blocks = []
    markers = []
    i = 0
    index = first_index
    while i < len(numbered_lines):
        number, text = numbered_lines[i]
        stripped = text.strip()
        if stripped.startswith("<!--"):
            start = i
            body = [stripped[4:]]
            while "-->" not in body[-1]:
                i += 1
                if i == len(numbered_lines):
                    fail(f"{source}:{number}: an HTML comment that does not end")
                body.append(numbered_lines[i][1])
            body[-1] = body[-1][: body[-1].index("-->")]
            head = body[0].strip()
            if head.startswith("snippet:"):
                words = head[len("snippet:"):].split(None, 1)
                if not words or words[0] not in ("group", "skip", "before", "after"):
                    fail(f"{source}:{number}: unknown snippet marker '{head}' (group, skip, before, after)")
                keyword, argument = words[0], (words[1] if len(words) > 1 else "")
                if keyword in ("group", "skip") and not argument.strip():
                    fail(f"{source}:{number}: 'snippet: {keyword}' needs {'a group name' if keyword == 'group' else 'a reason'}")
                markers.append((keyword, argument.strip(), body[1:], numbered_lines[start][0] + 1))
            i += 1
            continue
        fence = FENCE.match(text)
        if fence:
            indent, ticks, language = fence.group(1), fence.group(2), fence.group(3)
            code = []
            i += 1
            while i < len(numbered_lines) and not re.match(r"^\s*" + re.escape(ticks) + r"\s*$", numbered_lines[i][1]):
                line = numbered_lines[i][1]
                code.append(line[len(indent):] if line.startswith(indent) else line.lstrip())
                i += 1
            if i == len(numbered_lines):
                fail(f"{source}:{number}: a code block that does not end")
            if language == "swift":
                blocks.append(Block(source, number + 1, code, markers, index))
                index += 1
            elif markers:
                fail(f"{source}:{number}: snippet markers before a block that is not ```swift")
            markers = []
        i += 1
    if markers:
        fail(f"{source}: snippet markers after the last code block")
    return blocks


def doc_comment_runs(path):
    """Each run of `///` lines of a Swift file, as (line number, text without `///`) pairs."""
    runs, run = [], []
    for number, text in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1):
        match = re.match(r"^\s*/// ?(.*)$", text)
        if match:
            run.append((number, match.group(1)))
        elif run:
            runs.append(run)
            run = []
    if run:
        runs.append(run)
    return runs


def collect(repo):
    pages = [repo / "README.md"] + sorted((repo / "Docs").glob("*.md"))
    pages += sorted(repo.glob("Sources/*/Documentation.docc/**/*.md"))
    blocks = []
    for page in pages:
        lines = page.read_text(encoding="utf-8").split("\n")
        blocks += parse_markdown(str(page.relative_to(repo)), list(enumerate(lines, start=1)), 1)
    for path in sorted(repo.glob("Sources/**/*.swift")):
        index = 1
        for run in doc_comment_runs(path):
            found = parse_markdown(str(path.relative_to(repo)), run, index)
            index += len(found)
            blocks += found
    return blocks


def identifier(text):
    return re.sub(r"[^A-Za-z0-9_]", "_", text)


def module_name(block):
    """`README_2`, `Receiving_notifications_1`, `DocC_VerifyingOnAServer_1`, `AppReceiptVerifier_1`."""
    path = Path(block.source)
    prefix = "DocC_" if path.parent.suffix == ".docc" else ""
    return f"{prefix}{identifier(path.stem)}_{block.index}"


def module_source(blocks, names):
    has_imports = any(IMPORT.match(line) for block in blocks for line in block.code)
    out = [
        "// Generated by Scripts/doc-snippets.sh from "
        + ", ".join(sorted({b.where for b in blocks}))
        + ": do not edit, edit the documentation.",
        "import SnippetSupport",
    ]
    if not has_imports:
        out += [f"import {name}" for name in IMPLICIT_IMPORTS]
    for block in blocks:
        for _, _, code, line in block.marker("before"):
            out += [f'#sourceLocation(file: "{block.source}", line: {line})'] + code + ["#sourceLocation()"]
        out += [f'#sourceLocation(file: "{block.source}", line: {block.line})'] + block.code + ["#sourceLocation()"]
        for _, _, code, line in block.marker("after"):
            out += [f'#sourceLocation(file: "{block.source}", line: {line})'] + code + ["#sourceLocation()"]
    return "\n".join(out) + "\n"


def main():
    repo, package, standins = (Path(argument).resolve() for argument in sys.argv[1:4])
    available_standins = {path.stem for path in standins.glob("*.swift")}
    blocks = collect(repo)

    modules = {}  # name -> blocks, in reading order
    manifests, skipped = [], []
    for block in blocks:
        if block.marker("skip"):
            skipped.append(f"{block.where}: {block.marker('skip')[0][1]}")
            continue
        first = next((line for line in block.code if line.strip()), "")
        if first.startswith("// swift-tools-version"):
            folder = package.parent / f"Manifest-{identifier(Path(block.source).stem)}-{block.index}"
            folder.mkdir(parents=True)
            (folder / "Package.swift").write_text("\n".join(block.code) + "\n", encoding="utf-8")
            manifests.append(f"{folder}\t{block.where}")
            continue
        groups = [name for marker in block.marker("group") for name in marker[1].split()]
        names = [f"Group_{identifier(name)}" for name in groups] or [module_name(block)]
        for name in names:
            modules.setdefault(name, []).append(block)

    used_standins = set()
    targets = []
    for name, members in modules.items():
        imported = {m.group(1) for b in members for line in b.code if (m := IMPORT.match(line))}
        for b in members:
            for _, _, code, _ in b.marker("before") + b.marker("after"):
                imported |= {m.group(1) for line in code if (m := IMPORT.match(line))}
        standins_here = sorted(imported & available_standins)
        used_standins |= set(standins_here)
        folder = package / "Sources" / name
        folder.mkdir(parents=True)
        (folder / "main.swift").write_text(module_source(members, name), encoding="utf-8")
        dependencies = [f'.product(name: "{p}", package: "JWSVerify")' for p in PRODUCTS]
        dependencies += ['"SnippetSupport"'] + [f'"{s}"' for s in standins_here]
        targets.append(f'        .executableTarget(name: "{name}", dependencies: [{", ".join(dependencies)}]),')

    support = package / "Sources" / "SnippetSupport"
    support.mkdir(parents=True)
    (support / "SnippetSupport.swift").write_bytes((standins.parent / "SnippetSupport.swift").read_bytes())
    targets.append(
        '        .target(name: "SnippetSupport", dependencies: [.product(name: "JWSVerify", package: "JWSVerify")]),'
    )
    for standin in sorted(used_standins):
        folder = package / "Sources" / standin
        folder.mkdir(parents=True)
        (folder / f"{standin}.swift").write_bytes((standins / f"{standin}.swift").read_bytes())
        targets.append(f'        .target(name: "{standin}"),')

    with open(package / "Package.swift", "a", encoding="utf-8") as manifest:
        manifest.write("    targets: [\n" + "\n".join(targets) + "\n    ],\n    swiftLanguageModes: [.v6]\n)\n")
    (package / "manifests.txt").write_text("".join(line + "\n" for line in manifests), encoding="utf-8")

    compiled = sum(1 for b in blocks if not b.marker("skip"))
    print(f"{len(blocks)} swift blocks: {compiled - len(manifests)} in {len(modules)} modules, "
          f"{len(manifests)} manifests, {len(skipped)} not compiled")
    for line in skipped:
        print(f"  not compiled: {line}")


if __name__ == "__main__":
    main()
