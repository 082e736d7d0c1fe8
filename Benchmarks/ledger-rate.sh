#!/usr/bin/env bash
# The purchase ledger's figures of issue #38, in one run:
#   1. 100,000 (--count) minted notification bodies {"signedPayload": ...}, each with a transaction and a renewal
#      info of its own subscription (`jwsverify mint token --kind notification`)
#   2. `jwsverify batch` over them, pinned to core 0 (`taskset -c 0`), result lines discarded: notifications per
#      wall-clock second and per CPU-second
#   3. `jwsverify ledger import` of the same lines into a new SQLite store, pinned to core 0: the same rates (every
#      commit synced to disk: wall time includes the fsyncs); steps 2 and 3 alternate --rounds times (default 3)
#      and the verdict is the median of the rounds' wall-clock ratios (target: import >= 0.5 x batch)
#   4. the store's size on disk per notification (its three log items and two state records)
#   5. `jwsverify-benchmark --ledger-entitlements`: one account's entitlements (20 subscriptions, 1,000
#      transactions) from SQLite, median and p99 (target: p99 <= 2 ms), with SQLite's query plans
#
# Usage: bash Benchmarks/ledger-rate.sh [--count N] [--rounds N] [--out DIR]
# Environment: JWSVERIFY_CLI / JWSVERIFY_BENCHMARK use prebuilt release binaries instead of building.
set -euo pipefail
cd "$(dirname "$0")/.."

count=100000
rounds=3
out=.build/benchmark-results/ledger-rate
while [ $# -gt 0 ]; do
  case "$1" in
    --count) count=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "usage: $0 [--count N] [--rounds N] [--out DIR]" >&2; exit 64 ;;
  esac
done

if [ -z "${JWSVERIFY_CLI:-}" ] || [ -z "${JWSVERIFY_BENCHMARK:-}" ]; then
  swift build -c release --product jwsverify >&2
  swift build -c release --product jwsverify-benchmark >&2
fi
cli=${JWSVERIFY_CLI:-.build/release/jwsverify}
benchmark=${JWSVERIFY_BENCHMARK:-.build/release/jwsverify-benchmark}
mkdir -p "$out"
rm -rf "$out/pki" "$out"/store-*
bundle=com.example.ledger
trust=(--root "$out/pki/root.der" --bundle-id "$bundle" --environment Sandbox)

echo "== 1. minting $count notification bodies"
"$cli" mint pki --out "$out/pki" >/dev/null
"$cli" mint token --pki "$out/pki" --kind notification --type DID_RENEW --bundle-id "$bundle" \
  --environment Sandbox --count "$count" --seed 38 \
  | awk '{ printf "{\"signedPayload\":\"%s\"}\n", $0 }' > "$out/notifications.ndjson"
echo "   $(wc -l < "$out/notifications.ndjson") lines, $(du -b "$out/notifications.ndjson" | cut -f1) bytes"

# Runs a command pinned to core 0, its output discarded; prints "wall cpu" in seconds (/usr/bin/time's elapsed time
# and user + system time).
timed() {
  /usr/bin/time -o "$out/time.txt" -f "%e %U %S" taskset -c 0 "$@" >/dev/null 2>&1 || true
  awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "$out/time.txt"
}

ratios=()
for round in $(seq 1 "$rounds"); do
  read -r batch_wall batch_cpu < <(timed "$cli" batch "${trust[@]}" "$out/notifications.ndjson")
  store="$out/store-$round.sqlite"
  read -r import_wall import_cpu < <(timed "$cli" ledger import --store "sqlite:$store" "${trust[@]}" \
    "$out/notifications.ndjson")
  ratio=$(awk -v b="$batch_wall" -v i="$import_wall" 'BEGIN { printf "%.3f", b / i }')
  ratios+=("$ratio")
  awk -v n="$count" -v bw="$batch_wall" -v bc="$batch_cpu" -v iw="$import_wall" -v ic="$import_cpu" -v r="$ratio" \
    -v round="$round" 'BEGIN {
      printf "== round %d: batch %.0f/s wall (%.0f/CPU-s); ledger import %.0f/s wall (%.0f/CPU-s); import/batch %s\n",
        round, n / bw, n / bc, n / iw, n / ic, r }'
done
median=$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
echo "== import / batch (wall, one core): median $median of ${ratios[*]} (target >= 0.5)"

store="$out/store-1.sqlite"
bytes=$(du -b "$store"* | awk '{ s += $1 } END { print s }')
items=$("$cli" ledger rebuild --store "sqlite:$store" --check --json | sed -n 's/.*"items":\([0-9]*\).*/\1/p')
echo "== store on disk: $bytes bytes for $count notifications ($items log items):" \
  "$(awk -v b="$bytes" -v n="$count" 'BEGIN { printf "%.0f", b / n }') bytes per notification" \
  "(the body itself: $(awk -v b="$(du -b "$out/notifications.ndjson" | cut -f1)" -v n="$count" 'BEGIN { printf "%.0f", b / n }') bytes)"

echo "== 5. entitlements"
taskset -c 0 "$benchmark" --ledger-entitlements
