#!/usr/bin/env bash
# Builds one libFuzzer target (release, -sanitize=fuzzer,address) and fuzzes it for SECONDS with its
# corpus (Fuzz/corpus/TARGET, seeded by make-corpus.sh when missing), its regressions and the
# dictionary. Prints the execution count. Exits non-zero on a crash, leak, timeout or out-of-memory;
# libFuzzer's reproducer is then in Fuzz/artifacts/TARGET/.
#
# Usage: Fuzz/run.sh [--no-asan | --replay] TARGET SECONDS [extra libFuzzer flags...]
#   TARGET: jws-parser | verifier | models | inspect | chains | receipts | api-responses
#   --no-asan  build with -sanitize=fuzzer only (in .build-fuzzer-only): 2.5-3.5x the executions per
#              second for the targets that decode and verify, at the price of AddressSanitizer's memory
#              checks and LeakSanitizer. Crashes (every Swift runtime check traps), timeouts and
#              out-of-memory are still found. Follow such a run with --replay.
#   --replay   run every input of the target's corpus and regressions once under AddressSanitizer and
#              LeakSanitizer (libFuzzer -runs=0; SECONDS is then the time limit), so that whatever a
#              --no-asan run kept is also checked for memory errors and leaks.
# Long runs on a shared machine: nice -n 19 Fuzz/run.sh verifier 3600
set -euo pipefail
cd "$(dirname "$0")"
mode=address
case "${1:-}" in
  --no-asan) mode=fuzzer-only; shift ;;
  --replay) mode=replay; shift ;;
esac
if [ $# -lt 2 ]; then
  echo "Usage: Fuzz/run.sh [--no-asan | --replay] TARGET SECONDS [libFuzzer flags...]" >&2
  exit 64
fi
target=$1
seconds=$2
shift 2
case "$target" in
  jws-parser|verifier|models|inspect|chains|receipts|api-responses) ;;
  *) echo "Error: unknown target '$target' (jws-parser, verifier, models, inspect, chains, receipts, api-responses)" >&2; exit 64 ;;
esac

if [ "$mode" = fuzzer-only ]; then
  build=(-c release --scratch-path .build-fuzzer-only -Xswiftc -sanitize=fuzzer -Xswiftc -parse-as-library
    -Xswiftc -enable-testing)
else
  build=(-c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -enable-testing)
fi
swift build --product "$target" "${build[@]}"
binary=$(swift build --show-bin-path "${build[@]}")/$target

[ -d "corpus/$target" ] || ./make-corpus.sh "$target"
mkdir -p "artifacts/$target" "regressions/$target"
# One log per run (runs of one target may overlap); the latest is also artifacts/TARGET/last-run.log.
log=artifacts/$target/run-$$.log

# A Swift runtime failure is reported by libFuzzer and AddressSanitizer; Swift's own backtracer would
# compete with them for the crashing process (and can hang there).
export SWIFT_BACKTRACE=enable=no
# Allocation stacks of 8 frames, not 30: unwinding on every malloc cost 14% of the models target.
export ASAN_OPTIONS="malloc_context_size=8${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
# Foundation's Data hides its storage pointer from LeakSanitizer (see lsan.supp).
export LSAN_OPTIONS="suppressions=$PWD/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
# Receipts have their own dictionary (DER tags, OIDs, field numbers) and size: the 187-purchase receipt
# is 79 KB of DER, 106 KB as base64.
dict=jws.dict
max_len=70000
if [ "$target" = receipts ]; then dict=receipts.dict; max_len=131072; fi
status=0
limits=(-max_total_time="$seconds")
# A replay executes the inputs and stops: no mutation, nothing added to the corpus.
if [ "$mode" = replay ]; then limits+=(-runs=0); fi
"$binary" "corpus/$target" "regressions/$target" \
  -dict="$dict" -max_len="$max_len" -timeout=5 -rss_limit_mb=2048 "${limits[@]}" \
  -print_final_stats=1 -artifact_prefix="artifacts/$target/" "$@" 2>"$log" || status=$?

cp "$log" "artifacts/$target/last-run.log"
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
grep -aE '^(INFO: Seed|#[0-9]+ +DONE|Done [0-9]+ runs)' "$log" | tail -3 || true
if [ "$mode" = replay ]; then
  inputs=$(grep -aoE 'INFO: +[0-9]+ files found' "$log" | awk '{ sum += $2 } END { print sum + 0 }')
  echo "$target: replayed ${inputs:-?} inputs under AddressSanitizer and LeakSanitizer, exit status $status"
else
  echo "$target ($mode): ${runs:-0} executions in ${seconds} s, exit status $status"
fi
if [ "$status" -eq 72 ] && grep -aq 'libFuzzer: run interrupted' "$log"; then
  # Stopped with SIGINT (pkill -INT): libFuzzer printed its final statistics; not a finding.
  echo "$target: interrupted, not a finding"
  exit 0
fi
if [ "$status" -ne 0 ]; then
  tail -60 "$log" >&2
  echo "$target: FAILED (crash, leak, timeout or OOM); reproducer in Fuzz/artifacts/$target/" >&2
fi
exit "$status"
