#!/usr/bin/env bash
# What one more `jwsverify batch` line costs, and one more verification in the library, counted by callgrind
# (instructions, and with its cache simulator L1 data and L2 misses), without the processes' fixed costs
# (dynamic linking, the self-test, the verifier's set-up, the first line's cold chain, the set's loading): each
# program runs twice, pinned to core 0 (so that batch verifies on its reading thread), over N and then 2N more
# lines or iterations, and the difference of the two totals divided by N is what one more costs. Instruction and
# miss counts do not change with the load of a shared machine, where times do.
#
# Receipts (default): batch over N and 2N lines of the real 2025 SHA-256 sandbox receipt (TestVectors/receipts/04_*),
# against `jwsverify-benchmark --receipts --receipt-scenario receipt-warm --iterations N` (and 2N).
# Tokens (--tokens): the benchmark's warm set (10,000 transactions under one chain, exported as batch-rate.sh
# exports it); batch over W + N and W + 2N of its lines, where the first W = 1,100 lines take the leaf key past
# its fixed-base table's threshold (1,000 valid signatures; the benchmark's counting pass does the same), against
# `jwsverify-benchmark --sets DIR --scenario warm --threads 1 --in-process --repeats 1 --iterations N` (and 2N).
# The same difference per function (inclusive instructions) shows where a batch line's instructions go: the
# library's verification against what batch adds around it (input shapes, the payload JSON, the result line).
#
# Usage: bash Benchmarks/batch-line-cost.sh [--tokens] [--lines N] [--body] [--no-library] [--no-cache] [--l2 KIB] [--top K]
#                                           [--out DIR]
#   --tokens      token lines of the warm set instead of receipts
#   --lines N     N (default 200 receipts, 2,000 tokens)
#   --body        receipts: every line a verifyReceipt body {"receipt-data": …, "password": …, "id": N}
#   --no-library  batch only (the library's runs take as long again)
#   --no-cache    instructions only, without the cache simulator (about twice as fast)
#   --l2 KIB      the simulated last level (the L2 per core), in KiB (default 512; this VM's was 1,024 on 2026-12-02)
#   --top K       functions listed (default 30)
#   --out DIR     where results go (default .build/benchmark-results/batch-line-cost)
# Environment: JWSVERIFY_CLI and JWSVERIFY_BENCHMARK use prebuilt release binaries instead of building.
# Needs: swift, valgrind, taskset, objcopy, python3.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
lines=""
tokens=0
body=0
library=1
cache=1
l2=512
top=30
warmup=1100
out="$root/.build/benchmark-results/batch-line-cost"
while [ $# -gt 0 ]; do
  case "$1" in
    --tokens) tokens=1 ;;
    --lines) shift; lines="${1:?--lines needs a number}" ;;
    --body) body=1 ;;
    --no-library) library=0 ;;
    --no-cache) cache=0 ;;
    --l2) shift; l2="${1:?--l2 needs a size in KiB}"
      case "$l2" in ''|*[!0-9]*|0) echo "batch-line-cost.sh: --l2 needs a positive number of KiB" >&2; exit 64 ;; esac ;;
    --top) shift; top="${1:?--top needs a number}" ;;
    --out) shift; out="${1:?--out needs a directory}" ;;
    -h|--help) sed -n '2,28p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "batch-line-cost.sh: unknown argument '$1' (try --help)" >&2; exit 64 ;;
  esac
  shift
done
[ -n "$lines" ] || lines=$([ "$tokens" = 1 ] && echo 2000 || echo 200)
case "$lines" in ''|*[!0-9]*|0) echo "batch-line-cost.sh: --lines needs a positive number" >&2; exit 64 ;; esac
if [ "$tokens" = 1 ] && [ $((warmup + 2 * lines)) -gt 10000 ]; then
  echo "batch-line-cost.sh: --tokens takes at most --lines $(((10000 - warmup) / 2)) (the warm set's 10,000 lines)" >&2
  exit 64
fi
mkdir -p "$out"
out="$(cd "$out" && pwd)"

cli="${JWSVERIFY_CLI:-}"
bench="${JWSVERIFY_BENCHMARK:-}"
if [ -z "$cli" ] || { [ -z "$bench" ] && { [ "$library" = 1 ] || [ "$tokens" = 1 ]; }; }; then
  swift build -c release --product jwsverify >"$out/build.log" 2>&1 || { echo "build failed (see $out/build.log)"; exit 1; }
  swift build -c release --product jwsverify-benchmark >>"$out/build.log" 2>&1 \
    || { echo "build failed (see $out/build.log)"; exit 1; }
  bin="$(swift build -c release --show-bin-path)"
  cli="${cli:-$bin/jwsverify}"
  bench="${bench:-$bin/jwsverify-benchmark}"
fi
# Valgrind 3.19 cannot read the DWARF 5 debug information of Swift 6 binaries: profile copies without it.
objcopy --strip-debug "$cli" "$out/jwsverify.nodebug"
[ -z "$bench" ] || objcopy --strip-debug "$bench" "$out/jwsverify-benchmark.nodebug"

# The simulated caches are fixed, not the host's (valgrind reads the last level from CPUID, here a 256 MiB one that
# nothing misses): a 32 KiB 8-way L1 for instructions and for data, and as the last level a 512 KiB 8-way cache, the
# L2 per core of the AMD EPYC VM the figures in Docs/Performance.md come from. "LL misses" are then L2 misses.
events=(--cache-sim=no)
[ "$cache" = 1 ] && events=(--cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=$((l2 * 1024)),8,64)
# Swift seeds its hash function per process: dictionary look-ups then meet other collisions in every run, which moves
# a token line's count by a few thousand instructions. A fixed seed makes the counts repeat.
export SWIFT_DETERMINISTIC_HASHING=1
demangle() { if command -v swift >/dev/null 2>&1; then swift demangle --simplified; else cat; fi; }
# Runs one program under callgrind, pinned to core 0: callgrind_run NAME COMMAND...
callgrind_run() {
  local name="$1"
  shift
  taskset -c 0 valgrind --tool=callgrind "${events[@]}" --callgrind-out-file="$out/callgrind.$name.out" "$@" \
    > "$out/stdout.$name.txt" 2> "$out/valgrind.$name.log"
  callgrind_annotate --inclusive=yes --show=Ir "$out/callgrind.$name.out" 2>/dev/null | demangle > "$out/inclusive.$name.txt"
}

if [ "$tokens" = 1 ]; then
  what="warm-set token lines"
  sets="$out/sets"
  [ -f "$sets/warm.ndjson" ] || "$bench" --scenario warm --export-ndjson "$sets" --export-only > "$out/export.log" 2>&1
  config=(--root "$sets/root.der" --bundle-id com.example.jwsverify --app-apple-id 1234 --environment Sandbox)
  small=$((warmup + lines))
  large=$((warmup + 2 * lines))
  head -n "$small" "$sets/warm.ndjson" > "$out/lines-small.ndjson"
  head -n "$large" "$sets/warm.ndjson" > "$out/lines-large.ndjson"
  library_run() {
    callgrind_run "library-$1" "$out/jwsverify-benchmark.nodebug" --sets "$sets" --scenario warm --threads 1 \
      --in-process --repeats 1 --iterations "$2"
  }
else
  what="receipt lines ($([ "$body" = 1 ] && echo "verifyReceipt bodies" || echo "bare base64"))"
  config=(--bundle-id dev.bonzer.weeka.app --environment Sandbox)
  receipt_text="$(tr -d ' \r\n' < "$(ls "$root"/TestVectors/receipts/04_* | head -n 1)")"
  write_lines() {
    python3 - "$receipt_text" "$1" "$body" <<'PYTHON'
import json, sys
text, count, body = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
for i in range(count):
    print(json.dumps({"receipt-data": text, "password": "shared-secret", "id": i}) if body else text)
PYTHON
  }
  write_lines "$lines" > "$out/lines-small.ndjson"
  write_lines "$((2 * lines))" > "$out/lines-large.ndjson"
  library_run() {
    callgrind_run "library-$1" "$out/jwsverify-benchmark.nodebug" --receipts --receipt-scenario receipt-warm \
      --repeats 1 --iterations "$2"
  }
fi

for size in small large; do
  callgrind_run "batch-$size" "$out/jwsverify.nodebug" batch "${config[@]}" "$out/lines-$size.ndjson"
done
verified=$(grep -c '"verified":true' "$out/stdout.batch-large.txt" || true)
echo "batch: $(wc -l < "$out/lines-large.ndjson") $what, $verified verified; per line beyond the first" \
  "$(wc -l < "$out/lines-small.ndjson")"
if [ "$library" = 1 ]; then
  library_run small "$lines"
  library_run large "$((2 * lines))"
fi

python3 - "$out" "$lines" "$top" "$library" <<'PYTHON'
import re, sys
out, lines, top, library = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1"

def totals(name):
    """The program's total of each event (Ir, and with the cache simulator D1mr, D1mw, DLmr, DLmw, ...)."""
    events, values = [], []
    for line in open(f"{out}/callgrind.{name}.out", errors="replace"):
        if line.startswith("events:"):
            events = line.split()[1:]
        elif line.startswith("totals:") or line.startswith("summary:"):
            values = [int(v) for v in line.split()[1:]]
    return dict(zip(events, values))

def per_line(program):
    small, large = totals(f"{program}-small"), totals(f"{program}-large")
    diff = {k: (large.get(k, 0) - small.get(k, 0)) / lines for k in large}
    figures = {"instructions": diff.get("Ir", 0)}
    if "D1mr" in diff:
        figures["D1 misses"] = diff["D1mr"] + diff["D1mw"]
        figures["LL misses"] = diff["DLmr"] + diff["DLmw"] + diff.get("ILmr", 0)
        figures["I1 misses"] = diff["I1mr"]
    return figures

batch = per_line("batch")
rows = [("batch", batch)]
if library:
    rows.append(("library", per_line("library")))
names = list(batch)
print(f"per line ({lines} lines), {'  '.join(n.rjust(12) for n in names)}")
for label, figures in rows:
    print(f"  {label:<8}{'':11}{'  '.join(f'{figures[n]:12,.0f}' for n in names)}")
if library:
    library_figures = rows[1][1]
    print(f"  batch - library    {'  '.join(f'{batch[n] - library_figures[n]:12,.0f}' for n in names)}")
    ratio = library_figures["instructions"] / batch["instructions"] if batch["instructions"] else 0
    print(f"  library / batch instructions: {ratio:.3f}")

def load(path):
    costs = {}
    for line in open(path, errors="replace"):
        match = re.match(r"^\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)$", line)
        if match:
            name = re.sub(r"^\?\?\?:| \[[^\]]*\]$", "", match.group(2))
            costs[name] = costs.get(name, 0) + int(match.group(1).replace(",", ""))
    return costs

small, large = load(f"{out}/inclusive.batch-small.txt"), load(f"{out}/inclusive.batch-large.txt")
rows = sorted(((large.get(k, 0) - small.get(k, 0)) / lines, k) for k in set(small) | set(large))
print(f"batch, instructions per line, inclusive, top {top}:")
for cost, name in [row for row in reversed(rows) if row[1] != "PROGRAM TOTALS"][:top]:
    print(f"  {cost:10,.0f}  {name[:140]}")
PYTHON
echo "listings: $out/inclusive.*.txt (callgrind_annotate of $out/callgrind.*.out)"
