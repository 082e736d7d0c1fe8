#!/usr/bin/env bash
# Mutation check of Docs/Security.md ("One verdict"): each rule of the caches and the leaf check, removed on
# its own, must make the one-verdict suites fail.
#
# To build once, the script patches every mutation into the tree at the same time, each behind a switch read
# from the environment (JWS_MUTATION=<n>; unset, the code is the original), builds, runs the suites with no
# mutation (every test must pass) and then once per mutation, prints how many tests failed, and restores the
# tree (`git checkout`). Run it in a worktree of its own with a clean tree; it never commits.
#
#   Scripts/mutation-check.sh            # all mutations
#   Scripts/mutation-check.sh 3 7        # only these
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
if ! git diff --quiet; then echo "mutation-check: the tree has changes; commit or stash them first" >&2; exit 2; fi
FILTER=${FILTER:-'OneVerdict|ChainCache|IntermediateCache|ReceiptCacheAdmission|TrustStore|BoundedCache|LeafAllowList|LeafCheck|X509Limbo|ChainsDifferential|ReceiptDifferential|PipelineConsistency|Check06Trust|ReceiptCheck04'}
LOGS=${LOGS:-/tmp/mutation-check}
mkdir -p "$LOGS"
restore() { git checkout -- Sources; rm -f Sources/JWSVerify/MutationSwitch.swift; }
trap restore EXIT

python3 - <<'PY'
import re, sys
def patch(path, old, new, count=1):
    text = open(path).read()
    if text.count(old) != count:
        sys.exit(f"mutation-check: {path}: expected {count} of {old!r}, found {text.count(old)}")
    open(path, "w").write(text.replace(old, new))

open("Sources/JWSVerify/MutationSwitch.swift", "w").write(
    "import Foundation\n\n/// Mutation check only (Scripts/mutation-check.sh): the mutation JWS_MUTATION names, 0 when none.\n"
    "enum MutationSwitch {\n"
    "    static let active: Int = ProcessInfo.processInfo.environment[\"JWS_MUTATION\"].flatMap { Int($0) } ?? 0\n"
    "    static func on(_ number: Int) -> Bool { active == number }\n}\n")

# 1: the token's chain (and its intermediate) cached before the token's ES256 signature verified.
path = "Sources/JWSVerify/Verification/SignedDataVerifier+Checks.swift"
text = open(path).read()
block = re.search(r"\n(        if !remembered, chain\.isRememberable, let key = parsed\.cacheKey \{\n.*?\n        \}\n)", text, re.S)
signature = "        try SignatureCheck.check(parsed, key: chain.leafKey, recorder: &recorder)\n"
assert block and text.count(signature) == 1
body = block.group(1)
early = body.replace("if !remembered,", "if MutationSwitch.on(1), !remembered,", 1)
late = body.replace("if !remembered,", "if !MutationSwitch.on(1), !remembered,", 1)
text = text.replace(body, late).replace(signature, early + signature)
open(path, "w").write(text)

# 2: ValidityInterval inclusive of notAfter.
patch("Sources/JWSVerify/Caches/ValidityInterval.swift", "notBefore <= time && time < notAfter",
      "notBefore <= time && (MutationSwitch.on(2) ? time <= notAfter : time < notAfter)")
# 3: TrustStore.hasOneChain always true.
patch("Sources/JWSVerify/OpenSSL/TrustStore_openssl.swift",
      "    func hasOneChain(through intermediate: Certificate) -> Bool {\n",
      "    func hasOneChain(through intermediate: Certificate) -> Bool {\n        if MutationSwitch.on(3) { return true }\n")
# 4: the receipt chain cache inserts before CMS_verify (the full verification) succeeded.
path = "Sources/JWSVerify/Receipts/AppReceiptVerifier+Checks.swift"
receiptSignature = "        try ReceiptSignatureCheck.check(cms, recorder: &recorder)\n"
patch(path, receiptSignature, "        if !MutationSwitch.on(4) { try ReceiptSignatureCheck.check(cms, recorder: &recorder) }\n")
patch(path, "        return .cms(cmsSigner, chain: certificates)\n",
      "        if MutationSwitch.on(4) { try ReceiptSignatureCheck.check(cms, recorder: &recorder) }\n"
      "        return .cms(cmsSigner, chain: certificates)\n")
# 5: the receipt chain cache answers without checking that the validation time is inside the interval.
patch("Sources/JWSVerify/Caches/ReceiptChainCache.swift", "            entry.validity.contains(time)\n",
      "            (MutationSwitch.on(5) || entry.validity.contains(time))\n")
# 6: BoundedCache finds an entry by its key's digest alone, without comparing the key.
patch("Sources/JWSVerify/Caches/BoundedCache.swift", "buckets[key.digest]?.first { key.matches($0.key) }",
      "buckets[key.digest]?.first { MutationSwitch.on(6) || key.matches($0.key) }")
# 7: IntermediateCache answers outside the interval where intermediate and root are both valid.
patch("Sources/JWSVerify/Caches/IntermediateCache.swift", "entry.validity.contains(time)",
      "(MutationSwitch.on(7) || entry.validity.contains(time))")
# 8: the intermediate entry's interval without the root's part.
patch("Sources/JWSVerify/Verification/Checks/TrustAnchor.swift", "validity: intermediateValidity.intersection(rootValidity),",
      "validity: MutationSwitch.on(8) ? intermediateValidity : intermediateValidity.intersection(rootValidity),")
# 12: the chain cache answers outside its chain's interval.
patch("Sources/JWSVerify/Caches/ChainCache.swift", "let usable = entry.chain.validity.contains(time)",
      "let usable = MutationSwitch.on(12) || entry.chain.validity.contains(time)")
# 9-11: the leaf check (fastpath/leaf.c) without X509_check_issued / notBefore / the signature.
path = "Sources/CJWSOpenSSL/fastpath/leaf.c"
text = open(path).read()
first_function = text.index("\nstatic ")
text = (text[:first_function] + "\n#include <stdlib.h>\n/* Mutation check only (Scripts/mutation-check.sh). */\n"
        "static int mutation_is(int number) {\n    const char *value = getenv(\"JWS_MUTATION\");\n"
        "    return value != NULL && atoi(value) == number;\n}\n" + text[first_function:])
open(path, "w").write(text)
patch(path, "if (X509_check_issued(issuer, leaf) != X509_V_OK) {", "if (!mutation_is(9) && X509_check_issued(issuer, leaf) != X509_V_OK) {")
patch(path, "if (X509_cmp_time(X509_get0_notBefore(leaf), &when) != -1 ||",
      "if ((!mutation_is(10) && X509_cmp_time(X509_get0_notBefore(leaf), &when) != -1) ||")
patch(path, "if (signature_verifies(leaf, leaf_der, leaf_der_length, issuer_key)) {",
      "if (mutation_is(11) || signature_verifies(leaf, leaf_der, leaf_der_length, issuer_key)) {")
# 13: the leaf check without refusing an unhandled critical extension (EXFLAG_CRITICAL).
patch(path, "uint32_t refused = EXFLAG_INVALID | EXFLAG_CRITICAL | EXFLAG_PROXY | EXFLAG_SI",
      "uint32_t refused = EXFLAG_INVALID | (mutation_is(13) ? 0 : EXFLAG_CRITICAL) | EXFLAG_PROXY | EXFLAG_SI")
# 14: the leaf's extension allow-list.
patch(path, "if (!extensions_allowed(leaf, nid_is_inert, apple_leaf_marker)) {",
      "if (!mutation_is(14) && !extensions_allowed(leaf, nid_is_inert, apple_leaf_marker)) {")
# 15: the CA allow-list (intermediate and root).
patch(path, "answer = extensions_allowed(ca, nid_is_inert_on_ca, apple_intermediate_marker);",
      "answer = mutation_is(15) || extensions_allowed(ca, nid_is_inert_on_ca, apple_intermediate_marker);")
# 16: the root's part in "new leaves may take the leaf check".
patch("Sources/JWSVerify/Verification/Checks/TrustAnchor.swift",
      "checksNewLeaves: intermediate.cannotConstrainLeaves && root.cannotConstrainLeaves,",
      "checksNewLeaves: intermediate.cannotConstrainLeaves && (MutationSwitch.on(16) || root.cannotConstrainLeaves),")
# 17: check 9's point validation.
patch("Sources/JWSVerify/OpenSSL/PublicKey_openssl.swift", "var isValidP256Point: Bool { cjws_pkey_is_valid_p256(key) == 1 }",
      "var isValidP256Point: Bool { MutationSwitch.on(17) || cjws_pkey_is_valid_p256(key) == 1 }")
PY

swift build --build-tests >"$LOGS/build.log" 2>&1 || { tail -30 "$LOGS/build.log"; exit 1; }
run() {  # $1: mutation number (0: none). Prints the number of failing tests.
    JWS_MUTATION=$1 swift test --skip-build --filter "$FILTER" >"$LOGS/m$1.log" 2>&1 || true
    local failed
    # `|| true`: with no failing test grep finds nothing, which `set -o pipefail` would make fatal.
    failed=$( { grep -E '^✘ Test ".*failed after' "$LOGS/m$1.log" || true; } \
        | sed -E 's/^✘ Test "(.*)"( with [0-9]+ test cases?)? failed after.*/\1/' | sort -u | wc -l)
    echo "mutation $1: $failed failing tests ($(grep -E '^(✔|✘) Test run' "$LOGS/m$1.log" | tail -1))"
}
MUTATIONS=("$@")
[ ${#MUTATIONS[@]} -gt 0 ] || MUTATIONS=(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17)
for m in "${MUTATIONS[@]}"; do run "$m"; done
