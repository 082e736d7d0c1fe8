#!/usr/bin/env bash
# Instructions per `jwsverify batch` receipt line, counted by callgrind, without the process's fixed costs
# (dynamic linking, the self-test, the verifier's set-up, the first receipt's cold chain): batch runs over N and
# then 2N lines of the real 2025 SHA-256 sandbox receipt (TestVectors/receipts/04_*), pinned to core 0 (so that it
# verifies on its reading thread), and the difference of the two totals divided by N is what one more line costs.
# The same difference per function (inclusive) shows where a line's instructions go: the library's verification
# (`AppReceiptVerifier.verification(of:deviceIdentifier:)`) against what batch adds around it (input shapes, the
# payload JSON, the result line). Instruction counts do not change with the load of a shared machine, where times do.
#
# Usage: bash Benchmarks/batch-line-cost.sh [--lines N] [--body] [--top K] [--out DIR]
#   --lines N   lines of the smaller run (default 200)
#   --body      every line a verifyReceipt body {"receipt-data": …, "password": …, "id": N} instead of bare base64
#   --top K     functions listed (default 30)
#   --out DIR   where results go (default .build/benchmark-results/batch-line-cost)
# Environment: JWSVERIFY_CLI uses a prebuilt release binary instead of building.
# Needs: swift, valgrind, taskset, objcopy, python3.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
lines=200
body=0
top=30
out="$root/.build/benchmark-results/batch-line-cost"
while [ $# -gt 0 ]; do
  case "$1" in
    --lines) shift; lines="${1:?--lines needs a number}" ;;
    --body) body=1 ;;
    --top) shift; top="${1:?--top needs a number}" ;;
    --out) shift; out="${1:?--out needs a directory}" ;;
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "batch-line-cost.sh: unknown argument '$1' (try --help)" >&2; exit 64 ;;
  esac
  shift
done
case "$lines" in ''|*[!0-9]*|0) echo "batch-line-cost.sh: --lines needs a positive number" >&2; exit 64 ;; esac
mkdir -p "$out"
out="$(cd "$out" && pwd)"

cli="${JWSVERIFY_CLI:-}"
if [ -z "$cli" ]; then
  swift build -c release --product jwsverify >"$out/build.log" 2>&1 || { echo "build failed (see $out/build.log)"; exit 1; }
  cli="$(swift build -c release --show-bin-path)/jwsverify"
fi
# Valgrind 3.19 cannot read the DWARF 5 debug information of Swift 6 binaries: profile a copy without it.
objcopy --strip-debug "$cli" "$out/jwsverify.nodebug"

receipt_text="$(tr -d ' \r\n' < "$(ls "$root"/TestVectors/receipts/04_* | head -n 1)")"
write_lines() {
  python3 - "$receipt_text" "$1" "$body" <<'PYTHON'
import json, sys
text, count, body = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
for i in range(count):
    print(json.dumps({"receipt-data": text, "password": "shared-secret", "id": i}) if body else text)
PYTHON
}
demangle() { if command -v swift >/dev/null 2>&1; then swift demangle --simplified; else cat; fi; }
for count in "$lines" "$((2 * lines))"; do
  write_lines "$count" > "$out/lines-$count.ndjson"
  taskset -c 0 valgrind --tool=callgrind --callgrind-out-file="$out/callgrind.$count.out" "$out/jwsverify.nodebug" \
    batch --bundle-id dev.bonzer.weeka.app --environment Sandbox "$out/lines-$count.ndjson" \
    > "$out/results-$count.ndjson" 2> "$out/valgrind-$count.log"
  callgrind_annotate --inclusive=yes "$out/callgrind.$count.out" 2>/dev/null | demangle > "$out/inclusive.$count.txt"
done
verified=$(grep -c '"verified":true' "$out/results-$((2 * lines)).ndjson" || true)
echo "$((2 * lines)) lines ($([ "$body" = 1 ] && echo "verifyReceipt bodies" || echo "bare base64")), $verified verified"
python3 - "$out/inclusive.$lines.txt" "$out/inclusive.$((2 * lines)).txt" "$lines" "$top" <<'PYTHON'
import re, sys
def load(path):
    costs = {}
    for line in open(path, errors="replace"):
        match = re.match(r"^\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)$", line)
        if match:
            name = re.sub(r"^\?\?\?:| \[[^\]]*\]$", "", match.group(2))
            costs[name] = costs.get(name, 0) + int(match.group(1).replace(",", ""))
    return costs
small, large, lines, top = load(sys.argv[1]), load(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
total = (large.get("PROGRAM TOTALS", 0) - small.get("PROGRAM TOTALS", 0)) / lines
print(f"instructions per line: {total:,.0f}")
rows = sorted(((large.get(k, 0) - small.get(k, 0)) / lines, k) for k in set(small) | set(large))
print(f"per line, inclusive, top {top}:")
for cost, name in [row for row in reversed(rows) if row[1] != "PROGRAM TOTALS"][:top]:
    print(f"  {cost:10,.0f}  {name[:140]}")
PYTHON
echo "listings: $out/inclusive.$lines.txt, $out/inclusive.$((2 * lines)).txt"
