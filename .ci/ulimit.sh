#!/usr/bin/env bash
# The binary that a plain go build makes runs under an address-space limit
# (ulimit -v) of 1, 1.5, 2 and 4 GiB: six runs each, with 32 threads, so
# that the reservations of the C threads a cgo build starts (glibc's stacks
# and malloc arenas, see internal/libc) would show.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go build -o "$dir/queens" .
[ -z "${QUEENS_BIN:-}" ] || cp "$QUEENS_BIN" "$dir/queens"
for limit in 1000000 1500000 2000000 4000000; do
	for run in 1 2 3 4 5 6; do
		if ! (ulimit -v "$limit" && GOMAXPROCS=32 "$dir/queens" backtrack -n 12 --count --threads 32 >"$dir/out" 2>&1); then
			echo "ci: queens failed under ulimit -v $limit (run $run):" >&2
			head -c 2000 "$dir/out" >&2
			exit 1
		fi
		grep -qx "14200 solutions" "$dir/out" || { echo "ci: wrong count under ulimit -v $limit: $(head -c 200 "$dir/out")" >&2; exit 1; }
	done
done
echo "ci: queens ran under ulimit -v 1 to 4 GiB, 24 of 24"
