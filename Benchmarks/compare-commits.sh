#!/usr/bin/env bash
# Before/after comparison of two commits of JWSVerify on the same machine, in one run: builds
# jwsverify-benchmark (release) at each commit in a temporary worktree, then runs ROUNDS rounds of
# the chosen scenarios on one thread, alternating which commit goes first, and prints each round's
# tokens/s and the median ratio AFTER/BEFORE per scenario with its spread (this VM drifts by ±15 %
# within minutes: only ratios measured seconds apart mean anything).
#
# Usage: bash Benchmarks/compare-commits.sh BEFORE AFTER [--rounds N] [--scenarios LIST] [--seconds S]
#   BEFORE, AFTER   commits (anything `git rev-parse` takes)
#   --rounds N      rounds (default 5)
#   --scenarios L   scenarios (default warm,new-leaf,reject)
#   --seconds S     least duration of one repeat (default 2; 3 repeats per scenario and round)
# Environment: BEFORE_BENCHMARK / AFTER_BENCHMARK use prebuilt binaries instead of building.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
before="${1:?usage: compare-commits.sh BEFORE AFTER}"; shift
after="${1:?usage: compare-commits.sh BEFORE AFTER}"; shift
rounds=5; scenarios=warm,new-leaf,reject; seconds=2
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) shift; rounds="$1" ;;
    --scenarios) shift; scenarios="$1" ;;
    --seconds) shift; seconds="$1" ;;
    *) echo "compare-commits.sh: unknown argument '$1'" >&2; exit 64 ;;
  esac
  shift
done
work="$(mktemp -d)"
trap 'for w in "$work"/tree-*; do [ -d "$w" ] && git -C "$root" worktree remove --force "$w" >/dev/null 2>&1; done; rm -rf "$work"' EXIT

build() {  # commit name -> path of the binary
  local tree="$work/tree-$2"
  git -C "$root" worktree add -q --detach "$tree" "$1"
  (cd "$tree" && swift build -c release --product jwsverify-benchmark >"$work/build-$2.log" 2>&1) ||
    { cat "$work/build-$2.log" >&2; exit 1; }
  echo "$tree/.build/release/jwsverify-benchmark"
}
before_bin="${BEFORE_BENCHMARK:-$(build "$before" before)}"
after_bin="${AFTER_BENCHMARK:-$(build "$after" after)}"

echo "before $(git -C "$root" rev-parse --short "$before")  after $(git -C "$root" rev-parse --short "$after")"
echo "$(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
results="$work/results.txt"
: >"$results"
for round in $(seq 1 "$rounds"); do
  if [ $((round % 2)) = 1 ]; then order="before after"; else order="after before"; fi
  for side in $order; do
    bin="$before_bin"; [ "$side" = after ] && bin="$after_bin"
    "$bin" --scenario "$scenarios" --threads 1 --repeats 3 --seconds "$seconds" --json "$work/$side.json" >/dev/null
    python3 - "$work/$side.json" "$round" "$side" >>"$results" <<'PY'
import json, sys
data = json.load(open(sys.argv[1]))
for result in data["results"]:
    for m in result["measurements"]:
        print(sys.argv[2], sys.argv[3], result["scenario"], round(m["tokensPerSecond"]))
PY
  done
done
python3 - "$results" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
figures = {}
for round_, side, scenario, rate in rows:
    figures.setdefault(scenario, {}).setdefault(round_, {})[side] = int(rate)
print(f"{'scenario':<10} {'round':>5} {'before/s':>10} {'after/s':>10} {'after/before':>12}")
for scenario, by_round in figures.items():
    ratios = []
    for round_, pair in sorted(by_round.items(), key=lambda item: int(item[0])):
        ratio = pair["after"] / pair["before"]
        ratios.append(ratio)
        print(f"{scenario:<10} {round_:>5} {pair['before']:>10} {pair['after']:>10} {ratio:>12.3f}")
    print(f"{scenario:<10} median after/before {statistics.median(ratios):.3f} (spread {min(ratios):.3f}–{max(ratios):.3f})")
PY
