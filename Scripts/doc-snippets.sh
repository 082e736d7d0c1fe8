#!/usr/bin/env bash
# Compiles every ```swift block of the documentation (README.md, Docs/*.md, the DocC catalog, and the `///`
# comments of Sources/) in one package outside this repository that depends on it as README.md says, in the
# Swift 6 language mode with warnings as errors, and loads every manifest shown (README.md's).
#
#   <temp>/JWSVerify          a symbolic link to this repository (Scripts/outside-package.sh)
#   <temp>/DocSnippets/       the package: one library target per block, or per group of blocks, each a
#                             main.swift written by Scripts/doc-snippets/extract.py; SnippetSupport (the
#                             reader's own names: `grant`, `receiptBase64`, ...); the stand-ins of
#                             Scripts/doc-snippets/StandIns/ (Vapor, Hummingbird, Apple's
#                             AppStoreServerLibrary) that blocks importing those modules compile against
#   <temp>/Manifest-*/        each manifest block, for `swift package dump-package`
#
# Each block is its own module, so blocks never clash. Markers, HTML comments right above a block (invisible
# when the Markdown is rendered), say otherwise:
#   <!-- snippet: group NAME... -->   compile it with the other blocks of group NAME, in reading order, across
#                                     pages (a block that continues another, or uses a type another declares)
#   <!-- snippet: before / after      hidden code around it (the function a fragment returns from, a stand-in
#   SWIFT -->                         for the reader's own type)
#   <!-- snippet: skip REASON -->     not compiled (an excerpt with "…"); listed with its reason
# The details are in Scripts/doc-snippets/extract.py. Compiler messages name the page and line of the block
# (`#sourceLocation`). A new page in Docs/ is compiled by being there.
#
# Usage: Scripts/doc-snippets.sh [--keep]
#   --keep   leave the temporary folder in place (it is also left when a step fails)
# Exit status: 0 everything compiled, 1 otherwise, 64 usage.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)

# shellcheck source=Scripts/outside-package.sh
source "$repo/Scripts/outside-package.sh"
outside_package_begin jwsverify-doc-snippets "$@"
package="$work/DocSnippets"
mkdir -p "$package"
outside_package_manifest DocSnippets > "$package/Package.swift"
python3 "$repo/Scripts/doc-snippets/extract.py" "$repo" "$package" "$repo/Scripts/doc-snippets/StandIns"

failed=0
while IFS=$'\t' read -r folder where; do
  if (cd "$folder" && swift package dump-package > /dev/null); then
    echo "ok: the manifest at $where loads"
  else
    echo "FAIL: the manifest at $where does not load (package in $folder)" >&2
    failed=1
  fi
done < "$package/manifests.txt"

echo "== swift build -Xswiftc -warnings-as-errors in $package"
if ! (cd "$package" && swift build -Xswiftc -warnings-as-errors); then
  echo "error: a documentation snippet does not compile (the messages above name its page and line)" >&2
  exit 1
fi
[ "$failed" -eq 0 ] || exit 1
echo "Scripts/doc-snippets.sh: every swift block of the documentation compiles with -warnings-as-errors"
