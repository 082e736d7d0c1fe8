#!/usr/bin/env bash
# Peer comparison of JWSVerify, in one run and interleaved on the same machine:
#   1. openssl speed ecdsap256 ecdsap384 (verify/s per CPU-second: the ECDSA ceiling of this machine)
#   2. jwsverify-benchmark (release build) on token sets it mints and exports; its online-warm and
#      online-offline scenarios mint their own set and start two `openssl ocsp` responders
#   3. Apple's App Store Server Library for Python (PyPI app-store-server-library), offline,
#      on the exported warm and cold sets, single-threaded
#   4. openssl speed again (the ratios use the mean of both runs; their spread shows drift)
#   5. `jwsverify batch` peak RSS over 1,000,000 warm tokens (when the CLI has `batch`)
# then prints every figure, the ratios and the targets of the issues "Benchmarks and speed" and
# "Online checks: OCSP revocation" (online-warm >= 0.90 x online-offline).
#
# Usage: bash Benchmarks/compare.sh [--quick] [--out DIR]
#   --quick     short repeats and small sets (a smoke run: figures are indicative only)
#   --out DIR   where results go (default .build/benchmark-results)
# Environment: JWSVERIFY_BENCHMARK / JWSVERIFY_CLI use prebuilt binaries instead of building;
#   APPLE_PYTHON_VENV overrides the virtual environment (default .build/apple-python-venv).
# Needs: swift, openssl, python3 (with venv), network access to PyPI on the first run.
set -uo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

quick=0
out="$root/.build/benchmark-results"
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1 ;;
    --out) shift; out="${1:?--out needs a directory}" ;;
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
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
else
  bench_flags=()
  speed_seconds=3
  python_flags=(--repeats 5 --seconds 2)
  batch_tokens=1000000
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
say "== 2. jwsverify-benchmark ${bench_flags[*]} (load $(load))"
rm -rf "$sets"
"$bench" "${bench_flags[@]}" --export-ndjson "$sets" --json "$out/benchmark.json" 2>>"$log" | tee "$out/benchmark.txt" | tee -a "$log"
bench_status=${PIPESTATUS[0]}
if [ "$bench_status" != 0 ]; then say "   the benchmark exited with status $bench_status (see $log)"; fi

# --- Apple's Python library -------------------------------------------------------------------
say "== 3. Apple's Python SignedDataVerifier (load $(load))"
venv="${APPLE_PYTHON_VENV:-$root/.build/apple-python-venv}"
python=""
if [ -x "$root/Scripts/apple-python-venv.sh" ] || [ -f "$root/Scripts/apple-python-venv.sh" ]; then
  # The project's own installer (pinned version, shared with the acceptance tests).
  python="$(APPLE_PYTHON_VENV="$venv" bash "$root/Scripts/apple-python-venv.sh" 2>>"$log")" || python=""
else
  if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "import appstoreserverlibrary" 2>/dev/null; then
    python="$venv/bin/python"
  elif python3 -m venv "$venv" >>"$log" 2>&1 \
    && "$venv/bin/pip" install --quiet --disable-pip-version-check app-store-server-library >>"$log" 2>&1; then
    python="$venv/bin/python"
  fi
fi
if [ -z "$python" ]; then
  say "   could not install app-store-server-library into $venv (pip or network failed; last lines of $log:)"
  tail -5 "$log" | sed 's/^/   | /'
  say "   continuing without the Python figures"
  echo '{}' > "$out/apple-python.json"
elif ! "$python" "$root/Benchmarks/apple_python_bench.py" --sets "$sets" --set warm --set cold "${python_flags[@]}" \
  > "$out/apple-python.json" 2>>"$log"; then
  say "   apple_python_bench.py failed (see $log); continuing without the Python figures"
  echo '{}' > "$out/apple-python.json"
fi

# --- openssl speed again ----------------------------------------------------------------------
say "== 4. openssl speed again (load $(load))"
if ! speed2="$(openssl_speed)"; then say "openssl speed failed"; speed2=""; fi
say "   verify/s: P-256 ${speed2% *}, P-384 ${speed2#* }"

# --- jwsverify batch peak RSS -----------------------------------------------------------------
say "== 5. jwsverify batch peak RSS over $batch_tokens warm tokens (load $(load))"
batch_rss_kib=""
batch_rate=""
if [ -z "$cli" ] || [ ! -x "$cli" ]; then
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
    rounds=$(( (batch_tokens + per_file - 1) / per_file ))
    for ((i = 0; i < rounds; i++)); do cat "$sets/warm.ndjson"; done \
      | "$time_bin" -v -o "$out/batch-time.txt" "$cli" batch --root "$sets/root.der" --bundle-id com.example.jwsverify \
          --app-apple-id 1234 --environment Sandbox > /dev/null 2> "$out/batch-summary.txt"
    batch_status=$?
    batch_rss_kib=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$out/batch-time.txt")
    batch_rate=$(awk '/tokens\/s/ { for (i = 1; i <= NF; i++) if ($i == "tokens/s") print $(i-1) }' "$out/batch-summary.txt")
    say "   $((rounds * per_file)) tokens, exit status $batch_status, peak RSS ${batch_rss_kib:-?} KiB, ${batch_rate:-?} tokens/s"
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

warm = rate("warm")
threads = most_threads("warm")
newleaf_bound = 1 / (1 / p384 + 1 / p256) if speeds else None
cold_bound = 1 / (2 / p384 + 1 / p256) if speeds else None
apple_warm = apple.get("warm", {}).get("tokensPerCPUSecond")
apple_cold = apple.get("cold", {}).get("tokensPerCPUSecond")
targets = [
    ("warm / P-256 verify rate (1 thread, CPU)", ratio(warm, p256), 0.80, ">="),
    ("new-leaf / (1/(1/P384 + 1/P256)) (CPU)", ratio(rate("new-leaf"), newleaf_bound), 0.85, ">="),
    ("cold / (1/(2/P384 + 1/P256)) (CPU)", ratio(rate("cold"), cold_bound), 0.90, ">="),
    ("warm: ours / Apple Python (CPU)", ratio(warm, apple_warm), 50, ">="),
    ("cold: ours / Apple Python (CPU)", ratio(rate("cold"), apple_cold), None, ""),
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
    print(f"  {name.ljust(44)} {shown:>10}  {goal:>12}  {verdict}")
    summary.append({"name": name, "value": value, "target": target, "comparison": op, "verdict": verdict})
if speeds:
    print(f"\n  bounds: P-256 {fmt(p256)}/s; new-leaf bound {fmt(newleaf_bound)}/s; cold bound {fmt(cold_bound)}/s")
    # The same ratios against each openssl run alone: their spread is the noise of this machine.
    spans = []
    for name, scenario, bound in [("warm", "warm", lambda a, b: a), ("new-leaf", "new-leaf", lambda a, b: 1 / (1 / b + 1 / a)),
                                  ("cold", "cold", lambda a, b: 1 / (2 / b + 1 / a))]:
        values = [ratio(rate(scenario), bound(*s)) for s in speeds]
        if all(v is not None for v in values):
            spans.append(f"{name} {min(values):.2f}-{max(values):.2f}")
    if spans:
        print("  ratios against each openssl run alone: " + ", ".join(spans))
if threads:
    m = measurement("warm", threads)
    if m and m.get("coresUsed") is not None:
        busy = m.get("machineCoresBusy")
        print(f"  warm with {threads} threads kept {m['coresUsed']:.2f} cores busy; the machine had "
              + ("?" if busy is None else f"{busy:.2f}") + f" of {cores} busy (the rest is other load)")
with open(os.path.join(out, "compare.json"), "w") as handle:
    json.dump({"openssl": {"p256VerifyPerSecond": p256, "p384VerifyPerSecond": p384, "runs": speeds},
               "applePython": apple, "batch": {"tokens": int(batch_tokens), "peakRSSKiB": batch_rss_kib or None,
               "tokensPerSecond": batch_rate or None}, "targets": summary}, handle, indent=2)
PYTHON
say "== done: $out (benchmark.json, apple-python.json, compare.json, compare.log)"
