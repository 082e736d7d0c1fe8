#!/usr/bin/env bash
# Makes a test PKI shaped like Apple's (root P-384, intermediate P-384 with 1.2.840.113635.100.6.2.1,
# leaf P-256 with 1.2.840.113635.100.6.11.1), starts one real OCSP responder per issuer with
# `openssl ocsp`, mints a signed Sandbox transaction, and waits; Ctrl-C stops the responders.
#
# Usage: Tests/ocsp-responder.sh [-d DIR] [-p ROOT_PORT] [-q INTERMEDIATE_PORT]
#                                [--revoke-leaf] [--revoke-intermediate] [--nmin N]
#
#   -d DIR                 where to write the PKI (default: a new temporary folder)
#   -p ROOT_PORT           port of the root's responder, which answers for the intermediate (8801)
#   -q INTERMEDIATE_PORT   port of the intermediate's responder, which answers for the leaf (8802)
#   --revoke-leaf          mark the leaf revoked (keyCompromise)
#   --revoke-intermediate  mark the intermediate revoked (keyCompromise)
#   --nmin N               answers carry nextUpdate = thisUpdate + N minutes (default: 1 day)
#
# Then, in another shell (the CLI, from the package folder):
#   swift run jwsverify --online --root DIR/root.pem --bundle-id com.example.ocsp \
#       --environment Sandbox DIR/token.txt
# The Swift tests in Tests/JWSVerifyTests/Revocation/ build the same PKI on their own.
set -euo pipefail

dir=""
root_port=8801
intermediate_port=8802
revoke_leaf=0
revoke_intermediate=0
validity=(-ndays 1)
while [ $# -gt 0 ]; do
    case "$1" in
    -d) dir="$2"; shift 2 ;;
    -p) root_port="$2"; shift 2 ;;
    -q) intermediate_port="$2"; shift 2 ;;
    --revoke-leaf) revoke_leaf=1; shift ;;
    --revoke-intermediate) revoke_intermediate=1; shift ;;
    --nmin) validity=(-nmin "$2"); shift 2 ;;
    -h | --help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "Error: unknown argument '$1'" >&2; exit 64 ;;
    esac
done
command -v openssl >/dev/null || { echo "Error: the openssl command-line tool is not on PATH" >&2; exit 69; }
[ -n "$dir" ] || dir="$(mktemp -d "${TMPDIR:-/tmp}/jwsverify-ocsp.XXXXXX")"
mkdir -p "$dir"
cd "$dir"

cat >pki.cnf <<EOF
[req]
distinguished_name = dn
[dn]
[root]
basicConstraints = critical,CA:true
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
[intermediate]
basicConstraints = critical,CA:true,pathlen:0
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
authorityInfoAccess = OCSP;URI:http://127.0.0.1:$root_port
1.2.840.113635.100.6.2.1 = ASN1:NULL
[leaf]
basicConstraints = critical,CA:false
keyUsage = critical,digitalSignature
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
authorityInfoAccess = OCSP;URI:http://127.0.0.1:$intermediate_port
1.2.840.113635.100.6.11.1 = ASN1:NULL
[responder]
basicConstraints = critical,CA:false
keyUsage = critical,digitalSignature
extendedKeyUsage = OCSPSigning
EOF

key() { openssl ecparam -name "$1" -genkey -noout -out "$2"; }
# issue NAME SUBJECT SERIAL SECTION ISSUER
issue() {
    openssl req -new -key "$1.key" -subj "$2" -config pki.cnf -extensions "$4" -days 30 -set_serial "$3" \
        -CA "$5.pem" -CAkey "$5.key" -out "$1.pem" 2>/dev/null
}
key secp384r1 root.key
openssl req -new -x509 -key root.key -subj "/CN=OCSP Test Root/O=JWSVerify Tests" -config pki.cnf \
    -extensions root -days 30 -set_serial 1 -out root.pem
key secp384r1 intermediate.key
issue intermediate "/CN=OCSP Test Intermediate/O=JWSVerify Tests" 0x1002 intermediate root
key prime256v1 leaf.key
issue leaf "/CN=OCSP Test Leaf/O=JWSVerify Tests" 0x1003 leaf intermediate
key prime256v1 root-responder.key
issue root-responder "/CN=OCSP Test Root Responder" 0x0101 responder root
key prime256v1 intermediate-responder.key
issue intermediate-responder "/CN=OCSP Test Intermediate Responder" 0x1101 responder intermediate

# index.txt in the format of `openssl ca`: status, expiry, revocation[,reason], serial, file, subject.
line() {
    if [ "$2" = 1 ]; then
        printf 'R\t491231235959Z\t250102030405Z,keyCompromise\t%s\tunknown\t/CN=%s\n' "$1" "$3"
    else
        printf 'V\t491231235959Z\t\t%s\tunknown\t/CN=%s\n' "$1" "$3"
    fi
}
line 1002 "$revoke_intermediate" "OCSP Test Intermediate" >root-index.txt
line 1003 "$revoke_leaf" "OCSP Test Leaf" >intermediate-index.txt

# The token: ES256 over header.payload, the DER signature turned into 64 bytes of R || S.
b64url() { openssl base64 -A | tr '+/' '-_' | tr -d '='; }
der_b64() { openssl x509 -in "$1" -outform DER | openssl base64 -A; }
header="{\"alg\":\"ES256\",\"x5c\":[\"$(der_b64 leaf.pem)\",\"$(der_b64 intermediate.pem)\",\"$(der_b64 root.pem)\"]}"
payload="{\"bundleId\":\"com.example.ocsp\",\"environment\":\"Sandbox\",\"signedDate\":$(date +%s)000,\"transactionId\":\"1\"}"
input="$(printf '%s' "$header" | b64url).$(printf '%s' "$payload" | b64url)"
printf '%s' "$input" | openssl dgst -sha256 -sign leaf.key -out signature.der
raw=""
for hex in $(openssl asn1parse -inform DER -in signature.der | sed -n 's/.*INTEGER *://p'); do
    hex="$(printf '%064s' "$hex" | tr ' ' 0)"
    raw="$raw${hex: -64}"
done
signature="$(printf '%b' "$(printf '%s' "$raw" | sed 's/../\\x&/g')" | b64url)"
printf '%s.%s\n' "$input" "$signature" >token.txt

pids=()
stop() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap stop EXIT INT TERM
openssl ocsp -index root-index.txt -port "$root_port" -rsigner root-responder.pem -rkey root-responder.key \
    -CA root.pem "${validity[@]}" -nrequest 1000 >root-responder.log 2>&1 &
pids+=($!)
openssl ocsp -index intermediate-index.txt -port "$intermediate_port" -rsigner intermediate-responder.pem \
    -rkey intermediate-responder.key -CA intermediate.pem "${validity[@]}" -nrequest 1000 \
    >intermediate-responder.log 2>&1 &
pids+=($!)

cat <<EOF
PKI and token in $dir
  root's responder (intermediate):  http://127.0.0.1:$root_port          log: $dir/root-responder.log
  intermediate's responder (leaf):  http://127.0.0.1:$intermediate_port          log: $dir/intermediate-responder.log
Ask by hand:
  openssl ocsp -issuer $dir/intermediate.pem -cert $dir/leaf.pem -url http://127.0.0.1:$intermediate_port \\
      -CAfile $dir/intermediate.pem -partial_chain -resp_text
Verify the token:
  swift run jwsverify --online --root $dir/root.pem --bundle-id com.example.ocsp --environment Sandbox $dir/token.txt
Ctrl-C stops the responders.
EOF
wait
