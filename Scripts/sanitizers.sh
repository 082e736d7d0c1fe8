#!/usr/bin/env bash
# Sanitizer runs for JWSVerify (issue "Fuzzing, sanitizers and concurrency"):
#   asan   the whole test suite under AddressSanitizer (+ LeakSanitizer at exit)
#   ubsan  the whole test suite with UndefinedBehaviorSanitizer in the C modules (swiftc has no
#          -sanitize=undefined on Linux; Swift code traps on overflow and bounds in every build)
#   tsan   the concurrency tests under ThreadSanitizer
#   leaks  100,000 verifications of good and bad tokens under LeakSanitizer (Fuzz/ leak-check)
# Each step builds in its own scratch folder (.build/sanitize-*), so the normal build stays warm.
# Logs go to .build/sanitizers/<step>.log. Exits non-zero when any step fails.
#
# Usage: Scripts/sanitizers.sh [asan|ubsan|tsan|leaks]...   (default: all four)
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(asan ubsan tsan leaks)
logs=.build/sanitizers
mkdir -p "$logs"

# Foundation's Data hides its storage pointer from LeakSanitizer; see Fuzz/lsan.supp.
export LSAN_OPTIONS="suppressions=$root/Fuzz/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
# Timing guards (PathologicalInputTests) allow for the sanitizers' slowdown.
export JWSVERIFY_TIME_SCALE=10

failed=()
run() {
  local step=$1
  shift
  echo "== $step: $*"
  local start=$SECONDS
  if "$@" >"$logs/$step.log" 2>&1; then
    echo "== $step: passed in $((SECONDS - start)) s ($(grep -E 'Test run with|passed after|leak-check:' "$logs/$step.log" | tail -1))"
  else
    echo "== $step: FAILED in $((SECONDS - start)) s; last lines of $logs/$step.log:"
    tail -40 "$logs/$step.log"
    failed+=("$step")
  fi
}

leak_check() {
  swift build -c release --package-path Fuzz --product leak-check --scratch-path "$root/.build/sanitize-leaks" \
    -Xswiftc -sanitize=address -Xswiftc -parse-as-library -Xswiftc -enable-testing || return 1
  ASAN_OPTIONS=detect_leaks=1 "$root/.build/sanitize-leaks/release/leak-check" 100000
}

for step in "${steps[@]}"; do
  case "$step" in
    asan) run asan swift test --sanitize=address --scratch-path .build/sanitize-address ;;
    ubsan)
      run ubsan swift test --scratch-path .build/sanitize-undefined -Xcc -fsanitize=undefined \
        -Xcc -fno-sanitize-recover=undefined -Xswiftc -Xclang-linker -Xswiftc -fsanitize=undefined ;;
    tsan)
      run tsan swift test --sanitize=thread --scratch-path .build/sanitize-thread \
        --filter 'ConcurrencyHammer|ConcurrencyTests|Revocation|FixedBaseTable|LeafCheckTests.concurrentNewLeaves' ;;
    leaks) run leaks leak_check ;;
    *) echo "Error: unknown step '$step' (asan, ubsan, tsan, leaks)" >&2; exit 64 ;;
  esac
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "sanitizers: FAILED: ${failed[*]}"
  exit 1
fi
echo "sanitizers: all passed (${steps[*]})"
