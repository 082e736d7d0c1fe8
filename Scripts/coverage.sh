#!/usr/bin/env bash
# Line coverage of the library from the whole `swift test` suite, reported separately for
#   Sources/JWSVerify    (the Swift library)
#   Sources/CJWSOpenSSL  (the C module over OpenSSL)
#
# How it is measured:
#   - `swift test --enable-code-coverage` builds in its own scratch folder (.build/coverage, so the
#     normal build stays warm). SwiftPM 6 instruments only Swift targets under that flag, so the C
#     targets are compiled with `-Xcc -fprofile-instr-generate -Xcc -fcoverage-mapping` as well.
#   - Every process the tests start writes a profile (LLVM_PROFILE_FILE is inherited), including the
#     `jwsverify` executable that the CLI tests run; all of them are merged with llvm-profdata and
#     read against both the test bundle and the `jwsverify` executable.
#   - llvm-cov and llvm-profdata are the ones next to the Swift toolchain.
#
# What is counted (nothing else is left out):
#   - Sources/JWSVerify: every *.swift file under the folder, recursively. Documentation.docc holds
#     no code.
#   - Sources/CJWSOpenSSL: every *.c file and every header under include/ and the folder itself.
#     Headers with only declarations have no executable lines; they are listed as such.
#   - "Lines" are llvm-cov's executable lines (lines inside a counted code region); blank lines,
#     comments and declarations without code are not lines. A file of a folder that has no coverage
#     mapping at all (never compiled into a tested binary, or no executable code) is listed by name
#     under "files without executable lines", never dropped silently.
#   - Sources/CJWSTesting, Sources/JWSVerifyTesting, Sources/jwsverify and the tests themselves are
#     compiled with coverage too but are not part of either figure.
#
# Usage: Scripts/coverage.sh [--reuse] [--min-swift PERCENT] [--min-c PERCENT] [--uncovered]
#                            [--filter REGEX]
#   --reuse              do not build or run the tests: report from the profiles of the last run in
#                        .build/coverage (fails when there are none)
#   --min-swift PERCENT  exit 1 when the Sources/JWSVerify line coverage is below PERCENT
#   --min-c PERCENT      exit 1 when the Sources/CJWSOpenSSL line coverage is below PERCENT
#   --uncovered          also list, per file, the line numbers that no test executed
#   --filter REGEX       passed to `swift test --filter` (the figures then cover only those tests)
# Exit status: 0, 1 below a threshold, 2 when the tests failed (figures are still printed), 64 usage.
# The last two lines of output are always
#   coverage Sources/JWSVerify: NN.NN % of N lines
#   coverage Sources/CJWSOpenSSL: NN.NN % of N lines
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD

reuse=0
min_swift=""
min_c=""
uncovered=0
filter=()
usage() { sed -n '/^# Usage:/,/^# Exit status/p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 64; }
is_percent() { [[ $1 =~ ^[0-9]+([.][0-9]+)?$ ]]; }
while [ $# -gt 0 ]; do
  case "$1" in
    --reuse) reuse=1 ;;
    --min-swift) [ $# -ge 2 ] && is_percent "$2" || usage; min_swift=$2; shift ;;
    --min-c) [ $# -ge 2 ] && is_percent "$2" || usage; min_c=$2; shift ;;
    --uncovered) uncovered=1 ;;
    --filter) [ $# -ge 2 ] || usage; filter=(--filter "$2"); shift ;;
    -h | --help) usage ;;
    *) echo "Error: unknown argument '$1'" >&2; usage ;;
  esac
  shift
done

toolchain=$(dirname "$(readlink -f "$(command -v swift)")")
llvm_cov=$toolchain/llvm-cov
llvm_profdata=$toolchain/llvm-profdata
for tool in "$llvm_cov" "$llvm_profdata"; do
  [ -x "$tool" ] || { echo "Error: $tool not found next to the Swift toolchain" >&2; exit 1; }
done

scratch=.build/coverage
build_flags=(--scratch-path "$scratch" --enable-code-coverage
  -Xcc -fprofile-instr-generate -Xcc -fcoverage-mapping)
mkdir -p "$scratch"
bin=$(swift build "${build_flags[@]}" --show-bin-path) || exit 1
codecov=$bin/codecov
tests_status=0
if [ "$reuse" -eq 0 ]; then
  # Profiles of an earlier build would not match the new binaries.
  rm -f "$codecov"/*.profraw "$codecov"/merged.profdata
  echo "== swift test ${build_flags[*]} ${filter[*]}"
  start=$SECONDS
  swift test "${build_flags[@]}" "${filter[@]}" >"$scratch/test.log" 2>&1 || tests_status=2
  echo "== tests $([ $tests_status -eq 0 ] && echo passed || echo FAILED) in $((SECONDS - start)) s:" \
    "$(grep -E 'Test run with' "$scratch/test.log" | tail -1)"
  [ $tests_status -eq 0 ] || { echo "   last lines of $scratch/test.log:"; tail -30 "$scratch/test.log"; }
fi

shopt -s nullglob
profiles=("$codecov"/*.profraw)
shopt -u nullglob
if [ ${#profiles[@]} -eq 0 ]; then
  if [ "$reuse" -eq 1 ]; then
    echo "Error: no profiles in $codecov; run without --reuse first" >&2
  else
    echo "Error: the tests wrote no profiles in $codecov (did the build fail?)" >&2
  fi
  exit 1
fi
profdata=$codecov/merged.profdata
"$llvm_profdata" merge -sparse "${profiles[@]}" -o "$profdata" || exit 1

objects=()
for binary in "$bin"/JWSVerifyPackageTests.xctest "$bin"/jwsverify; do
  [ -f "$binary" ] && objects+=("$binary")
done
[ ${#objects[@]} -gt 0 ] || { echo "Error: no test binary in $bin" >&2; exit 1; }
object_args=("${objects[0]}")
for object in "${objects[@]:1}"; do object_args+=(-object "$object"); done

# report FOLDER FILE... : per-file table of line coverage; sets $percent and $lines.
report() {
  local folder=$1
  shift
  local table
  table=$("$llvm_cov" report "${object_args[@]}" -instr-profile "$profdata" "$@" 2>/dev/null) || {
    echo "Error: llvm-cov report failed for $folder" >&2
    exit 1
  }
  echo
  echo "== $folder"
  printf '%-60s %8s %8s %8s\n' "File" "Lines" "Missed" "Cover"
  # llvm-cov columns: name, regions (3), functions (3), lines (3), branches (3).
  echo "$table" | awk -v prefix="$root/$folder/" '
    $1 ~ /^\// || $1 ~ /\.(swift|c|h)$/ {
      name = $1; sub(prefix, "", name)
      printf "%-60s %8d %8d %8s\n", name, $8, $9, $10
    }
    $1 == "TOTAL" { total = $8; missed = $9 }
    END { printf "%-60s %8d %8d %8s\n", "TOTAL", total, missed, (total ? sprintf("%.2f%%", 100 * (total - missed) / total) : "-") }'
  read -r lines missed < <(echo "$table" | awk '$1 == "TOTAL" { print $8, $9 }')
  lines=${lines:-0}
  missed=${missed:-0}
  percent=$(awk -v t="$lines" -v m="$missed" 'BEGIN { printf "%.2f", t ? 100 * (t - m) / t : 0 }')
  local listed without=()
  listed=$(echo "$table" | awk '{ print $1 }')
  for file in "$@"; do
    local short=${file#"$root/$folder/"}
    grep -qxF "$file" <<<"$listed" || grep -qxF "$short" <<<"$listed" || without+=("$short")
  done
  [ ${#without[@]} -eq 0 ] || echo "files without executable lines: ${without[*]}"
  if [ "$uncovered" -eq 1 ]; then
    echo "-- uncovered lines"
    for file in "$@"; do
      "$llvm_cov" show "${object_args[@]}" -instr-profile "$profdata" "$file" 2>/dev/null | awk -v name="${file#"$root/$folder/"}" '
        # llvm-cov show: "  LINE|  COUNT|source"; COUNT 0 means executable and never run.
        $0 ~ /^ *[0-9]+\| *0\|/ { split($0, f, "|"); n = f[1] + 0; if (!(n in seen)) { seen[n] = 1; list = list (list ? "," : "") n } }
        END { if (list) print name ": " list }'
    done
  fi
}

mapfile -t swift_files < <(find "$root/Sources/JWSVerify" -name '*.swift' | sort)
mapfile -t c_files < <(find "$root/Sources/CJWSOpenSSL" \( -name '*.c' -o -name '*.h' \) | sort)
report Sources/JWSVerify "${swift_files[@]}"
swift_percent=$percent
swift_lines=$lines
report Sources/CJWSOpenSSL "${c_files[@]}"
c_percent=$percent
c_lines=$lines

status=$tests_status
below() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }
echo
if [ -n "$min_swift" ] && below "$swift_percent" "$min_swift"; then
  echo "FAIL: Sources/JWSVerify line coverage $swift_percent % is below --min-swift $min_swift"
  [ $status -ne 0 ] || status=1
fi
if [ -n "$min_c" ] && below "$c_percent" "$min_c"; then
  echo "FAIL: Sources/CJWSOpenSSL line coverage $c_percent % is below --min-c $min_c"
  [ $status -ne 0 ] || status=1
fi
echo "coverage Sources/JWSVerify: $swift_percent % of $swift_lines lines"
echo "coverage Sources/CJWSOpenSSL: $c_percent % of $c_lines lines"
exit $status
