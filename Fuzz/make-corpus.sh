#!/usr/bin/env bash
# Seeds Fuzz/corpus/<target>/ from TestVectors/: every token (generated, Apple's, Xcode's) for the
# token targets, every payload JSON (decoded from the tokens, plus Apple's model files) for the
# JSON targets, and for receipts every real and minted receipt (base64 and DER) and its content. The corpus is not committed (Fuzz/.gitignore); libFuzzer adds what it finds to it.
#
# Usage: Fuzz/make-corpus.sh [TARGET...]   (default: all targets)
set -euo pipefail
cd "$(dirname "$0")"
vectors=../TestVectors
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(jws-parser verifier models inspect chains receipts api-responses)

tokens=("$vectors"/generated/*.jws "$vectors"/apple-library/mock_signed_data/* "$vectors"/apple-library/xcode/xcode-signed-*)

# Payload JSON of every token (and of nested tokens in notifications), one file per payload.
payloads=$(mktemp -d)
trap 'rm -rf "$payloads"' EXIT
python3 - "$payloads" "${tokens[@]}" <<'PY'
import base64, hashlib, json, sys
out, files = sys.argv[1], sys.argv[2:]
def b64(segment):
    return base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))
def emit(data):
    with open(f"{out}/{hashlib.sha1(data).hexdigest()}.json", "wb") as f:
        f.write(data)
def walk(token, depth=0):
    parts = token.strip().split(".")
    if len(parts) != 3 or depth > 2:
        return
    try:
        header, payload = b64(parts[0]), b64(parts[1])
        emit(header)
        emit(payload)
        document = json.loads(payload)
    except Exception:
        return
    def nested(value):
        if isinstance(value, dict):
            for item in value.values():
                nested(item)
        elif isinstance(value, str) and value.count(".") == 2 and value.startswith("eyJ"):
            walk(value, depth + 1)
    nested(document)
for name in files:
    with open(name, encoding="utf-8", errors="replace") as f:
        walk(f.read())
PY

for target in "${targets[@]}"; do
  dir=corpus/$target
  mkdir -p "$dir"
  case "$target" in
    verifier|inspect)
      for file in "${tokens[@]}"; do cp "$file" "$dir/$(basename "$(dirname "$file")")-$(basename "$file")"; done ;;
    jws-parser)
      for file in "${tokens[@]}"; do cp "$file" "$dir/$(basename "$(dirname "$file")")-$(basename "$file")"; done
      cp "$payloads"/*.json "$dir/" ;;
    models)
      cp "$payloads"/*.json "$dir/"
      cp "$vectors"/apple-library/models/*.json "$dir/" ;;
    chains)
      # The input is a stream of generator choices (ChainsDifferential): all zeros is the baseline
      # chain; 16 fixed pseudo-random inputs of 96 bytes start the search elsewhere.
      head -c 96 /dev/zero > "$dir/baseline"
      python3 - "$dir" <<'PY'
import random, sys
generator = random.Random(15)
for index in range(16):
    with open(f"{sys.argv[1]}/seed-{index:02d}", "wb") as f:
        f.write(bytes(generator.randrange(256) for _ in range(96)))
PY
      # x509-limbo's chain cases with one intermediate, in certificate-chain form
      # (ChainsDifferential.certificateChainMarker, CertificateChainInput): 0xC3, the validation time
      # (8 bytes, big-endian; the middle of the leaf's validity when the case has none), then leaf,
      # intermediate and roots as 2-byte lengths and DER.
      python3 - "$dir" "$vectors/x509-limbo/limbo-chain-subset.json" <<'PY'
import base64, datetime, json, re, ssl, subprocess, sys
out, path = sys.argv[1], sys.argv[2]
def der(pem):
    body = re.sub(r"-----[^-]+-----|\s", "", pem)
    return base64.b64decode(body)
def seconds(text):
    return int(datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp() // 1)
def middle(pem):
    dates = subprocess.run(["openssl", "x509", "-noout", "-startdate", "-enddate"], input=pem.encode(),
                           capture_output=True, check=True).stdout.decode().splitlines()
    parse = lambda line: ssl.cert_time_to_seconds(line.split("=", 1)[1])
    return (parse(dates[0]) + parse(dates[1])) // 2
for case in json.load(open(path))["testcases"]:
    if len(case["untrusted_intermediates"]) != 1:
        continue
    time = seconds(case["validation_time"]) if case["validation_time"] else middle(case["peer_certificate"])
    blobs = [der(case["peer_certificate"]), der(case["untrusted_intermediates"][0])]
    blobs += [der(root) for root in case["trusted_certs"]]
    data = bytes([0xC3]) + time.to_bytes(8, "big", signed=True)
    for blob in blobs:
        data += len(blob).to_bytes(2, "big") + blob
    name = re.sub(r"[^A-Za-z0-9.-]+", "-", case["id"])
    with open(f"{out}/limbo-{name}", "wb") as f:
        f.write(data)
PY
      ;;
    receipts)
      # Real receipts (App Store DER, Xcode BER, the iOS 6 plist) and the minted ones
      # (TestVectors/receipts/minted: DER, BER, SHA-1, SHA-256, Xcode, one crafted failure per check),
      # each as given, as raw bytes when given as base64, and its signed content alone (for the content
      # decoder), read with `openssl cms` (which verifies nothing here).
      receipts=("$vectors"/receipts/*.b64 "$vectors"/apple-library/xcode/xcode-app-receipt-*
        "$vectors"/receipts/minted/*.der "$vectors"/receipts/minted/*.b64)
      for file in "${receipts[@]}"; do
        name=$(basename "$file")
        cp "$file" "$dir/$name"
        der="$dir/$name.der"
        case "$file" in
          *.der) der=$file ;;
          *) tr -d ' \r\n' < "$file" | base64 -d > "$der" 2>/dev/null || rm -f "$der" ;;
        esac
        if [ -f "$der" ]; then
          openssl cms -verify -noverify -inform DER -in "$der" -out "$dir/$name.content" >/dev/null 2>&1 \
            || rm -f "$dir/$name.content"
        fi
      done ;;
    api-responses)
      # An answer per call (byte 0) and status (byte 1), then headers, an empty line and the body: each response
      # shape that carries signed items, with the generated tokens as its items (APIFuzzEntryPoints.answer).
      python3 - "$dir" "$vectors"/generated/*.jws <<'PY'
import json, sys
out, files = sys.argv[1], sys.argv[2:]
tokens = [open(name, encoding="utf-8").read().strip() for name in files][:6]
envelope = {"bundleId": "com.example.jwsverify", "appAppleId": 1234, "environment": "Sandbox"}
bodies = [
    (0, {"signedTransactionInfo": tokens[0]}),
    (1, dict(envelope, revision="r1", hasMore=True, signedTransactions=tokens[:3])),
    (2, dict(envelope, data=[{"subscriptionGroupIdentifier": "21482456", "lastTransactions": [
        {"status": 1, "signedTransactionInfo": tokens[0], "signedRenewalInfo": tokens[1]}]}])),
    (3, {"revision": "r1", "hasMore": False, "signedTransactions": tokens[:2]}),
    (4, {"paginationToken": "p1", "hasMore": True, "notificationHistory": [{"signedPayload": tokens[2]}]}),
    (5, {"signedTransactions": tokens[:2]}),
    (6, {"signedAppTransactionInfo": tokens[3]}),
]
for index, (call, body) in enumerate(bodies):
    with open(f"{out}/answer-{index}", "wb") as f:
        f.write(bytes([call, 0]) + b"Content-Type: application/json\n\n" + json.dumps(body).encode())
with open(f"{out}/error-429", "wb") as f:
    f.write(bytes([0, 3]) + b"Retry-After: 7\n\n" + b'{"errorCode": 4290000, "errorMessage": "Rate limit exceeded."}')
PY
      ;;
    *) echo "unknown target $target" >&2; exit 64 ;;
  esac
  echo "corpus/$target: $(find "$dir" -type f | wc -l) files"
done
