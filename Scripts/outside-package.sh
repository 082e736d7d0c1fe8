# Sourced, not run: the throwaway folder in which Scripts/sample-package.sh and Scripts/doc-snippets.sh build
# a package outside this repository that depends on it as README.md ("Use from Swift") says.
#
#   outside_package_begin PREFIX "$@"
#     reads the script's arguments (`--keep`; `-h`/`--help` prints the script's opening comment; anything
#     else is a usage error, exit 64), then makes $work, a new temporary folder (never inside the
#     repository), with $work/JWSVerify a symbolic link to this repository: `.package(path: "../JWSVerify")`
#     from $work/<package> finds it, and the package identity comes from the link's name. On exit the
#     folder is removed, unless --keep was given or the script fails; then its path is printed. Needs
#     $repo (the repository's absolute path).
#   outside_package_manifest NAME
#     prints the opening of a Swift 6 manifest for package NAME that depends on ../JWSVerify; the caller
#     appends its `targets:` and the closing `)`.

outside_package_begin() {
  local prefix=$1 argument
  shift
  outside_package_keep=false
  for argument in "$@"; do
    case "$argument" in
      --keep) outside_package_keep=true ;;
      -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
      *) echo "error: unknown argument '$argument'" >&2; exit 64 ;;
    esac
  done
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
