#!/usr/bin/env bash
# Builds a notification handler the way a user of JWSVerify would: in a throwaway package outside
# this repository that depends on it exactly as README.md ("Use from Swift") says, with
# `.package(path: "../JWSVerify")` and `.product(name: "JWSVerify", package: "JWSVerify")` (and the
# `PurchaseLedger` product, which keeps what the handler receives).
#
#   <temp>/JWSVerify            a symbolic link to this repository (the package identity comes from
#                               this path's last component, so the link's name is what counts)
#   <temp>/NotificationServer/  the user's package, Swift 6 language mode
#     Sources/NotificationServer/Handler.swift
#                               the first swift block of Docs/Receiving-notifications.md, section
#                               "6. The handler", as it stands: the code the page shows is the code
#                               that compiles (NotificationReceiver, AppleAnswer)
#     Sources/NotificationServer/main.swift
#                               a ledger on an in-memory SQLite store, a verifier for
#                               [.production, .sandbox], one request body read from stdin, the
#                               status printed
#
# Then `swift build -Xswiftc -warnings-as-errors` (the flag reaches JWSVerify too), and two requests
# whose answers do not depend on Apple's servers or the clock:
#   `{}`                                      -> 400 (malformedToken, check format)
#   Apple's mock notification (test CA, so not Apple's root) in a {"signedPayload": ...} body
#                                             -> 403 (untrustedChain)
#
# The handler uses only the async API of issue #17 (verifyAndDecodeNotification(httpBody:),
# Verified.environment, VerificationError.nestedField): until it is in the library this script fails
# at the build, and says so.
#
# Usage: Scripts/sample-package.sh [--keep]
#   --keep   leave the temporary folder in place (it is also left when a step fails)
# Exit status: 0 built and answered as expected, 1 otherwise, 64 usage.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)

# shellcheck source=Scripts/outside-package.sh
source "$repo/Scripts/outside-package.sh"
outside_package_begin jwsverify-sample "$@"
package="$work/NotificationServer"
sources="$package/Sources/NotificationServer"
mkdir -p "$sources"

{
  outside_package_manifest NotificationServer
  cat <<'SWIFT'
    targets: [
        .executableTarget(
            name: "NotificationServer",
            dependencies: [
                .product(name: "JWSVerify", package: "JWSVerify"),
                .product(name: "PurchaseLedger", package: "JWSVerify"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
SWIFT
} > "$package/Package.swift"

# Handler.swift: the handler exactly as Docs/Receiving-notifications.md shows it.
python3 - "$repo/Docs/Receiving-notifications.md" "$sources/Handler.swift" <<'PYTHON'
import sys

page, target = sys.argv[1:]
lines = open(page, encoding="utf-8").read().split("\n")
try:
    start = next(i for i, line in enumerate(lines) if line.startswith("## 6. The handler"))
    open_fence = next(i for i in range(start, len(lines)) if lines[i].strip() == "```swift")
    close_fence = next(i for i in range(open_fence + 1, len(lines)) if lines[i].strip() == "```")
except StopIteration:
    sys.exit(f"{page}: no ```swift block under '## 6. The handler'")
code = "\n".join(lines[open_fence + 1 : close_fence]) + "\n"
header = "// Copied by Scripts/sample-package.sh from Docs/Receiving-notifications.md, section 6.\n"
open(target, "w", encoding="utf-8").write(header + code)
PYTHON

cat > "$sources/main.swift" <<'SWIFT'
import Foundation
import JWSVerify
import PurchaseLedger

// One request: the body on stdin, the status Apple would get on stdout.
let verifier = try SignedDataVerifier(
    bundleId: "com.example", appAppleId: 1234, environments: [.production, .sandbox])
let receiver = NotificationReceiver(
    ledger: Ledger(store: try SQLiteLedgerStore(path: ":memory:"), verifier: verifier))
let answer = await receiver.receive(FileHandle.standardInput.readDataToEndOfFile())
print(answer.rawValue)
SWIFT

echo "== swift build -Xswiftc -warnings-as-errors in $package"
cd "$package"
if ! swift build -Xswiftc -warnings-as-errors; then
  echo "error: the sample package does not build. It needs the async API of issue #17" \
    "(verifyAndDecodeNotification(httpBody:), Verified.environment, VerificationError.nestedField)." >&2
  exit 1
fi

binary="$(swift build --show-bin-path)/NotificationServer"
failed=0
expect() {
  local name=$1 expected=$2 body=$3 answer
  answer=$(printf '%s' "$body" | "$binary" | tail -n 1)   # the handler logs refusals before the status
  if [ "$answer" = "$expected" ]; then
    echo "ok: $name -> $answer"
  else
    echo "FAIL: $name -> $answer, expected $expected" >&2
    failed=1
  fi
}
mock=$(tr -d '\n' < "$repo/TestVectors/apple-library/mock_signed_data/testNotification")
expect "body {}" 400 '{}'
expect "Apple's mock notification (test CA)" 403 "{\"signedPayload\":\"$mock\"}"
[ "$failed" -eq 0 ] || exit 1
echo "Scripts/sample-package.sh: the sample package builds with -warnings-as-errors and answers as expected"
