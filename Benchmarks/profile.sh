#!/usr/bin/env bash
# Callgrind profile of one scenario's single-threaded verification path (default: warm, 400 tokens).
# Collects only ScenarioRunner.measuredLoop (not the minting), then writes exclusive and inclusive
# listings with Swift names demangled.
#
# Usage: bash Benchmarks/profile.sh [--scenario NAME] [--tokens N] [--out DIR]
# Environment: JWSVERIFY_BENCHMARK uses a prebuilt benchmark instead of building it.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
scenario=warm
tokens=400
out="$root/.build/benchmark-results/profile"
while [ $# -gt 0 ]; do
  case "$1" in
    --scenario) shift; scenario="${1:?}" ;;
    --tokens) shift; tokens="${1:?}" ;;
    --out) shift; out="${1:?}" ;;
    -h|--help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "profile.sh: unknown argument '$1'" >&2; exit 64 ;;
  esac
  shift
done
mkdir -p "$out"

bench="${JWSVERIFY_BENCHMARK:-}"
if [ -z "$bench" ]; then
  swift build -c release --product jwsverify-benchmark
  bench="$(swift build -c release --show-bin-path)/jwsverify-benchmark"
fi
if ! command -v valgrind >/dev/null 2>&1; then
  apt-get install -y -qq valgrind || { apt-get update -qq && apt-get install -y -qq valgrind; }
fi

# Valgrind 3.19 cannot read the DWARF 5 debug information of Swift 6 binaries ("Possibly corrupted
# debuginfo file"): profile a copy without it; the symbol table keeps every function name.
objcopy --strip-debug "$bench" "$out/jwsverify-benchmark.nodebug"
valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*measuredLoop*' \
  --callgrind-out-file="$out/callgrind.$scenario.out" \
  "$out/jwsverify-benchmark.nodebug" --in-process --scenario "$scenario" --threads 1 --repeats 1 \
  --iterations "$tokens" --tokens "$tokens" --leaves "$tokens" > "$out/benchmark.$scenario.txt" 2> "$out/valgrind.$scenario.log"

demangle() { if command -v swift >/dev/null 2>&1; then swift demangle --simplified; else cat; fi; }
callgrind_annotate --inclusive=no "$out/callgrind.$scenario.out" 2>/dev/null | demangle > "$out/exclusive.$scenario.txt"
callgrind_annotate --inclusive=yes "$out/callgrind.$scenario.out" 2>/dev/null | demangle > "$out/inclusive.$scenario.txt"
total=$(awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1; exit }' "$out/exclusive.$scenario.txt")
echo "$scenario: $total instructions for $tokens tokens, $((total / tokens)) per token"
echo "inclusive (top 40):"
grep -E '^ *[0-9,]+ +\(' "$out/inclusive.$scenario.txt" | sed -n '2,41p' | cut -c1-180
echo "listings: $out/exclusive.$scenario.txt, $out/inclusive.$scenario.txt"
