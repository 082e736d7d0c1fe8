#!/usr/bin/env bash
# Builds the DocC documentation of the JWSVerify library with the Swift toolchain alone (no
# swift-docc-plugin, which is a package dependency; no xcrun, which Linux does not have):
#
#   1. symbol graph: `swift build --target JWSVerify` with `-emit-symbol-graph`, in its own scratch
#      folder (.build/docc-scratch), so that the normal build's flags, and so its warm objects, stay
#      as they are. Public symbols only, as a user of the library sees them.
#   2. `docc convert` of Sources/JWSVerify/Documentation.docc with that symbol graph. `docc` is the
#      one on PATH, else the one next to `swift` (the toolchain's usr/bin).
#   3. checks, each of which fails the script:
#      - every error and every warning DocC reports (unresolved ``links``, bad directives, ...),
#        except the ones listed in Scripts/docc-known-warnings.txt (each there for a reason stated in
#        that file); a listed warning that no longer occurs fails too, so the list only shrinks;
#      - an automatically generated topic group ("Structures", "Enumerations", "Type Aliases", ...)
#        on the rendered top page: a public type that no Topics section of the catalog curates.
#
# Usage: Scripts/docc.sh [OUTPUT-DIR]      (default: .build/docc)
#   OUTPUT-DIR receives the documentation archive's contents (static-hosting layout: index.html,
#   data/, documentation/, ...). An existing OUTPUT-DIR is replaced only when it is empty or holds a
#   previous DocC output (a metadata.json); anything else is refused.
#   Look at it with `python3 -m http.server -d .build/docc 8000` and open
#   http://localhost:8000/documentation/jwsverify/.
# Exit status: 0 clean, 1 a DocC error or warning, an uncurated type or a failed build, 64 usage.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -gt 1 ] || [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then
  sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
  [ $# -gt 1 ] && exit 64
  exit 0
fi

output="${1:-.build/docc}"
scratch=.build/docc-scratch
symbol_graphs="$scratch/symbol-graphs"
catalog=Sources/JWSVerify/Documentation.docc
known_warnings=Scripts/docc-known-warnings.txt
start=$(date +%s)

if [ -e "$output" ] && [ -n "$(ls -A "$output" 2>/dev/null)" ] && [ ! -f "$output/metadata.json" ]; then
  echo "error: '$output' exists and is not a DocC output (no metadata.json); not replacing it" >&2
  exit 64
fi

# The toolchain's docc: on PATH, else beside the real `swift` binary.
docc=$(command -v docc || true)
if [ -z "$docc" ]; then
  swift_binary=$(readlink -f "$(command -v swift)")
  docc="$(dirname "$swift_binary")/docc"
fi
if [ ! -x "$docc" ]; then
  echo "error: no docc: not on PATH and not next to $(command -v swift) in the toolchain" >&2
  exit 1
fi

# 1. Symbol graph. The emit-module job writes it whenever JWSVerify compiles; when nothing changed
# since the last run the job is skipped and the graph already there is current. A missing graph (its
# folder deleted by hand) forces the module to compile again.
build_symbol_graph() {
  swift build --scratch-path "$scratch" --target JWSVerify \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$symbol_graphs"
}
mkdir -p "$symbol_graphs"
echo "== symbol graph (swift build --target JWSVerify, scratch $scratch)"
build_symbol_graph
if [ ! -s "$symbol_graphs/JWSVerify.symbols.json" ]; then
  rm -rf "$scratch"/*/JWSVerify.build
  build_symbol_graph
fi
if [ ! -s "$symbol_graphs/JWSVerify.symbols.json" ]; then
  echo "error: the build wrote no $symbol_graphs/JWSVerify.symbols.json" >&2
  exit 1
fi

# 2. docc convert, into a fresh folder that replaces the output only when every check passed.
staging="$scratch/docc-output"
diagnostics="$scratch/docc-diagnostics.json"
rm -rf "$staging" "$diagnostics"
echo "== docc convert ($docc)"
docc_status=0
"$docc" convert "$catalog" \
  --additional-symbol-graph-dir "$symbol_graphs" \
  --output-path "$staging" \
  --fallback-display-name JWSVerify \
  --fallback-bundle-identifier JWSVerify \
  --fallback-default-module-kind Framework \
  --diagnostics-file "$diagnostics" || docc_status=$?

# 3. The checks.
status=0
python3 - "$diagnostics" "$known_warnings" "$PWD" "$staging" "$docc_status" <<'PYTHON' || status=1
import json
import os
import sys

diagnostics_path, known_path, root, staging, docc_status = sys.argv[1:]
failed = False

# Known warnings: "<path relative to the repository>: <DocC's summary>", one a line; '#' comments.
known = set()
if os.path.exists(known_path):
    for line in open(known_path, encoding="utf-8"):
        line = line.strip()
        if line and not line.startswith("#"):
            known.add(line)

seen = set()
if os.path.exists(diagnostics_path):
    for diagnostic in json.load(open(diagnostics_path, encoding="utf-8")).get("diagnostics", []):
        severity = diagnostic.get("severity", "")
        if severity not in ("error", "warning"):
            continue
        source = diagnostic.get("source") or ""
        if source.startswith("file://"):
            source = source[len("file://"):]
        relative = os.path.relpath(source, root) if source else "(no file)"
        key = f"{relative}: {diagnostic.get('summary', '')}"
        line = diagnostic.get("range", {}).get("start", {}).get("line", "?")
        if severity == "warning" and key in known:
            seen.add(key)
            print(f"docc: known warning (Scripts/docc-known-warnings.txt), {relative}:{line}: {diagnostic['summary']}")
            continue
        failed = True
        print(f"docc: {severity}: {relative}:{line}: {diagnostic.get('summary', '')}", file=sys.stderr)
elif docc_status == "0":
    print("docc: no diagnostics file was written", file=sys.stderr)
    failed = True

for key in sorted(known - seen):
    failed = True
    print(f"docc: listed in Scripts/docc-known-warnings.txt but no longer reported, delete the line: {key}",
          file=sys.stderr)

if docc_status != "0":
    failed = True
    print(f"docc: docc convert exited with status {docc_status}", file=sys.stderr)

top = os.path.join(staging, "data", "documentation", "jwsverify.json")
if os.path.exists(top):
    page = json.load(open(top, encoding="utf-8"))
    for section in page.get("topicSections", []):
        if section.get("generated"):
            failed = True
            names = ", ".join(identifier.rsplit("/", 1)[-1] for identifier in section.get("identifiers", []))
            print(f"docc: uncurated {section.get('title')} on the top page (add them to a Topics group of "
                  f"Sources/JWSVerify/Documentation.docc): {names}", file=sys.stderr)
else:
    failed = True
    print(f"docc: no top page at {top}", file=sys.stderr)

sys.exit(1 if failed else 0)
PYTHON

if [ "$status" -ne 0 ]; then
  echo "Scripts/docc.sh: FAILED (the output is left in $staging)" >&2
  exit 1
fi
rm -rf "$output"
mkdir -p "$(dirname "$output")"
mv "$staging" "$output"
echo "Scripts/docc.sh: documentation in $output ($(($(date +%s) - start)) s); open $output/documentation/jwsverify/index.html through a web server"
