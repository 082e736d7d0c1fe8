#!/usr/bin/env bash
# The bulk re-verification job (Scripts/spark/reverify.py, Docs/Bulk-reverification.md) in Spark's local mode
# on minted tokens, receipts and bad lines; fails unless every line comes back exactly once with its verdict.
#
#   bash Scripts/spark-local.sh [<jwsverify binary>] [<local_test.py options>]   the test (default binary:
#                                              .build/debug/jwsverify, which `swift test` builds; 100,000 lines)
#   bash Scripts/spark-local.sh --install-java      Java 17 from Debian when java is missing or older (apt-get)
#   bash Scripts/spark-local.sh --install-pyspark   PySpark from PyPI into .build/spark-venv
#
# .ci/run installs PySpark in the background while the tests build (about 400 MB to download on a new machine).
set -euo pipefail
cd "$(dirname "$0")/.."

venv=.build/spark-venv
pyspark_version=4.3.0

java_major() {
  java -version 2>&1 | sed -n '1s/.*version "\([0-9]*\).*/\1/p'
}

install_java() {
  if command -v java >/dev/null 2>&1 && [ "$(java_major)" -ge 17 ] 2>/dev/null; then
    return
  fi
  echo "Installing: openjdk-17-jre-headless (Spark 4 needs Java 17 or later)"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jre-headless
}

install_pyspark() {
  mkdir -p .build
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  if ! "$venv/bin/python" -c "import pyspark, sys; sys.exit(pyspark.__version__ != '$pyspark_version')" 2>/dev/null; then
    "$venv/bin/pip" install -q --disable-pip-version-check "pyspark==$pyspark_version"
  fi
}

case "${1:-}" in
  --install-java) install_java; exit ;;
  --install-pyspark) install_pyspark; exit ;;
esac

binary=${1:-.build/debug/jwsverify}
[ $# -gt 0 ] && shift
[ -x "$binary" ] || { echo "spark-local.sh: no jwsverify at '$binary' (run 'swift build' or pass the binary)" >&2; exit 1; }
install_java
install_pyspark
if [ -d /usr/lib/jvm/java-17-openjdk-amd64 ] && [ "$(java_major)" -lt 17 ] 2>/dev/null; then
  export JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64
fi

# Spark binds to loopback only; the log goes to a file and is shown when a check fails.
export SPARK_LOCAL_IP=127.0.0.1
work=.build/spark-local
log=.build/spark-local.log
start=$(date +%s)
status=0
"$venv/bin/python" Scripts/spark/local_test.py --binary "$binary" --work "$work" "$@" >"$log" 2>&1 || status=$?
grep -E '^(passed|FAILED|minted|wrote|bulk:|spark-local:)' "$log" | grep -v '^passed  reference' || true
if [ "$status" -ne 0 ]; then
  echo "spark-local.sh: failed (exit $status); the end of $log:" >&2
  grep -v '^\[Stage' "$log" | tail -40 >&2
fi
echo "spark-local.sh: $(($(date +%s) - start)) s"
rm -rf "$work"
exit "$status"
