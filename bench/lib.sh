# lib.sh is sourced by bench scripts (after set -euo pipefail): it sets
# repo, the repository's root; tmp, a temporary folder removed at exit;
# and, through build_queens, queens, the binary to measure.

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# build_queens [NAME=VALUE...] sets queens to $QUEENS_BIN where that is
# set, or else builds queens into $tmp, in the environment given.
build_queens() {
	if [[ -n ${QUEENS_BIN:-} ]]; then
		queens=$QUEENS_BIN
	else
		(cd "$repo" && env "$@" go build -o "$tmp/queens" .)
		queens=$tmp/queens
	fi
}
