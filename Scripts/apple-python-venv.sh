#!/usr/bin/env bash
# Prints the path of a Python interpreter that has Apple's App Store Server Library
# (PyPI app-store-server-library), creating a virtual environment under .build/ on first use.
# Exit status 0 with the path on stdout; non-zero with the reason on stderr when it cannot.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="${APPLE_PYTHON_VENV:-$root/.build/apple-python-venv}"
version="${APPLE_PYTHON_LIBRARY_VERSION:-3.1.2}"
python="$venv/bin/python"
if [ -x "$python" ] && "$python" -c "import appstoreserverlibrary.signed_data_verifier" 2>/dev/null; then
  echo "$python"
  exit 0
fi
command -v python3 >/dev/null 2>&1 || { echo "python3 is not installed" >&2; exit 2; }
mkdir -p "$(dirname "$venv")"
# Several test processes may ask at once: one creates the environment, the others wait for it.
exec 9>"$venv.lock"
flock 9
if ! { [ -x "$python" ] && "$python" -c "import appstoreserverlibrary.signed_data_verifier" 2>/dev/null; }; then
  rm -rf "$venv"
  python3 -m venv "$venv" >&2 || { echo "python3 -m venv failed (Debian: apt-get install python3-venv)" >&2; exit 3; }
  "$venv/bin/pip" install --quiet --disable-pip-version-check "app-store-server-library==$version" >&2 \
    || { echo "pip could not install app-store-server-library==$version" >&2; exit 4; }
fi
echo "$python"
