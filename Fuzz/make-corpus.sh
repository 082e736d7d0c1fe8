#!/usr/bin/env bash
# Seeds Fuzz/corpus/<target>/ from TestVectors/: every token (generated, Apple's, Xcode's) for the
# token targets, and every payload JSON (decoded from the tokens, plus Apple's model files) for the
# JSON targets. The corpus is not committed (Fuzz/.gitignore); libFuzzer adds what it finds to it.
#
# Usage: Fuzz/make-corpus.sh [TARGET...]   (default: all targets)
set -euo pipefail
cd "$(dirname "$0")"
vectors=../TestVectors
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(jws-parser verifier models inspect chains)

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
      ;;
    *) echo "unknown target $target" >&2; exit 64 ;;
  esac
  echo "corpus/$target: $(find "$dir" -type f | wc -l) files"
done
