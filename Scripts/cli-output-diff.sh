#!/usr/bin/env bash
# Reference-output diff of two `jwsverify` binaries: runs the same ~1,000 invocations with each (verify, receipt,
# inspect, batch and mint over the real and minted tokens and receipts of TestVectors/ and over bad inputs, with
# --json, -q, --fields, --report, help screens and usage errors), records each one's stdout, stderr and exit
# status, and diffs the two records. Used to refactor the CLI without changing a byte of what it prints.
#
# Usage: bash Scripts/cli-output-diff.sh OLD_BINARY NEW_BINARY [--out DIR] [--reuse]
#   OLD_BINARY, NEW_BINARY   two builds of jwsverify (e.g. main's and a branch's)
#   --out DIR                where the fixtures and records go (default .build/cli-output-diff)
#   --reuse                  keep the fixtures and OLD_BINARY's records of an earlier run in DIR; run NEW_BINARY only
# Prints the number of cases and the diff (empty when the outputs are identical); exit 0 when identical, 1 when not.
#
# What cannot be compared byte for byte is normalized, in Scripts/cli-output-diff.py, and said there:
#   - batch's summary line "elapsed: X s, N lines/s" (time): the numbers are replaced by '#';
#   - instants of the day of the run (`--at now`), the run's own directory in absolute paths, the key order of a
#     Foundation error's userInfo, and the signatures of nested tokens in minted notifications: masked on both
#     sides when the records are compared (see `masked` in the .py file);
#   - `mint token`: the ES256 signature segment (ECDSA signatures are randomized): header.payload are compared;
#   - `mint receipt`: the opaque value and device hash are random, and so are the signature bytes: the minted
#     receipt is verified with the same binary and its JSON is compared without those two fields;
#   - `mint pki`: certificate and key files are compared by name only (the receipt PKI's RSA keys are random,
#     and certificate signatures are randomized); stdout, stderr and status are compared as they are.
# Fixtures (a seeded test PKI, tokens minted at a fixed date, a receipt PKI and receipts) are minted once with
# OLD_BINARY and shared by both runs; every case runs in a fresh directory of its own, named the same in both runs.
set -euo pipefail
[ $# -ge 2 ] || { sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 64; }
root="$(cd "$(dirname "$0")/.." && pwd)"
exec python3 "$root/Scripts/cli-output-diff.py" --repository "$root" "$@"
