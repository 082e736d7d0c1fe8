#!/usr/bin/env bash
# Builds the DocC documentation of the JWSVerify, JWSSigning, AppStoreServerAPI, PurchaseLedger,
# PurchaseLedgerPostgreSQL and PurchaseLedgerReconciliation libraries with the Swift toolchain alone (no swift-docc-plugin, which is a package dependency; no xcrun, which Linux does not have):
#
#   1. symbol graphs: `swift build --target JWSVerify` and `--target JWSSigning` with
#      `-emit-symbol-graph`, in their own scratch folder (.build/docc-scratch), so that the normal build's
#      flags, and so its warm objects, stay as they are. Public symbols only, as a user of the library sees
#      them. Each module is documented from its own graphs (MODULE.symbols.json and MODULE@*.symbols.json).
#   2. `docc convert` of Sources/MODULE/Documentation.docc with that module's symbol graphs. `docc` is the
#      one on PATH, else the one next to `swift` (the toolchain's usr/bin).
#   3. checks, each of which fails the script:
#      - every error and every warning DocC reports (unresolved ``links``, bad directives, ...),
#        except the ones listed in Scripts/docc-known-warnings.txt (each there for a reason stated in
#        that file); a listed warning that no longer occurs fails too, so the list only shrinks;
#      - an automatically generated topic group ("Structures", "Enumerations", "Type Aliases", ...)
#        on a module's rendered top page: a public type that no Topics section of its catalog curates.
#
# Usage: Scripts/docc.sh [OUTPUT-DIR]      (default: .build/docc)
#   OUTPUT-DIR receives JWSVerify's documentation archive's contents (static-hosting layout: index.html,
#   data/, documentation/, ...), and OUTPUT-DIR-JWSSigning JWSSigning's. An existing output folder is
#   replaced only when it is empty or holds a previous DocC output (a metadata.json); anything else is
#   refused.
#   Look at it with `python3 -m http.server -d .build/docc 8000` and open
#   http://localhost:8000/documentation/jwsverify/ (JWSSigning: `-d .build/docc-JWSSigning`,
#   http://localhost:8000/documentation/jwssigning/).
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
known_warnings=Scripts/docc-known-warnings.txt
modules=(JWSVerify JWSSigning AppStoreServerAPI PurchaseLedger PurchaseLedgerPostgreSQL PurchaseLedgerReconciliation)
start=$(date +%s)

# Where a module's archive goes: OUTPUT-DIR for JWSVerify, OUTPUT-DIR-MODULE for the others.
module_output() {
  if [ "$1" = JWSVerify ]; then echo "$output"; else echo "$output-$1"; fi
}

for module in "${modules[@]}"; do
  destination=$(module_output "$module")
  if [ -e "$destination" ] && [ -n "$(ls -A "$destination" 2>/dev/null)" ] \
    && [ ! -f "$destination/metadata.json" ]; then
    echo "error: '$destination' exists and is not a DocC output (no metadata.json); not replacing it" >&2
    exit 64
  fi
done

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

# 1. Symbol graphs. The emit-module job writes a module's graph whenever it compiles; when nothing changed
# since the last run the job is skipped and the graph already there is current. A missing graph (its
# folder deleted by hand) forces the module to compile again.
build_symbol_graph() {
  swift build --scratch-path "$scratch" --target "$1" \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$symbol_graphs"
}
mkdir -p "$symbol_graphs"
for module in "${modules[@]}"; do
  echo "== symbol graph (swift build --target $module, scratch $scratch)"
  build_symbol_graph "$module"
  if [ ! -s "$symbol_graphs/$module.symbols.json" ]; then
    rm -rf "$scratch"/*/"$module.build"
    build_symbol_graph "$module"
  fi
  if [ ! -s "$symbol_graphs/$module.symbols.json" ]; then
    echo "error: the build wrote no $symbol_graphs/$module.symbols.json" >&2
    exit 1
  fi
done

# 2. docc convert of each catalog with its module's graphs only, into a fresh folder that replaces the
# output only when every check passed.
check_arguments=()
for module in "${modules[@]}"; do
  graphs="$scratch/symbol-graphs-$module"
  rm -rf "$graphs"
  mkdir -p "$graphs"
  cp "$symbol_graphs/$module.symbols.json" "$graphs/"
  for extension_graph in "$symbol_graphs/$module@"*.symbols.json; do
    if [ -e "$extension_graph" ]; then cp "$extension_graph" "$graphs/"; fi
  done
  staging="$scratch/docc-output-$module"
  diagnostics="$scratch/docc-diagnostics-$module.json"
  rm -rf "$staging" "$diagnostics"
  echo "== docc convert Sources/$module/Documentation.docc ($docc)"
  docc_status=0
  "$docc" convert "Sources/$module/Documentation.docc" \
    --additional-symbol-graph-dir "$graphs" \
    --output-path "$staging" \
    --fallback-display-name "$module" \
    --fallback-bundle-identifier "$module" \
    --fallback-default-module-kind Framework \
    --diagnostics-file "$diagnostics" || docc_status=$?
  check_arguments+=("$module" "$diagnostics" "$staging" "$docc_status")
done

# 3. The checks, over every module at once (a known warning must occur in one of them).
status=0
python3 - "$known_warnings" "$PWD" "${check_arguments[@]}" <<'PYTHON' || status=1
import json
import os
import sys

known_path, root = sys.argv[1:3]
runs = [sys.argv[i:i + 4] for i in range(3, len(sys.argv), 4)]
failed = False

# Known warnings: "<path relative to the repository>: <DocC's summary>", one a line; '#' comments.
known = set()
if os.path.exists(known_path):
    for line in open(known_path, encoding="utf-8"):
        line = line.strip()
        if line and not line.startswith("#"):
            known.add(line)

seen = set()
for module, diagnostics_path, staging, docc_status in runs:
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
                print(f"docc: known warning (Scripts/docc-known-warnings.txt), {relative}:{line}: "
                      f"{diagnostic['summary']}")
                continue
            failed = True
            print(f"docc: {module}: {severity}: {relative}:{line}: {diagnostic.get('summary', '')}",
                  file=sys.stderr)
    elif docc_status == "0":
        print(f"docc: {module}: no diagnostics file was written", file=sys.stderr)
        failed = True

    if docc_status != "0":
        failed = True
        print(f"docc: {module}: docc convert exited with status {docc_status}", file=sys.stderr)

    top = os.path.join(staging, "data", "documentation", f"{module.lower()}.json")
    if os.path.exists(top):
        page = json.load(open(top, encoding="utf-8"))
        for section in page.get("topicSections", []):
            if section.get("generated"):
                failed = True
                names = ", ".join(identifier.rsplit("/", 1)[-1] for identifier in section.get("identifiers", []))
                print(f"docc: uncurated {section.get('title')} on {module}'s top page (add them to a Topics group "
                      f"of Sources/{module}/Documentation.docc): {names}", file=sys.stderr)
    else:
        failed = True
        print(f"docc: {module}: no top page at {top}", file=sys.stderr)

for key in sorted(known - seen):
    failed = True
    print(f"docc: listed in Scripts/docc-known-warnings.txt but no longer reported, delete the line: {key}",
          file=sys.stderr)

sys.exit(1 if failed else 0)
PYTHON

if [ "$status" -ne 0 ]; then
  echo "Scripts/docc.sh: FAILED (the output is left in $scratch/docc-output-MODULE)" >&2
  exit 1
fi
for module in "${modules[@]}"; do
  destination=$(module_output "$module")
  rm -rf "$destination"
  mkdir -p "$(dirname "$destination")"
  mv "$scratch/docc-output-$module" "$destination"
  echo "Scripts/docc.sh: $module's documentation in $destination; open" \
    "$destination/documentation/$(echo "$module" | tr '[:upper:]' '[:lower:]')/index.html through a web server"
done
echo "Scripts/docc.sh: done in $(($(date +%s) - start)) s"
