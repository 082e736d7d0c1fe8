#!/usr/bin/env bash
# Peer comparison of JWSVerify, in one run and interleaved on the same machine:
#   1. openssl speed ecdsap256 ecdsap384 (verify/s per CPU-second: the ECDSA ceiling of this machine)
#   2. jwsverify-benchmark (release build) on token sets it mints and exports; its online-warm and
#      online-offline scenarios mint their own set and start two `openssl ocsp` responders
#   3. Apple's App Store Server Library for Python (PyPI app-store-server-library), offline,
#      on the exported warm and cold sets, single-threaded
#   4. openssl speed again (the whole-run ratios use the mean of both runs; their spread shows drift)
#   5. paired rounds: ROUNDS times, `openssl speed` right before and after each of warm, new-leaf and
#      cold (one 2 s repeat, one thread) and Apple's Python library right after warm, so that every
#      ratio compares figures measured seconds apart; the targets are judged on the median of the
#      rounds' ratios (this VM's speed drifts by up to a third within minutes, see Docs/Performance.md)
#   6. `jwsverify batch` peak RSS over 1,000,000 warm tokens (when the CLI has `batch`)
# then prints every figure, the ratios and the targets of the issues "Benchmarks and speed" and
# "Online checks: OCSP revocation" (online-warm >= 0.90 x online-offline).
#
# Usage: bash Benchmarks/compare.sh [--quick] [--out DIR] [--rounds N] [--rounds-only]
#   --quick        short repeats and small sets (a smoke run: figures are indicative only)
#   --out DIR      where results go (default .build/benchmark-results)
#   --rounds N     paired rounds (default 5; 2 with --quick)
#   --rounds-only  only steps 1 and 5, on the sets already in DIR/sets (no full benchmark, no batch)
# Environment: JWSVERIFY_BENCHMARK / JWSVERIFY_CLI use prebuilt binaries instead of building;
#   APPLE_PYTHON_VENV overrides the virtual environment (default .build/apple-python-venv).
# Needs: swift, openssl, python3 (with venv), network access to PyPI on the first run.
set -uo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

quick=0
rounds=""
rounds_only=0
out="$root/.build/benchmark-results"
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1 ;;
    --out) shift; out="${1:?--out needs a directory}" ;;
    --rounds) shift; rounds="${1:?--rounds needs a number}"
      case "$rounds" in ''|*[!0-9]*|0) echo "compare.sh: --rounds needs a positive number" >&2; exit 64 ;; esac ;;
    --rounds-only) rounds_only=1 ;;
    -h|--help) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "compare.sh: unknown argument '$1' (try --help)" >&2; exit 64 ;;
  esac
  shift
done
mkdir -p "$out"
out="$(cd "$out" && pwd)"
sets="$out/sets"
log="$out/compare.log"
: > "$log"

say() { echo "$*" | tee -a "$log"; }
load() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime | sed 's/.*average[s]*: //'; }

if [ "$quick" = 1 ]; then
  bench_flags=(--quick)
  speed_seconds=1
  python_flags=(--repeats 3 --seconds 0.5)
  batch_tokens=100000
  rounds="${rounds:-2}"
  round_seconds=0.5
else
  bench_flags=()
  speed_seconds=3
  python_flags=(--repeats 5 --seconds 2)
  batch_tokens=1000000
  rounds="${rounds:-5}"
  round_seconds=2
fi

say "== compare.sh $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(nproc 2>/dev/null || echo '?') cores, quick=$quick"
say "   $(openssl version 2>/dev/null || echo 'openssl: not found'); $(swift --version 2>/dev/null | head -1)"

# --- build ------------------------------------------------------------------------------------
bench="${JWSVERIFY_BENCHMARK:-}"
cli="${JWSVERIFY_CLI:-}"
if [ -z "$bench" ] || [ -z "$cli" ]; then
  say "== building (release)"
  bin_path="$(swift build -c release --show-bin-path)"
  if [ -z "$bench" ]; then
    swift build -c release --product jwsverify-benchmark 2>&1 | tail -3 | tee -a "$log"
    bench="$bin_path/jwsverify-benchmark"
  fi
  if [ -z "$cli" ]; then
    if swift build -c release --product jwsverify >>"$log" 2>&1; then cli="$bin_path/jwsverify"; fi
  fi
fi
if [ ! -x "$bench" ]; then
  say "compare.sh: no benchmark executable at '$bench'"
  exit 1
fi

# --- openssl speed ----------------------------------------------------------------------------
# Prints "P256 P384" verify/s, parsed from the last column of the nistp256 and nistp384 lines.
openssl_speed() {
  openssl speed -seconds "$speed_seconds" ecdsap256 ecdsap384 2>/dev/null | awk '
    /ecdsa \(nistp256\)/ { p256 = $NF }
    /ecdsa \(nistp384\)/ { p384 = $NF }
    END { if (p256 == "" || p384 == "") exit 1; print p256, p384 }'
}

say "== 1. openssl speed -seconds $speed_seconds ecdsap256 ecdsap384 (load $(load))"
if ! speed1="$(openssl_speed)"; then say "openssl speed failed"; speed1=""; fi
say "   verify/s: P-256 ${speed1% *}, P-384 ${speed1#* }"

# --- the benchmark ----------------------------------------------------------------------------
if [ "$rounds_only" = 0 ]; then
  say "== 2. jwsverify-benchmark ${bench_flags[*]} (load $(load))"
  rm -rf "$sets"
  "$bench" "${bench_flags[@]}" --export-ndjson "$sets" --json "$out/benchmark.json" 2>>"$log" | tee "$out/benchmark.txt" | tee -a "$log"
  bench_status=${PIPESTATUS[0]}
  if [ "$bench_status" != 0 ]; then say "   the benchmark exited with status $bench_status (see $log)"; fi
elif [ ! -f "$sets/warm.ndjson" ]; then
  say "compare.sh: --rounds-only needs the sets of an earlier run in $sets"
  exit 1
fi

# --- Apple's Python library -------------------------------------------------------------------
# The project's own installer (pinned version, shared with the acceptance tests).
venv="${APPLE_PYTHON_VENV:-$root/.build/apple-python-venv}"
python="$(APPLE_PYTHON_VENV="$venv" bash "$root/Scripts/apple-python-venv.sh" 2>>"$log")" || python=""
if [ -z "$python" ]; then
  say "   could not install app-store-server-library into $venv (pip or network failed; last lines of $log:)"
  tail -5 "$log" | sed 's/^/   | /'
  say "   continuing without the Python figures"
fi
if [ "$rounds_only" = 0 ]; then
  say "== 3. Apple's Python SignedDataVerifier (load $(load))"
  if [ -z "$python" ]; then
    echo '{}' > "$out/apple-python.json"
  elif ! "$python" "$root/Benchmarks/apple_python_bench.py" --sets "$sets" --set warm --set cold "${python_flags[@]}" \
    > "$out/apple-python.json" 2>>"$log"; then
    say "   apple_python_bench.py failed (see $log); continuing without the Python figures"
    echo '{}' > "$out/apple-python.json"
  fi

  # --- openssl speed again --------------------------------------------------------------------
  say "== 4. openssl speed again (load $(load))"
  if ! speed2="$(openssl_speed)"; then say "openssl speed failed"; speed2=""; fi
  say "   verify/s: P-256 ${speed2% *}, P-384 ${speed2#* }"
else
  speed2=""
fi

# --- paired rounds ----------------------------------------------------------------------------
# One line per measurement, in the order taken: "speed P256 P384", "scenario NAME FILE" or
# "python FILE". The results step pairs each measurement with the openssl runs just before and after.
say "== 5. $rounds paired rounds: openssl speed around each of warm, new-leaf, cold (1 repeat of ${round_seconds} s, 1 thread), Apple Python after warm (load $(load))"
round_log="$out/rounds.txt"
rounds_dir="$out/rounds"
rm -rf "$rounds_dir"
mkdir -p "$rounds_dir"
: > "$round_log"
round_speed() {
  local figures
  if figures="$(openssl_speed)"; then echo "speed $figures" >> "$round_log"; fi
}
for ((round = 1; round <= rounds; round++)); do
  for scenario in warm new-leaf cold; do
    round_speed
    file="$rounds_dir/$round-$scenario.json"
    if "$bench" --sets "$sets" --in-process --scenario "$scenario" --threads 1 --repeats 1 \
      --seconds "$round_seconds" --json "$file" >>"$log" 2>&1; then
      echo "scenario $scenario $file" >> "$round_log"
    else
      say "   round $round: the benchmark failed on $scenario (see $log)"
    fi
    if [ "$scenario" = warm ] && [ -n "$python" ]; then
      file="$rounds_dir/$round-python-warm.json"
      if "$python" "$root/Benchmarks/apple_python_bench.py" --sets "$sets" --set warm --repeats 1 \
        --seconds "$round_seconds" > "$file" 2>>"$log"; then
        echo "python $file" >> "$round_log"
      fi
    fi
  done
  say "   round $round of $rounds done (load $(load))"
done
round_speed

# --- jwsverify batch peak RSS -----------------------------------------------------------------
say "== 6. jwsverify batch peak RSS over $batch_tokens warm tokens (load $(load))"
batch_rss_kib=""
batch_rate=""
if [ "$rounds_only" = 1 ]; then
  say "   skipped: --rounds-only"
elif [ -z "$cli" ] || [ ! -x "$cli" ]; then
  say "   skipped: the jwsverify CLI did not build"
elif ! "$cli" batch --help >/dev/null 2>&1; then
  say "   skipped: this jwsverify has no batch command yet"
elif [ ! -f "$sets/warm.ndjson" ]; then
  say "   skipped: no exported warm set"
else
  time_bin=/usr/bin/time
  if [ ! -x "$time_bin" ]; then
    say "   /usr/bin/time is missing: apt-get install -y time"
    { apt-get install -y -qq time || { apt-get update -qq && apt-get install -y -qq time; }; } >>"$log" 2>&1
  fi
  if [ ! -x "$time_bin" ]; then
    say "   skipped: /usr/bin/time could not be installed"
  else
    per_file=$(wc -l < "$sets/warm.ndjson")
    batch_rounds=$(( (batch_tokens + per_file - 1) / per_file ))
    for ((i = 0; i < batch_rounds; i++)); do cat "$sets/warm.ndjson"; done \
      | "$time_bin" -v -o "$out/batch-time.txt" "$cli" batch --root "$sets/root.der" --bundle-id com.example.jwsverify \
          --app-apple-id 1234 --environment Sandbox > /dev/null 2> "$out/batch-summary.txt"
    batch_status=$?
    batch_rss_kib=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$out/batch-time.txt")
    batch_rate=$(awk '/lines\/s/ { for (i = 1; i <= NF; i++) if ($i == "lines/s") print $(i-1) }' "$out/batch-summary.txt")
    say "   $((batch_rounds * per_file)) tokens, exit status $batch_status, peak RSS ${batch_rss_kib:-?} KiB, ${batch_rate:-?} tokens/s"
    sed 's/^/   | /' "$out/batch-summary.txt" | head -8 | tee -a "$log"
  fi
fi

# --- figures, ratios, targets -----------------------------------------------------------------
say "== results (load $(load))"
python3 - "$out" "$speed1" "$speed2" "$batch_tokens" "${batch_rss_kib:-}" "${batch_rate:-}" "$quick" <<'PYTHON' | tee -a "$log"
import json, os, sys

out, speed1, speed2, batch_tokens, batch_rss_kib, batch_rate, quick = sys.argv[1:8]
def load(name):
    try:
        with open(os.path.join(out, name)) as handle:
            return json.load(handle)
    except Exception:
        return {}
bench = load("benchmark.json")
apple = load("apple-python.json").get("sets", {})
speeds = [tuple(map(float, s.split())) for s in (speed1, speed2) if s.strip()]
p256 = sum(s[0] for s in speeds) / len(speeds) if speeds else None
p384 = sum(s[1] for s in speeds) / len(speeds) if speeds else None

def measurement(scenario, threads=1):
    for result in bench.get("results", []):
        if result["scenario"] == scenario:
            for m in result["measurements"]:
                if m["threads"] == threads:
                    return m
    return None
def rate(scenario, threads=1, cpu=True):
    m = measurement(scenario, threads)
    return None if m is None else m.get("tokensPerCPUSecond" if cpu else "tokensPerSecond")
cores = bench.get("cores", 1)
def most_threads(scenario):
    counts = [m["threads"] for r in bench.get("results", []) if r["scenario"] == scenario for m in r["measurements"]]
    return max(counts) if counts and max(counts) > 1 else None

def fmt(x, digits=0):
    return "n/a" if x is None else f"{x:,.{digits}f}"
def ratio(a, b):
    return None if a is None or not b else a / b

rows = []
def figure(name, cpu, wall=None, digits=0):
    rows.append((name, fmt(cpu, digits), "" if wall is None else fmt(wall, digits)))
if speeds:
    figure("openssl P-256 verify/s (runs: " + ", ".join(fmt(s[0]) for s in speeds) + ")", p256)
    figure("openssl P-384 verify/s (runs: " + ", ".join(fmt(s[1]) for s in speeds) + ")", p384)
for scenario in ["warm", "new-leaf", "cold", "renewal", "notification", "notification-nested",
                 "app-transaction", "reject", "tampered", "large", "chain-groups", "online-warm", "online-offline"]:
    figure(f"jwsverify {scenario}, 1 thread", rate(scenario), rate(scenario, cpu=False))
    threads = most_threads(scenario)
    if threads:
        figure(f"jwsverify {scenario}, {threads} threads", rate(scenario, threads), rate(scenario, threads, cpu=False))
for name in ["warm", "cold"]:
    figure(f"Apple Python {name}, 1 thread", apple.get(name, {}).get("tokensPerCPUSecond"),
           apple.get(name, {}).get("tokensPerSecond"), 1)
if batch_rate:
    figure(f"jwsverify batch, {int(batch_tokens):,} warm tokens, all cores, JSON out", None, float(batch_rate))
if batch_rss_kib:
    rows.append((f"jwsverify batch, {int(batch_tokens):,} warm tokens: peak RSS MiB", "", fmt(int(batch_rss_kib) / 1024, 1)))

width = max(len(r[0]) for r in rows)
print("\nFigures (tokens or verifications per second; CPU: per CPU-second of the measured threads, as")
print("openssl speed counts; wall: per wall-clock second, which other load on the machine lowers)")
print(f"  {'':{width}}  {'CPU':>12}  {'wall':>12}")
for name, cpu, wall in rows:
    print(f"  {name.ljust(width)}  {cpu:>12}  {wall:>12}")

# The issue's bounds, from P-256 and P-384 verifications per second.
bounds = {"warm": lambda a, b: a, "new-leaf": lambda a, b: 1 / (1 / b + 1 / a),
          "cold": lambda a, b: 1 / (2 / b + 1 / a)}
warm = rate("warm")
threads = most_threads("warm")
newleaf_bound = bounds["new-leaf"](p256, p384) if speeds else None
cold_bound = bounds["cold"](p256, p384) if speeds else None
apple_warm = apple.get("warm", {}).get("tokensPerCPUSecond")
apple_cold = apple.get("cold", {}).get("tokensPerCPUSecond")

# Paired rounds: each scenario figure against the mean of the openssl runs just before and after it,
# Apple's Python library against the warm figure taken just before it.
entries = []
try:
    with open(os.path.join(out, "rounds.txt")) as handle:
        entries = [line.split() for line in handle if line.strip()]
except OSError:
    pass
def round_rate(path, python=False):
    try:
        with open(path) as handle:
            data = json.load(handle)
    except Exception:
        return None
    if python:
        return data.get("sets", {}).get("warm", {}).get("tokensPerCPUSecond")
    for result in data.get("results", []):
        for m in result.get("measurements", []):
            if m.get("threads") == 1:
                return m.get("tokensPerCPUSecond")
    return None
paired = {"warm": [], "new-leaf": [], "cold": [], "python": []}
round_rows = []
last_warm = None
for index, entry in enumerate(entries):
    if entry[0] == "scenario" and len(entry) == 3:
        name, value = entry[1], round_rate(entry[2])
        before = next((tuple(map(float, e[1:3])) for e in reversed(entries[:index]) if e[0] == "speed"), None)
        after = next((tuple(map(float, e[1:3])) for e in entries[index + 1:] if e[0] == "speed"), None)
        around = [s for s in (before, after) if s]
        if value is None or not around or name not in bounds:
            continue
        a = sum(s[0] for s in around) / len(around)
        b = sum(s[1] for s in around) / len(around)
        paired[name].append(value / bounds[name](a, b))
        round_rows.append((name, value, a, b, paired[name][-1]))
        last_warm = value if name == "warm" else None
    elif entry[0] == "python" and len(entry) == 2:
        value = round_rate(entry[1], python=True)
        if value and last_warm:
            paired["python"].append(last_warm / value)
            round_rows.append(("ours/Python", last_warm, None, value, paired["python"][-1]))
        last_warm = None
def median(values):
    ordered = sorted(values)
    if not ordered:
        return None
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2
if round_rows:
    print("\nPaired rounds (per CPU-second, one thread; bound: the target's formula on the openssl runs just before")
    print("and after the measurement; for ours/Python, the warm figure just before Apple's):")
    print(f"  {'scenario':12} {'ours':>8} {'P-256':>8} {'P-384':>8} {'ratio':>7}")
    for name, value, a, b, r in round_rows:
        if a is None:
            print(f"  {name:12} {fmt(value):>8} {'':>8} {'Py ' + fmt(b):>8} {r:7.1f}")
        else:
            print(f"  {name:12} {fmt(value):>8} {fmt(a):>8} {fmt(b):>8} {r:7.2f}")
def spread(values):
    return f" (rounds {min(values):.2f}-{max(values):.2f})" if values else ""

targets = [
    ("warm / P-256 verify rate, paired median" + spread(paired["warm"]), median(paired["warm"]), 0.80, ">="),
    ("new-leaf / (1/(1/P384 + 1/P256)), paired median" + spread(paired["new-leaf"]), median(paired["new-leaf"]), 0.85, ">="),
    ("cold / (1/(2/P384 + 1/P256)), paired median" + spread(paired["cold"]), median(paired["cold"]), 0.90, ">="),
    ("warm: ours / Apple Python, paired median"
     + (f" (rounds {min(paired['python']):.0f}-{max(paired['python']):.0f})" if paired["python"] else ""),
     median(paired["python"]), 50, ">="),
    ("warm / P-256 verify rate, whole run", ratio(warm, p256), None, ""),
    ("new-leaf / bound, whole run", ratio(rate("new-leaf"), newleaf_bound), None, ""),
    ("cold / bound, whole run", ratio(rate("cold"), cold_bound), None, ""),
    ("warm: ours / Apple Python, whole run", ratio(warm, apple_warm), None, ""),
    ("cold: ours / Apple Python, whole run", ratio(rate("cold"), apple_cold), None, ""),
    (f"warm: {threads or 'all'} threads / 1 thread (wall)",
     ratio(rate("warm", threads, cpu=False) if threads else None, rate("warm", cpu=False)), 1.8, ">="),
    ("reject tokens/s (1 thread, CPU)", rate("reject"), 100_000, ">="),
    ("reject tokens/s (1 thread, wall)", rate("reject", cpu=False), 100_000, ">="),
    ("tampered / P-256 verify rate (1 thread, CPU)", ratio(rate("tampered"), p256), None, ""),
    ("jwsverify batch peak RSS MiB", int(batch_rss_kib) / 1024 if batch_rss_kib else None, 64, "<"),
    # Issue "Online checks": a warm revocation cache costs no request and at most 10 %.
    ("online-warm / online-offline (1 thread, CPU)", ratio(rate("online-warm"), rate("online-offline")), 0.90, ">="),
]
print("\nRatios and targets" + (" (--quick: indicative only)" if quick == "1" else ""))
summary = []
for name, value, target, op in targets:
    if value is None:
        verdict = "not measured"
    elif target is None:
        verdict = ""
    elif op == ">=":
        verdict = "MET" if value >= target else "NOT MET"
    else:
        verdict = "MET" if value < target else "NOT MET"
    shown = fmt(value, 0 if value is not None and value >= 1000 else 2)
    goal = "" if target is None else f"{op} {target:g}"
    print(f"  {name.ljust(66)} {shown:>10}  {goal:>8}  {verdict}")
    summary.append({"name": name, "value": value, "target": target, "comparison": op, "verdict": verdict})
if speeds:
    print(f"\n  whole run: bounds P-256 {fmt(p256)}/s; new-leaf bound {fmt(newleaf_bound)}/s; cold bound {fmt(cold_bound)}/s")
    # The same ratios against each openssl run alone: their spread is the noise of this machine.
    spans = []
    for name, bound in bounds.items():
        values = [ratio(rate(name), bound(*s)) for s in speeds]
        if all(v is not None for v in values):
            spans.append(f"{name} {min(values):.2f}-{max(values):.2f}")
    if spans:
        print("  whole-run ratios against each openssl run alone: " + ", ".join(spans))
if threads:
    m = measurement("warm", threads)
    if m and m.get("coresUsed") is not None:
        busy = m.get("machineCoresBusy")
        print(f"  warm with {threads} threads kept {m['coresUsed']:.2f} cores busy; the machine had "
              + ("?" if busy is None else f"{busy:.2f}") + f" of {cores} busy (the rest is other load)")
with open(os.path.join(out, "compare.json"), "w") as handle:
    json.dump({"openssl": {"p256VerifyPerSecond": p256, "p384VerifyPerSecond": p384, "runs": speeds},
               "pairedRounds": {name: values for name, values in paired.items()},
               "applePython": apple, "batch": {"tokens": int(batch_tokens), "peakRSSKiB": batch_rss_kib or None,
               "tokensPerSecond": batch_rate or None}, "targets": summary}, handle, indent=2)
PYTHON
say "== done: $out (benchmark.json, apple-python.json, compare.json, compare.log)"
