# Sourced, not run: the throwaway folder in which Scripts/sample-package.sh and Scripts/doc-snippets.sh build
# a package outside this repository that depends on it as README.md ("Use from Swift") says.
#
#   outside_package_begin PREFIX KEEP
#     makes $work, a new temporary folder (never inside the repository), with $work/JWSVerify a symbolic
#     link to this repository: `.package(path: "../JWSVerify")` from $work/<package> finds it, and the
#     package identity comes from the link's name. On exit the folder is removed, unless KEEP is true or
#     the script fails; then its path is printed. Needs $repo (the repository's absolute path).
#   outside_package_manifest NAME
#     prints the opening of a Swift 6 manifest for package NAME that depends on ../JWSVerify; the caller
#     appends its `targets:` and the closing `)`.

outside_package_begin() {
  local prefix=$1
  outside_package_keep=$2
  outside_package_script=$(basename "$0")
  work=$(mktemp -d "${TMPDIR:-/tmp}/$prefix.XXXXXX")
  case "$work" in
    "$repo"/*) echo "error: the temporary folder $work is inside the repository" >&2; exit 1 ;;
  esac
  trap outside_package_finish EXIT
  ln -s "$repo" "$work/JWSVerify"
}

outside_package_finish() {
  local status=$?
  if [ "$status" -ne 0 ] || [ "$outside_package_keep" = true ]; then
    echo "Scripts/$outside_package_script: the package is in $work" >&2
  else
    rm -rf "$work"
  fi
}

outside_package_manifest() {
  cat <<SWIFT
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "$1",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "../JWSVerify"),
    ],
SWIFT
}
