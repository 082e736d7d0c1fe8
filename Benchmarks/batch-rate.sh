#!/usr/bin/env bash
# `jwsverify batch` against the library's own warm rate, on the same tokens, in one run:
#   1. openssl speed -seconds 3 ecdsap256 (verify/s: the P-256 ceiling of this machine)
#   2. the benchmark's warm set exported (10,000 transactions under one chain, NDJSON lines
#      {"expect":…,"token":…}, as `batch` reads them)
#   3. the benchmark's warm rate on one thread pinned to core 0 (`taskset -c 0`), per CPU-second
#   4. `jwsverify batch` over that set, repeated, pinned to core 0: tokens per CPU-second (user + sys
#      of the whole process: perf's task-clock, else getrusage) and per wall-clock second, its result lines discarded
#      (/dev/null: the library's rate stores nothing either); then the same run writing them to a file,
#      whose rate is shown beside it and whose lines are counted
#   5. the same on all cores (wall-clock rate; the 2-core target compares it with step 4's), then the
#      benchmark's own scaling from 1 thread to all cores, which shows whether a core was free
#   6. openssl speed again (the ratios use the mean of both runs; their spread shows drift)
#   7. compact line sizes: a warm transaction's, and a minted notification's with two nested tokens
#   8. with --rss: peak RSS of `batch` over 1,000,000 warm tokens on all cores
# then prints the ratios and the targets of issue #18.
# With --receipts, app receipts instead, in one run (issue #25's target: batch >= 0.75 x the library):
#   1. openssl speed -seconds 3 rsa2048 (context: a warm receipt costs one RSA-2048 verify)
#   2. 2,000 x --repeat lines of the real 2025 SHA-256 sandbox receipt (TestVectors/receipts/04_*, base64
#      as a device sends it; every other line a verifyReceipt body {"receipt-data":…,"password":…,"id":N})
#   3. the library's warm receipt rate (`jwsverify-benchmark --receipts --receipt-scenario receipt-warm`),
#      pinned to core 0, per CPU-second
#   4. `jwsverify batch` over the lines, pinned to core 0, receipts per CPU-second, the result lines discarded
#      (/dev/null, as in step 4 of tokens)
#   5. steps 3 and 4 again, --rounds times in all (default 5), alternating; each round's ratio compares two runs a
#      few seconds apart, and the verdict is the median of the rounds' ratios (the mean of the rates is printed
#      beside it): on a shared VM whose speed moves by a third within seconds, one round whose library run or batch
#      run caught a fast or a slow moment moves a mean, not a median
#   6. `jwsverify batch` once more, writing its result lines to a file: that rate (the file system's cost of
#      storing 75 MB included), the result lines counted, verified lines and bytes per line
#
# Usage: bash Benchmarks/batch-rate.sh [--repeat N] [--out DIR] [--rss] [--rounds N] [--receipts]
#   --repeat N   how many times the 10,000-token set (2,000 receipts with --receipts) is fed to batch in
#                steps 4 and 5 (default 10)
#   --out DIR    where results go (default .build/benchmark-results/batch-rate)
#   --rss        also run step 8 (about a minute on 2 cores)
#   --receipts   measure app receipts as above instead of tokens
#   --rounds N   rounds of steps 3 and 4, alternating (default 5 with --receipts, 1 for tokens); with --receipts the
#                verdict is the median of the rounds' ratios, the mean of their rates printed beside it
# Environment: JWSVERIFY_BENCHMARK / JWSVERIFY_CLI use prebuilt release binaries instead of building.
# Needs: swift, openssl, taskset, python3, /usr/bin/time (for --rss); perf (linux-perf) for exact CPU times.
set -uo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
repeat=10
rss=0
receipts=0
rounds=
out="$root/.build/benchmark-results/batch-rate"
while [ $# -gt 0 ]; do
  case "$1" in
    --repeat) shift; repeat="${1:?--repeat needs a number}"
      case "$repeat" in ''|*[!0-9]*|0) echo "batch-rate.sh: --repeat needs a positive number" >&2; exit 64 ;; esac ;;
    --out) shift; out="${1:?--out needs a directory}" ;;
    --rss) rss=1 ;;
    --receipts) receipts=1 ;;
    --rounds) shift; rounds="${1:?--rounds needs a number}"
      case "$rounds" in ''|*[!0-9]*|0) echo "batch-rate.sh: --rounds needs a positive number" >&2; exit 64 ;; esac ;;
    -h|--help) sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "batch-rate.sh: unknown argument '$1' (try --help)" >&2; exit 64 ;;
  esac
  shift
done
[ -n "$rounds" ] || rounds=$([ "$receipts" = 1 ] && echo 5 || echo 1)
mkdir -p "$out"
out="$(cd "$out" && pwd)"
load() { cut -d' ' -f1-3 /proc/loadavg; }
say() { echo "$*" | tee -a "$out/batch-rate.log"; }
: > "$out/batch-rate.log"

bench="${JWSVERIFY_BENCHMARK:-}"
cli="${JWSVERIFY_CLI:-}"
if [ -z "$bench" ] || [ -z "$cli" ]; then
  swift build -c release --product jwsverify-benchmark >>"$out/batch-rate.log" 2>&1 || { say "build failed"; exit 1; }
  swift build -c release --product jwsverify >>"$out/batch-rate.log" 2>&1 || { say "build failed"; exit 1; }
  bin="$(swift build -c release --show-bin-path)"
  bench="${bench:-$bin/jwsverify-benchmark}"
  cli="${cli:-$bin/jwsverify}"
fi
time_bin=/usr/bin/time
if [ "$rss" = 1 ] && [ ! -x "$time_bin" ]; then
  say "batch-rate.sh: /usr/bin/time is missing (apt-get install -y time), needed by --rss"
  exit 1
fi
# timed FILE COMMAND...: runs COMMAND and writes its CPU-seconds and wall seconds to FILE as `user system wall`.
# With `perf stat`, both are perf's: the scheduler's own count of the command's time on a CPU (task-clock, printed in
# milliseconds to the microsecond, written as user with system 0) and, from its "CPUs utilized", the command's
# elapsed time (perf's own start-up, 40-100 ms here, left out). Without perf, or when its count cannot be read,
# getrusage's user and system times and the elapsed time around the command: this VM accounts those by ticks (a
# 0.7 s run of 20,000 receipts was once charged 0.19 s of system time), and /usr/bin/time rounds them to 10 ms.
timed() {
  python3 -c '
import os, resource, shutil, subprocess, sys, tempfile, time
file, command = sys.argv[1], sys.argv[2:]
counter = None
quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
if shutil.which("perf") and subprocess.call(["perf", "stat", "-x,", "-e", "task-clock", "true"], **quiet) == 0:
    with tempfile.NamedTemporaryFile(delete=False) as handle:
        counter = handle.name
    command = ["perf", "stat", "-x,", "-e", "task-clock", "-o", counter, "--"] + command
before = resource.getrusage(resource.RUSAGE_CHILDREN)
start = time.monotonic()
status = subprocess.call(command)
wall = time.monotonic() - start
after = resource.getrusage(resource.RUSAGE_CHILDREN)
user, system = after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime
if counter:
    try:
        with open(counter) as lines:
            fields = next(line.split(",") for line in lines if ",task-clock," in line)
        milliseconds, utilized = float(fields[0]), float(fields[5])
        user, system, wall = milliseconds / 1000, 0.0, milliseconds / 1000 / utilized
    except (StopIteration, ValueError, IndexError, ZeroDivisionError):
        print("timed: no task-clock count from perf; getrusage times instead", file=sys.stderr)
    finally:
        os.unlink(counter)
with open(file, "w") as out:
    out.write(f"{user:.6f} {system:.6f} {wall:.6f}\n")
sys.exit(status)
' "$@"
}


if [ "$receipts" = 1 ]; then
  rsa_speed() { openssl speed -seconds 3 rsa2048 2>/dev/null | awk '/^rsa 2048 bits/ { print $NF }'; }
  # The library's warm receipt rate per CPU-second, from the benchmark's table.
  library_receipts() {
    taskset -c 0 "$bench" --receipts --receipt-scenario receipt-warm --repeats 3 --seconds 2 2>>"$out/batch-rate.log" \
      | tee -a "$out/batch-rate.log" | awk '$1 == "receipt-warm" && $2 ~ /^[0-9,]+$/ { gsub(",", "", $3); print $3 }'
  }
  say "== batch-rate.sh --receipts $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(nproc) cores (load $(load))"
  say "== 1. openssl speed -seconds 3 rsa2048"
  say "   RSA-2048 verify/s: $(rsa_speed)"
  receipt_file="$(ls "$root"/TestVectors/receipts/04_* | head -n 1)"
  receipt_text="$(tr -d ' \r\n' < "$receipt_file")"
  input="$out/receipts-x$repeat.ndjson"
  python3 - "$receipt_text" "$repeat" > "$input" <<'PYTHON'
import json, sys
text, repeat = sys.argv[1], int(sys.argv[2])
lines = []
for i in range(2000):
    lines.append(text if i % 2 == 0 else json.dumps({"receipt-data": text, "password": "shared-secret", "id": i}))
sys.stdout.write(("\n".join(lines) + "\n") * repeat)
PYTHON
  receipts_count=$(wc -l < "$input")
  config=(--bundle-id dev.bonzer.weeka.app --environment Sandbox)
  library_rates=()
  batch_rates=()
  for ((round = 1; round <= rounds; round++)); do
    say "== $((round * 2 + 1)). benchmark receipt-warm, 1 thread, taskset -c 0 (round $round, load $(load))"
    rate="$(library_receipts)"
    say "   ${rate:-?} receipts per CPU-second"
    library_rates+=("${rate:-0}")
    say "== $((round * 2 + 2)). jwsverify batch, $receipts_count receipt lines, taskset -c 0, lines discarded (round $round, load $(load))"
    timed "$out/time.txt" taskset -c 0 "$cli" batch "${config[@]}" "$input" \
      > /dev/null 2> "$out/summary.txt"
    read -r cpu_rate wall_rate <<< "$(tail -n 1 "$out/time.txt" | awk -v n="$receipts_count" '{ printf "%.0f %.0f\n", n / ($1 + $2), n / $3 }')"
    say "   $cpu_rate receipts per CPU-second, $wall_rate per wall second"
    batch_rates+=("$cpu_rate")
  done
  say "== $((rounds * 2 + 3)). jwsverify batch, $receipts_count receipt lines, taskset -c 0, lines to a file (load $(load))"
  timed "$out/time.txt" taskset -c 0 "$cli" batch "${config[@]}" "$input" \
    > "$out/results.ndjson" 2> "$out/summary.txt"
  read -r cpu_rate wall_rate <<< "$(tail -n 1 "$out/time.txt" | awk -v n="$receipts_count" '{ printf "%.0f %.0f\n", n / ($1 + $2), n / $3 }')"
  lines=$(wc -l < "$out/results.ndjson")
  verified=$(grep -c '"verified":true' "$out/results.ndjson")
  say "   $cpu_rate receipts per CPU-second, $wall_rate per wall second (the file system's share included)"
  say "   $lines result lines, $verified verified, $(( $(wc -c < "$out/results.ndjson") / lines )) bytes per line"
  [ "$lines" = "$receipts_count" ] && [ "$verified" = "$receipts_count" ] || say "   NOT every line verified"
  say "== results"
  python3 - "${library_rates[@]}" "${batch_rates[@]}" <<'PYTHON' | tee -a "$out/batch-rate.log"
import sys
values = [float(v or 0) for v in sys.argv[1:]]
library, batch = values[:len(values) // 2], values[len(values) // 2:]
ratios = [b / l if l else 0 for l, b in zip(library, batch)]
median = sorted(ratios)[len(ratios) // 2] if len(ratios) % 2 else sum(sorted(ratios)[len(ratios) // 2 - 1:][:2]) / 2
mean = sum(batch) / len(batch) / (sum(library) / len(library)) if sum(library) else 0
print(f"  library warm receipts/CPU-s: {', '.join(f'{v:,.0f}' for v in library)};"
      f" batch 1 core receipts/CPU-s: {', '.join(f'{v:,.0f}' for v in batch)}")
print(f"  batch 1 core / library warm receipts (per CPU-second): rounds {', '.join(f'{r:.3f}' for r in ratios)},"
      f" median {median:.3f} (mean of the rates {mean:.3f})  >= 0.75  {'MET' if median >= 0.75 else 'NOT MET'}")
PYTHON
  exit 0
fi

speed() { openssl speed -seconds 3 ecdsap256 2>/dev/null | awk '/ecdsa \(nistp256\)/ { print $NF }'; }

say "== batch-rate.sh $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(nproc) cores (load $(load))"
say "== 1. openssl speed -seconds 3 ecdsap256"
speed1="$(speed)"
say "   P-256 verify/s: ${speed1:-?}"

sets="$out/sets"
if [ ! -f "$sets/warm.ndjson" ]; then
  say "== 2. exporting the warm set"
  "$bench" --scenario warm --export-ndjson "$sets" --export-only >>"$out/batch-rate.log" 2>&1 || { say "export failed"; exit 1; }
else
  say "== 2. warm set already exported in $sets"
fi
config=(--root "$sets/root.der" --bundle-id com.example.jwsverify --app-apple-id 1234 --environment Sandbox)
input="$out/warm-x$repeat.ndjson"
for ((i = 0; i < repeat; i++)); do cat "$sets/warm.ndjson"; done > "$input"
tokens=$(wc -l < "$input")

library_warm() {
  taskset -c 0 "$bench" --sets "$sets" --scenario warm --threads 1 --in-process --repeats 3 --seconds 2 \
    --json "$out/benchmark-warm.json" >>"$out/batch-rate.log" 2>&1
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(round(d["results"][0]["measurements"][0]["tokensPerCPUSecond"]))' "$out/benchmark-warm.json" 2>/dev/null
}
say "== 3. benchmark warm, 1 thread, taskset -c 0 (load $(load))"
library_cpu=$(library_warm)
say "   ${library_cpu:-?} tokens per CPU-second"

# Runs batch over the input, its result lines to $sink; prints "cpu_rate wall_rate" (tokens per CPU-second, per
# wall second).
sink=/dev/null
run_batch() {
  timed "$out/time.txt" "$@" "$cli" batch "${config[@]}" "$input" > "$sink" 2> "$out/summary.txt"
  awk -v n="$tokens" '{ printf "%.0f %.0f\n", n / ($1 + $2), n / $3 }' "$out/time.txt"
}
say "== 4. jwsverify batch, $tokens warm tokens, taskset -c 0, lines discarded (load $(load))"
read -r batch1_cpu batch1_wall <<< "$(run_batch taskset -c 0)"
say "   $batch1_cpu tokens per CPU-second, $batch1_wall per wall second"
library_rates=("${library_cpu:-0}")
batch_rates=("${batch1_cpu:-0}")
for ((round = 2; round <= rounds; round++)); do
  say "== 3-4, round $round: benchmark warm, then batch, taskset -c 0 (load $(load))"
  rate=$(library_warm)
  read -r cpu_rate _ <<< "$(run_batch taskset -c 0)"
  say "   library ${rate:-?}, batch ${cpu_rate:-?} tokens per CPU-second"
  library_rates+=("${rate:-0}")
  batch_rates+=("${cpu_rate:-0}")
done
if [ "$rounds" -gt 1 ]; then
  # The ratio of the step-4 row below uses the means of the rounds.
  read -r library_cpu batch1_cpu <<< "$(python3 - "${library_rates[@]}" "${batch_rates[@]}" <<'PYTHON'
import sys
values = [float(v or 0) for v in sys.argv[1:]]
library, batch = values[:len(values) // 2], values[len(values) // 2:]
print(sum(library) / len(library), sum(batch) / len(batch))
PYTHON
)"
  say "   rounds (batch / library): $(python3 -c '
import sys
v = [float(x or 0) for x in sys.argv[1:]]
l, b = v[:len(v) // 2], v[len(v) // 2:]
r = sorted(y / x for x, y in zip(l, b) if x)
print(", ".join(f"{y / x:.3f}" for x, y in zip(l, b) if x), "; median", f"{(r[len(r) // 2] + r[(len(r) - 1) // 2]) / 2:.3f}")' \
    "${library_rates[@]}" "${batch_rates[@]}"); means: library $library_cpu, batch $batch1_cpu"
fi
sink="$out/results.ndjson"
read -r file_cpu file_wall <<< "$(run_batch taskset -c 0)"
say "   to a file: $file_cpu tokens per CPU-second, $file_wall per wall second (the file system's share included)"
sink=/dev/null
bytes=$(wc -c < "$out/results.ndjson")
lines=$(wc -l < "$out/results.ndjson")
verified=$(grep -c '"verified":true' "$out/results.ndjson")
say "   $lines result lines, $verified verified, $((bytes / lines)) bytes per line"

say "== 5. jwsverify batch, $tokens warm tokens, all cores (load $(load))"
read -r batchall_cpu batchall_wall <<< "$(run_batch)"
say "   $batchall_cpu tokens per CPU-second, $batchall_wall per wall second"

# The library's own scaling, measured right after: when it does not reach 2x either, another process
# held a core and step 5 says nothing about batch's scaling.
say "== 5b. benchmark warm, 1 and $(nproc) threads, all cores (load $(load))"
"$bench" --sets "$sets" --scenario warm --threads "1,$(nproc)" --in-process --repeats 2 --seconds 2 \
  --json "$out/benchmark-scaling.json" >>"$out/batch-rate.log" 2>&1
library_scaling=$(python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))["results"][0]["measurements"]
print(max(m, key=lambda x: x["threads"])["tokensPerSecond"] / min(m, key=lambda x: x["threads"])["tokensPerSecond"])' \
  "$out/benchmark-scaling.json" 2>/dev/null)
say "   library $(nproc) threads / 1 thread (wall): ${library_scaling:-?}"

say "== 6. openssl speed again (load $(load))"
speed2="$(speed)"
say "   P-256 verify/s: ${speed2:-?}"

say "== 7. compact line sizes"
pki="$out/pki"
[ -f "$pki/root.der" ] || "$cli" mint pki --out "$pki" --seed 18 >/dev/null
"$cli" mint token --pki "$pki" --kind notification --seed 18 > "$out/notification.txt"
notification_bytes=$("$cli" batch --root "$pki/root.der" "$out/notification.txt" 2>/dev/null | wc -c)
say "   transaction: $((bytes / lines)) bytes; notification with two nested tokens: $notification_bytes bytes"

rss_mib=""
if [ "$rss" = 1 ]; then
  say "== 8. jwsverify batch, 1,000,000 warm tokens, all cores, peak RSS (load $(load))"
  for ((i = 0; i < 100; i++)); do cat "$sets/warm.ndjson"; done \
    | "$time_bin" -v -o "$out/rss.txt" "$cli" batch "${config[@]}" > /dev/null 2> "$out/rss-summary.txt"
  rss_kib=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$out/rss.txt")
  rss_mib=$(awk -v k="$rss_kib" 'BEGIN { printf "%.1f", k / 1024 }')
  say "   peak RSS $rss_mib MiB; $(grep lines/s "$out/rss-summary.txt")"
fi

say "== results"
python3 - "$speed1" "$speed2" "$library_cpu" "$batch1_cpu" "$batch1_wall" "$batchall_wall" \
  "$((bytes / lines))" "$notification_bytes" "$rss_mib" "${library_scaling:-}" <<'PYTHON' | tee -a "$out/batch-rate.log"
import sys
def num(s):
    try:
        return float(s)
    except ValueError:
        return None
s1, s2, library, one_cpu, one_wall, all_wall, tx_bytes, note_bytes, rss, library_scaling = map(num, sys.argv[1:11])
speeds = [s for s in (s1, s2) if s]
p256 = sum(speeds) / len(speeds) if speeds else None
def ratio(a, b):
    return None if a is None or not b else a / b
rows = [
    ("batch 1 core / benchmark warm 1 thread (per CPU-second)", ratio(one_cpu, library), 0.85, ">="),
    ("batch 1 core / openssl P-256 verify/s (per CPU-second)", ratio(one_cpu, p256), 1.0, ">="),
    ("batch all cores / batch 1 core (wall)", ratio(all_wall, one_wall), 1.8, ">="),
    ("  context: library all threads / 1 thread (wall), same run", library_scaling, None, ""),
    ("compact line bytes, transaction", tx_bytes, 1536, "<="),
    ("compact line bytes, notification with two nested tokens", note_bytes, 4096, "<="),
    ("peak RSS MiB, 1,000,000 warm tokens", rss, 64, "<"),
]
print(f"  openssl P-256 verify/s: {', '.join(f'{s:,.0f}' for s in speeds)}; benchmark warm {library or 0:,.0f}/CPU-s;"
      f" batch 1 core {one_cpu or 0:,.0f}/CPU-s ({one_wall or 0:,.0f}/s wall), all cores {all_wall or 0:,.0f}/s wall")
for name, value, target, op in rows:
    if value is None:
        verdict, shown = "not measured", "n/a"
    elif target is None:
        print(f"  {name.ljust(58)} {value:>8.2f}")
        continue
    else:
        met = value >= target if op == ">=" else value <= target if op == "<=" else value < target
        verdict, shown = ("MET" if met else "NOT MET"), (f"{value:.2f}" if value < 100 else f"{value:,.0f}")
    print(f"  {name.ljust(58)} {shown:>8}  {op} {target:g}  {verdict}")
PYTHON
