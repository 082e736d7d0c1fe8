#!/usr/bin/env bash
# App receipts (issue "StoreKit 1 app receipts") against OpenSSL's RSA-2048 verify rate, in one run:
# `jwsverify-benchmark --receipts` pinned to core 0 (`taskset -c 0`) ROUNDS times; each round runs
# `openssl speed -seconds S rsa2048` before and after its scenarios (receipt-warm, receipt-cold,
# receipt-decode-187, receipt-verify-187, and the payload JSON's writing: receipt-json, receipt-json-187) and
# prints the ratios and targets:
#   receipt-warm per CPU-second >= 0.5 x openssl rsa2048 verify/s (openssl speed divides by CPU time too);
#   receipt-decode-187 >= 2,000/s.
#
# Usage: bash Benchmarks/receipt-rate.sh [--rounds N] [--seconds S] [--out DIR]
#   --rounds N    rounds (default 3)
#   --seconds S   least duration of one repeat, and openssl speed's -seconds (default 2)
#   --out DIR     where the log goes (default .build/benchmark-results/receipts)
# Environment: JWSVERIFY_BENCHMARK uses a prebuilt release binary instead of building.
# Needs: swift, openssl, taskset.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
rounds=3
seconds=2
out="$root/.build/benchmark-results/receipts"
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) shift; rounds="${1:?--rounds needs a number}" ;;
    --seconds) shift; seconds="${1:?--seconds needs a number}" ;;
    --out) shift; out="${1:?--out needs a directory}" ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "receipt-rate.sh: unknown argument '$1' (try --help)" >&2; exit 64 ;;
  esac
  shift
done
case "$rounds" in ''|*[!0-9]*|0) echo "receipt-rate.sh: --rounds needs a positive number" >&2; exit 64 ;; esac
mkdir -p "$out"
log="$out/receipt-rate.log"
: > "$log"
bench="${JWSVERIFY_BENCHMARK:-}"
if [ -z "$bench" ]; then
  swift build -c release --product jwsverify-benchmark >>"$log" 2>&1 || { echo "build failed (see $log)"; exit 1; }
  bench="$(swift build -c release --show-bin-path)/jwsverify-benchmark"
fi
status=0
for round in $(seq 1 "$rounds"); do
  echo "== round $round/$rounds $(date -u +%Y-%m-%dT%H:%M:%SZ) (load $(cut -d' ' -f1-3 /proc/loadavg))" | tee -a "$log"
  taskset -c 0 "$bench" --receipts --repeats 3 --seconds "$seconds" 2>>"$log" | tee -a "$log" || status=1
done
exit "$status"
