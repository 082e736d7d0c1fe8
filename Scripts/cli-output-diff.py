#!/usr/bin/env python3
"""The cases and runner of Scripts/cli-output-diff.sh (read its header first).

Each case is one shell command line in which $JWS is the binary under test, run with `bash -o pipefail -c` in a
directory of its own run (run-old/ or run-new/) that links the fixtures as fx/ and TestVectors/ as tv/; its stdout,
stderr and exit status are recorded, normalized where a case says so, and the two runs' records are compared.
"""
import argparse
import datetime
import base64
import difflib
import json
import os
import re
import shutil
import subprocess
import sys

parser = argparse.ArgumentParser()
parser.add_argument("--repository", required=True)
parser.add_argument("old")
parser.add_argument("new")
parser.add_argument("--out", default=None)
parser.add_argument("--reuse", action="store_true",
                    help="keep the fixtures and OLD_BINARY's records of an earlier run in --out; run NEW_BINARY only")
args = parser.parse_args()
repo = args.repository
out = os.path.abspath(args.out or os.path.join(repo, ".build", "cli-output-diff"))
old, new = os.path.abspath(args.old), os.path.abspath(args.new)
fx = os.path.join(out, "fixtures")
tv = os.path.join(repo, "TestVectors")

# ---------------------------------------------------------------------------------------------------------------
# Fixtures, minted once with the old binary.


def sh(command, cwd):
    return subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=cwd, env={**os.environ, "JWS": old},
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)


reuse = args.reuse and os.path.exists(os.path.join(out, "run-old.json"))
if reuse:
    shutil.rmtree(os.path.join(out, "run-new"), ignore_errors=True)
else:
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(fx)
setup = [
    "$JWS mint pki --out pki --seed 7",
    "$JWS mint pki --receipt --out rpki",
]
kinds = ["transaction", "renewal", "app-transaction", "notification", "realtime"]
fixed = "--seed 3 --signed-date 2026-01-01T00:00:00Z"
for kind in kinds:
    setup.append(f"$JWS mint token --pki pki --kind {kind} {fixed} > tok-{kind}.jws")
    setup.append(f"$JWS mint token --pki pki --kind {kind} {fixed} --environment Production > prod-{kind}.jws")
notes = {"RESCIND_CONSENT": "--type RESCIND_CONSENT", "TEST": "--type TEST",
         "SUMMARY": "--type RENEWAL_EXTENSION --subtype SUMMARY",
         "EXTERNAL_PURCHASE_TOKEN": "--type EXTERNAL_PURCHASE_TOKEN", "DID_RENEW": "--type DID_RENEW"}
for name, flags in notes.items():
    setup.append(f"$JWS mint token --pki pki --kind notification {flags} {fixed} > note-{name}.jws")
setup.append(f"$JWS mint token --pki pki --kind transaction {fixed} --count 5 > five.jws")
setup.append(f"$JWS mint token --pki pki --kind transaction {fixed} --set bundleId=other.app > otherbundle.jws")
setup.append("$JWS mint token --pki pki --kind transaction --seed 3 --signed-date 2001-01-01T00:00:00Z > old.jws")
created = "--created 2026-01-01T00:00:00Z"
setup += [
    f"$JWS mint receipt --pki rpki {created} > r-plain.b64",
    f"$JWS mint receipt --pki rpki {created} --purchase com.example.a --purchase com.example.b,42,41,2026-07-01T00:00:00Z > r-two.b64",
    f"$JWS mint receipt --pki rpki {created} --environment Production --app-apple-id 99 > r-prod.b64",
    f"$JWS mint receipt --pki rpki {created} --device-guid E621E1F8-C36C-495A-93FC-0C247A3E6E5F > r-device.b64",
    f"$JWS mint receipt --pki rpki {created} --digest sha1 --format der --out r-sha1.der",
    f"$JWS mint receipt --pki rpki {created} --xcode --purchase x.y > r-xcode.b64",
    f"$JWS mint receipt --pki rpki {created} --bundle-id wrong.bundle > r-wrongbundle.b64",
    f"$JWS mint receipt --pki rpki --created 2001-01-01T00:00:00Z > r-old.b64",
]
for command in [] if reuse else setup:
    result = sh(command, fx)
    if result.returncode != 0:
        sys.exit(f"fixture command failed: {command}\n{result.stderr.decode(errors='replace')}")


def write(name, data):
    if reuse:
        return
    with open(os.path.join(fx, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def read(path):
    with open(path, "rb") as f:
        return f.read()


token = read(os.path.join(fx, "tok-transaction.jws")).decode().strip()
note = read(os.path.join(fx, "tok-notification.jws")).decode().strip()
real_receipt = b"".join(read(os.path.join(tv, "receipts", "04_sandbox_2025_sha256-G5_2iap_tpinappreceipt.b64")).split()).decode()
minted_receipt = read(os.path.join(fx, "r-two.b64")).decode().strip()
write("garbage.txt", "this is not a token\n")
write("empty.txt", "")
write("spaces.txt", "  \n\t\n")
write("truncated.jws", token[: len(token) // 2] + "\n")
write("truncated-receipt.b64", real_receipt[:600] + "\n")
write("binary.bin", bytes(range(256)) * 4)
write("flipped.jws", token[:-2] + ("A" if token[-2] != "A" else "B") + token[-1] + "\n")
write("two-segments.jws", ".".join(token.split(".")[:2]) + "\n")
write("token-object.json", json.dumps({"token": token, "id": 7}))
write("signed-payload.json", json.dumps({"signedPayload": note}))
write("quoted.json", json.dumps(token))
write("receipt-body.json", json.dumps({"receipt-data": real_receipt, "password": "secret"}))
write("receipt-body-empty.json", json.dumps({"receipt-data": ""}))
write("receipt-body-number.json", '{"receipt-data": 12}')
write("object-no-token.json", '{"id": 1, "other": "x"}')
write("json-array.json", "[1, 2, 3]")
write("long-line.txt", "a" * 70000 + "\n")
write("receipt-der.der", base64.b64decode(real_receipt))
write("payload.json", json.dumps({"quantity": 3, "storefront": "FRA"}))
write("payload-bad.json", "[1]")
write("not-a-cert.der", "not a certificate")
write("empty-cert.der", "")

# Batch inputs.
real_b64 = {}
for name in sorted(os.listdir(os.path.join(tv, "receipts"))):
    if name.endswith(".b64"):
        real_b64[name] = b"".join(read(os.path.join(tv, "receipts", name)).split()).decode()
generated = sorted(n for n in os.listdir(os.path.join(tv, "generated")) if n.endswith(".jws"))
write("b-generated.ndjson", "".join(read(os.path.join(tv, "generated", n)).decode().strip() + "\n" for n in generated))
mixed = [
    token,
    json.dumps({"token": token, "id": 1}),
    json.dumps({"signedPayload": note, "id": "a"}),
    json.dumps(token),
    "garbage line",
    "",
    "   ",
    real_receipt,
    json.dumps({"receipt-data": real_receipt, "password": "p", "id": 2}),
    '{"receipt-data": "' + real_receipt + '", "id": 9223372036854775808}',
    '{"receipt-data": "' + real_receipt + '", "id": 9223372036854775809}',
    '{"token": "' + token + '", "id": "\\ud800"}',
    '{"token": "' + token + '", "id": "\\udbff"}',
    '{"token": "' + token + '", "id": 1.0e3}',
    '{"token": "' + token + '", "id": -0}',
    '{"token": "' + token + '", "id": null}',
    '{"token": "' + token + '", "id": true}',
    '{"token": "' + token + '", "id": {"a": 1}}',
    '{"token": "' + token + '", "id": [1]}',
    '{"token": "' + token[:40],
    '{"token": 5}',
    '{"receipt-data": 5, "id": 3}',
    '{"receipt-data": "", "id": 4}',
    '{"id": 5}',
    minted_receipt,
    json.dumps({"receipt-data": minted_receipt, "id": "minted"}),
    real_b64["12_ios6-transaction-receipt_sandbox_appreceiptvalidator.b64"],
    real_b64["06_sandbox_2020_sha1_187iap_tpinappreceipt.b64"],
    real_receipt[:500],
    "M" + "A" * 3000,
    "x" * 70000,
    token[:-3],
    read(os.path.join(fx, "prod-transaction.jws")).decode().strip(),
    read(os.path.join(fx, "otherbundle.jws")).decode().strip(),
    read(os.path.join(fx, "old.jws")).decode().strip(),
    read(os.path.join(tv, "generated", "chain-wrong-root.jws")).decode().strip(),
    read(os.path.join(fx, "note-RESCIND_CONSENT.jws")).decode().strip(),
    read(os.path.join(fx, "tok-realtime.jws")).decode().strip(),
    "\t" + token + "  ",
]
write("b-mixed.ndjson", "\n".join(mixed) + "\n")
write("b-mixed-binary.ndjson", "\n".join(mixed[:3]).encode() + b"\n\xff\xfe\x00bin\n" + token.encode())
write("b-receipts.ndjson", "".join(v + "\n" for v in real_b64.values()) + minted_receipt + "\n")
write("b-tokens.ndjson", "".join(read(os.path.join(fx, f"tok-{k}.jws")).decode() for k in kinds))
write("b-blank.ndjson", "\n\n")

# ---------------------------------------------------------------------------------------------------------------
# Cases.

cases = []  # (name, command, normalizer)


def case(command, normalize=None):
    cases.append((f"{len(cases):04d}", command, normalize))


GEN = "--root tv/generated/root.der --bundle-id com.example.jwsverify --app-apple-id 1234 --environment Sandbox"
PKI = "--root fx/pki/root.der --bundle-id com.example.jwsverify --environment Sandbox"
RPKI = "--root fx/rpki/root.der --bundle-id com.example.jwsverify"
MINTED = "--root tv/receipts/minted/pki/root.der --bundle-id com.example.receipts"
XCODE_TOKEN = "--environment Xcode --xcode-certificate tv/apple-library/xcode/StoreKitTestCertificate.cer"
XCODE_RECEIPT = "--environment Xcode --xcode-certificate tv/apple-library/xcode/StoreKitReceiptCertificate.cer"
APPLE = "--root tv/apple-library/certs/testCA.der"

# Help, version and usage errors.
subcommands = ["", "verify", "receipt", "inspect", "batch", "mint", "mint pki", "mint token", "mint receipt"]
for sub in subcommands:
    case(f"$JWS {sub} --help")
    case(f"$JWS {sub} -h")
    case(f"$JWS help {sub}")
for command in [
    "--version", "verify --version", "help nothing", "nothing-here", "--bogus", "verify --bogus", "receipt --bogus",
    "inspect --bogus", "batch --bogus", "mint", "mint --bogus", "mint nothing", "mint pki", "mint token",
    "mint receipt", "--root", "--kind", "--kind bogus", "--at yesterday", "--at now --online",
    "--environment bogus", "--environment Sandbox --environment LocalTesting", "--environment sandbox fx/garbage.txt",
    "--app-apple-id -1", "--app-apple-id x", "--bundle-id", "--xcode-certificate x.cer", "a b", "-- --json",
    "--json=yes fx/garbage.txt", "--json --json fx/garbage.txt", "-qx", "receipt a b", "receipt --device-guid zz",
    "receipt --device-guid " + "00" * 65, "receipt --xcode-certificate x", "inspect a b", "inspect --kind x",
    "batch --report x", "batch --fields bogus", "batch --fields 'verified,bogus'", "batch a b",
    "mint pki --out", "mint pki --out p --seed x", "mint pki --out p --receipt --seed 1", "mint pki x --out p",
    "mint token --pki fx/pki", "mint token --kind transaction", "mint token --pki fx/pki --kind bogus",
    "mint token --pki fx/pki --kind transaction --type DID_RENEW",
    "mint token --pki fx/pki --kind notification --type BOGUS",
    "mint token --pki fx/pki --kind notification --subtype BOGUS",
    "mint token --pki fx/pki --kind transaction --count 0", "mint token --pki fx/pki --kind transaction --count x",
    "mint token --pki fx/pki --kind transaction --set nothing",
    "mint token --pki fx/pki --kind transaction --signed-date signed",
    "mint token --pki fx/pki --kind transaction --environment Xcode",
    "mint receipt --pki fx/rpki --xcode --environment Sandbox", "mint receipt --pki fx/rpki --purchase ,1",
    "mint receipt --pki fx/rpki --digest md5", "mint receipt --pki fx/rpki --format pem",
    "mint receipt --pki fx/rpki --created then", "mint receipt --pki fx/rpki --app-version ''",
    "mint receipt --pki fx/rpki --purchase a,b,c,notadate", "mint receipt", "mint receipt x --pki fx/rpki",
    "--online --at 2020-01-01 fx/garbage.txt",
]:
    case(f"$JWS {command}")

# Verify over the generated vectors: configured, --json, -q, the bundled root, --at now, wrong claims; inspect.
for name in generated:
    path = f"tv/generated/{name}"
    case(f"$JWS {GEN} {path}")
    case(f"$JWS {GEN} --json {path}")
    case(f"$JWS verify {GEN} -q {path}")
    case(f"$JWS {path}")
    case(f"$JWS {GEN} --json --at now {path}")
    case(f"$JWS --root tv/generated/root.der --bundle-id wrong.app --environment Production --app-apple-id 1 {path}")
    case(f"$JWS inspect {path}")
    case(f"$JWS inspect --json {path}")

# Apple's test data.
for name in sorted(os.listdir(os.path.join(tv, "apple-library", "mock_signed_data"))):
    path = f"tv/apple-library/mock_signed_data/{name}"
    for flags in ["", APPLE, f"{APPLE} --json", f"{APPLE} --environment LocalTesting", f"{APPLE} --at now",
                  f"{APPLE} --bundle-id com.example --environment Sandbox", "--environment LocalTesting --json"]:
        case(f"$JWS {flags} {path}")
    case(f"$JWS inspect {path}")
    case(f"$JWS inspect --json {path}")
for name in ["xcode-signed-app-transaction", "xcode-signed-renewal-info", "xcode-signed-transaction"]:
    path = f"tv/apple-library/xcode/{name}"
    for flags in [XCODE_TOKEN, f"{XCODE_TOKEN} --json", "--environment Xcode", "", f"{XCODE_TOKEN} --at now",
                  f"{XCODE_TOKEN} --bundle-id other", "--environment LocalTesting"]:
        case(f"$JWS {flags} {path}")
    case(f"$JWS inspect {path}")

# Minted tokens.
minted_tokens = [f"fx/tok-{k}.jws" for k in kinds] + [f"fx/prod-{k}.jws" for k in kinds] + [
    f"fx/note-{t}.jws" for t in ["RESCIND_CONSENT", "TEST", "SUMMARY", "EXTERNAL_PURCHASE_TOKEN", "DID_RENEW"]] + [
    "fx/otherbundle.jws", "fx/old.jws"]
for path in minted_tokens:
    for flags in [PKI, f"{PKI} --json", "--root fx/pki/root.der", "--root fx/pki/root.der --json",
                  "--root fx/pki/root.der --environment Production --app-apple-id 1234",
                  "--root fx/pki/root.der --environment Production --environment Sandbox --app-apple-id 1234 --json",
                  f"{PKI} --kind renewal", f"{PKI} --at 2030-01-01", "--root tv/generated/root.der"]:
        case(f"$JWS {flags} {path}")
    case(f"$JWS inspect {path}")
    case(f"$JWS inspect --json {path}")
    case(f"$JWS inspect --kind transaction {path}")

# Receipts: the real ones, the minted vectors, Apple's Xcode receipts, this run's minted ones.
receipts = [f"tv/receipts/{n}" for n in sorted(real_b64)]
receipts += [f"tv/receipts/minted/{n}" for n in sorted(os.listdir(os.path.join(tv, "receipts", "minted")))
             if n.endswith((".der", ".b64"))]
receipts += ["tv/apple-library/xcode/xcode-app-receipt-empty", "tv/apple-library/xcode/xcode-app-receipt-with-transaction"]
receipts += [f"fx/{n}" for n in ["r-plain.b64", "r-two.b64", "r-prod.b64", "r-device.b64", "r-sha1.der",
                                  "r-xcode.b64", "r-wrongbundle.b64", "r-old.b64", "receipt-der.der",
                                  "receipt-body.json"]]
for path in receipts:
    case(f"$JWS receipt {path}")
    case(f"$JWS receipt --json {path}")
    case(f"$JWS receipt {MINTED} --environment Sandbox {path}")
    case(f"$JWS receipt {RPKI} --json {path}")
    case(f"$JWS receipt {RPKI} --environment Production --app-apple-id 99 {path}")
    case(f"$JWS receipt --bundle-id dev.bonzer.weeka.app --environment Sandbox --at now {path}")
    case(f"$JWS receipt {XCODE_RECEIPT} {path}")
    case(f"$JWS receipt --xcode-certificate fx/rpki/storekit.der --environment Xcode --json {path}")
    case(f"$JWS receipt --device-guid E621E1F8-C36C-495A-93FC-0C247A3E6E5F {RPKI} {path}")
    case(f"$JWS inspect {path}")
    case(f"$JWS inspect --json {path}")
    case(f"$JWS {path}")

# Bad inputs to every reading command.
bad = ["fx/garbage.txt", "fx/empty.txt", "fx/spaces.txt", "fx/truncated.jws", "fx/truncated-receipt.b64",
       "fx/binary.bin", "fx/flipped.jws", "fx/two-segments.jws", "fx/token-object.json", "fx/signed-payload.json",
       "fx/quoted.json", "fx/receipt-body-empty.json", "fx/receipt-body-number.json", "fx/object-no-token.json",
       "fx/json-array.json", "fx/long-line.txt", "fx/missing-file", "fx", "-"]
for path in bad:
    case(f"$JWS {PKI} {path} < fx/garbage.txt")
    case(f"$JWS {PKI} --json {path} < fx/garbage.txt")
    case(f"$JWS receipt {path} < fx/garbage.txt")
    case(f"$JWS receipt --json {path} < fx/garbage.txt")
    case(f"$JWS inspect {path} < fx/garbage.txt")
    case(f"$JWS inspect --json {path} < fx/garbage.txt")
    case(f"$JWS batch {PKI} {path} < fx/garbage.txt", "batch")
# Standard input.
case(f"$JWS {PKI} < fx/tok-transaction.jws")
case(f"$JWS {PKI} - < fx/tok-notification.jws")
case(f"$JWS {PKI} < fx/empty.txt")
case(f"$JWS receipt < tv/receipts/04_sandbox_2025_sha256-G5_2iap_tpinappreceipt.b64")
case(f"$JWS receipt - < fx/receipt-der.der")
case(f"$JWS receipt < fx/empty.txt")
case(f"$JWS inspect < fx/tok-notification.jws")
case(f"$JWS inspect - < fx/receipt-body.json")
# Certificate options.
for flags in ["--root fx/missing.der", "--root fx/not-a-cert.der", "--root fx/empty-cert.der", "--root fx",
              "--root fx/pki/root.pem", "--root fx/pki/leaf.der", "--root fx/pki/root.key.pem",
              "--root tv/apple-roots/AppleIncRootCertificate.cer", "--root tv/apple-roots/AppleRootCA-G3.cer",
              "--root fx/pki/root.der --root tv/generated/root.der",
              "--environment Xcode --xcode-certificate fx/missing.der",
              "--environment Xcode --xcode-certificate fx/not-a-cert.der",
              "--environment Xcode --xcode-certificate fx/pki/root.der",
              "--environment Production", "--environment LocalTesting --root fx/pki/root.der"]:
    case(f"$JWS {flags} fx/tok-transaction.jws")
    case(f"$JWS receipt {flags} fx/r-plain.b64")
    case(f"$JWS batch {flags} fx/b-tokens.ndjson", "batch")

# Batch.
batch_files = ["fx/b-generated.ndjson", "fx/b-mixed.ndjson", "fx/b-mixed-binary.ndjson", "fx/b-receipts.ndjson",
               "fx/b-tokens.ndjson", "fx/b-blank.ndjson", "fx/empty.txt", "fx/five.jws"]
batch_flags = ["", GEN, PKI, f"{PKI} --report full", f"{PKI} --fields verified,code,id", f"{PKI} --fields payload",
               f"{PKI} -q", f"{PKI} --json", f"{PKI} --kind transaction", RPKI, f"{RPKI} --report full",
               "--bundle-id dev.bonzer.weeka.app --environment Sandbox", "--environment Production --app-apple-id 1",
               f"{PKI} --at now", "--environment LocalTesting", f"{PKI} --environment Xcode", MINTED,
               f"{PKI} --report full --fields checks,kind"]
for path in batch_files:
    for flags in batch_flags:
        case(f"$JWS batch {flags} {path}", "batch")
case(f"$JWS batch {PKI} < fx/b-mixed.ndjson", "batch")
case(f"$JWS batch {PKI} - < fx/b-mixed.ndjson", "batch")
case(f"cat fx/b-receipts.ndjson fx/b-receipts.ndjson | $JWS batch", "batch")
for flags in batch_flags[:8]:
    case(f"$JWS batch {flags} fx/b-mixed.ndjson | head -c 300000 | tail -c 2000", "batch")

# Mint: tokens (signature normalized), receipts (verified, random fields normalized), PKIs (file names).
for kind in kinds:
    for flags in [fixed, f"{fixed} --environment Production", f"{fixed} --bundle-id a.b --product-id p.q",
                  f"{fixed} --count 3", f"{fixed} --set quantity=2 --set data.status=2",
                  f"{fixed} --payload fx/payload.json", f"{fixed} --app-apple-id 5"]:
        case(f"$JWS mint token --pki fx/pki --kind {kind} {flags}", "tokens")
    case(f"$JWS mint token --pki fx/pki --kind {kind} {fixed} | $JWS {PKI} --json -", None)
for flags in ["--type DID_RENEW --subtype BILLING_RECOVERY", "--type TEST", "--subtype VOLUNTARY",
              "--type REFUND", "--set notificationType=NEW_THING"]:
    case(f"$JWS mint token --pki fx/pki --kind notification {fixed} {flags}", "tokens")
for command in [
    "mint token --pki fx/missing --kind transaction", "mint token --pki fx/garbage.txt --kind transaction",
    "mint token --pki fx/rpki --kind transaction", "mint token --pki tv --kind transaction",
    f"mint token --pki fx/pki --kind transaction {fixed} --payload fx/missing.json",
    f"mint token --pki fx/pki --kind transaction {fixed} --payload fx/payload-bad.json",
    f"mint token --pki fx/pki --kind transaction {fixed} --payload fx/binary.bin",
    f"mint token --pki fx/pki --kind transaction {fixed} --set a.b=1 --set a=2",
    "mint receipt --pki fx/missing", "mint receipt --pki fx/garbage.txt", "mint receipt --pki fx/pki",
    "mint receipt --pki fx/pki --xcode", "mint receipt --pki fx/rpki --out fx/missing-dir/r.b64",
]:
    case(f"$JWS {command}", "tokens")
mask = "grep -v -e opaque_value -e sha1_hash -e '\"der\"' -e fingerprint -e serial"
for flags in ["", "--purchase a --purchase b,1,2,2026-07-01T00:00:00Z", "--environment Production",
              "--digest sha1", "--app-version 2.0 --bundle-id x.y", "--device-guid 0a:1b:2c:3d:4e:5f",
              "--purchase " + ",".join(["p"])]:
    case(f"$JWS mint receipt --pki fx/rpki {created} {flags} | $JWS receipt {RPKI} --json - | {mask}")
case(f"$JWS mint receipt --pki fx/rpki {created} --xcode | $JWS receipt --environment Xcode"
     f" --xcode-certificate fx/rpki/storekit.der --json - | {mask}")
case(f"$JWS mint receipt --pki fx/rpki {created} --format der --out r.der && $JWS receipt {RPKI} r.der | {mask}")
case(f"$JWS mint receipt --pki fx/rpki {created} --format der | $JWS inspect --json - | {mask}")
for command in ["mint pki --out p --seed 1", "mint pki --out p", "mint pki --out p --receipt",
                "mint pki --out fx/garbage.txt", "mint pki --out p --seed 1 --force"]:
    case(f"$JWS {command}; status=$?; ls p 2>&1; exit $status")
case("$JWS mint pki --out p --seed 1 > /dev/null; $JWS mint pki --out p --seed 1")
case("$JWS mint pki --out p --seed 1 > /dev/null; $JWS mint pki --out p --seed 2 --force; md5sum p/*.key.pem")
case("$JWS mint pki --out p --receipt > /dev/null; $JWS mint pki --out p --receipt")
case("mkdir q && touch q/root.der && $JWS mint pki --out q --seed 1")

# ---------------------------------------------------------------------------------------------------------------
# Runs.

def normalize(kind, stdout, stderr):
    if kind == "batch":
        stderr = re.sub(rb"elapsed: [0-9.]+ s, [0-9]+ (tokens|lines)/s", b"elapsed: # s, # lines/s", stderr)
    if kind == "tokens":
        stdout = b"\n".join(b".".join(line.split(b".")[:2]) for line in stdout.split(b"\n"))
    return stdout, stderr


def run(binary, label):
    directory = os.path.join(out, f"run-{label}")
    records = {}
    os.makedirs(directory)
    for name, command, kind in cases:
        cwd = os.path.join(directory, name)
        os.makedirs(cwd)
        os.symlink(fx, os.path.join(cwd, "fx"))
        os.symlink(tv, os.path.join(cwd, "tv"))
        try:
            result = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=cwd,
                                    env={**os.environ, "JWS": binary}, stdin=subprocess.DEVNULL,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
            stdout, stderr = normalize(kind, result.stdout, result.stderr)
            status = result.returncode
        except subprocess.TimeoutExpired:
            stdout, stderr, status = b"", b"", "timeout"
        records[name] = (stdout, stderr, status)
        with open(os.path.join(directory, name + ".txt"), "wb") as f:
            f.write(f"$ {command}\nstatus {status}\n--- stdout\n".encode() + stdout + b"\n--- stderr\n" + stderr)
    return records


if reuse:
    with open(os.path.join(out, "run-old.json")) as f:
        old_records = {k: (bytes.fromhex(a), bytes.fromhex(b), c) for k, (a, b, c) in json.load(f).items()}
else:
    old_records = run(old, "old")
    with open(os.path.join(out, "run-old.json"), "w") as f:
        json.dump({k: (a.hex(), b.hex(), c) for k, (a, b, c) in old_records.items()}, f)
new_records = run(new, "new")
# What differs between two runs of the same binary, masked on both sides when the records are compared:
# - instants of the day of the run (`--at now`, payloads without a signed date): '<today>' (the two runs may be
#   minutes apart; no fixture is dated today);
# - the run's own directory (absolute paths that `mint pki` prints and that Foundation errors name);
# - the userInfo dictionary of a Foundation error (its keys print in hash order);
# - a minted receipt's random opaque value and device hash (text output);
# - the ES256 signature of a token, also of a nested token inside a minted notification's payload (ECDSA
#   signatures are randomized): header and payload are compared.
today = re.escape(datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d").encode())
jws = re.compile(r"^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$")


def unsigned(value):
    if isinstance(value, dict):
        return {key: unsigned(member) for key, member in value.items()}
    if isinstance(value, list):
        return [unsigned(element) for element in value]
    if isinstance(value, str) and jws.match(value):
        return ".".join(value.split(".")[:2])
    return value


def unsigned_line(line):
    segments = line.split(b".")
    if len(segments) < 2 or not segments[0].startswith(b"eyJ"):
        return line
    try:
        payload = json.loads(base64.urlsafe_b64decode(segments[1] + b"=" * (-len(segments[1]) % 4)))
    except Exception:
        return line
    return segments[0] + b"." + json.dumps(unsigned(payload), sort_keys=True).encode()


def masked(record, kind):
    def mask(part):
        part = re.sub(rb"\b" + today + rb"T\d\d:\d\d:\d\d(\.\d+)?Z", b"<today>", part)
        part = re.sub(rb"/run-(old|new)/", b"/run-X/", part)
        part = re.sub(rb"UserInfo=\{.*\}", b"UserInfo={...}", part)
        part = re.sub(rb"(opaque value|SHA-1 hash):( +)[0-9A-F]+", rb"\1:\2<random>", part)
        part = re.sub(rb"(eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+)\.[A-Za-z0-9_-]+", rb"\1", part)
        if kind == "tokens":
            part = b"\n".join(unsigned_line(line) for line in part.split(b"\n"))
        return part
    return tuple(mask(part) if isinstance(part, bytes) else part for part in record)


differing = 0
for name, command, kind in cases:
    if masked(old_records[name], kind) == masked(new_records[name], kind):
        continue
    differing += 1
    a = open(os.path.join(out, "run-old", name + ".txt"), "rb").read().decode(errors="replace").splitlines()
    b = open(os.path.join(out, "run-new", name + ".txt"), "rb").read().decode(errors="replace").splitlines()
    sys.stdout.writelines(line + "\n" for line in difflib.unified_diff(a, b, f"old/{name}", f"new/{name}", n=1))
print(f"cli-output-diff: {len(cases)} cases, {differing} differ (records in {out})")
sys.exit(1 if differing else 0)
