#!/usr/bin/env bash
# bench/encode-mem.sh: peak memory (max RSS, GNU time) and wall time of
# writing the n-queens CNF as DIMACS, for n = 400, 1000, 2000:
#
#   stream  encode.Encoder.WriteDIMACS: clauses written as generated
#   cnf     the whole formula built as an encode.CNF first, then written
#   flat    encode.Encoder.AppendFlat: an int32 literal buffer for a solver
#   cli     queens dimacs -n N -o /dev/null (whatever the CLI does today)
#
# Usage: bench/encode-mem.sh [ENCODING] [SIZES...]   (default: auto 400 1000 2000)
# Needs GNU time (apt-get install -y time).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
enc=${1:-auto}
shift || true
sizes=${*:-400 1000 2000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/encodemem" "$root/bench/encodemem"
go build -o "$tmp/queens" "$root"

# measure LABEL CMD...: prints max RSS in MiB and wall seconds of one run.
measure() {
	local label=$1
	shift
	if /usr/bin/time -f '%M %e' -o "$tmp/t" "$@" >/dev/null 2>"$tmp/err"; then
		read -r kib secs <"$tmp/t"
		printf '%-8s %-10s n=%-5s %8.1f MiB %7.2f s\n' "$label" "$enc" "$n" "$(awk -v k="$kib" 'BEGIN {print k/1024}')" "$secs"
	else
		printf '%-8s %-10s n=%-5s failed: %s\n' "$label" "$enc" "$n" "$(tail -n 1 "$tmp/err")"
	fi
}

for n in $sizes; do
	measure stream "$tmp/encodemem" -n "$n" -encoding "$enc" -mode stream
	measure cnf "$tmp/encodemem" -n "$n" -encoding "$enc" -mode cnf
	measure flat "$tmp/encodemem" -n "$n" -encoding "$enc" -mode flat
	measure cli "$tmp/queens" dimacs -n "$n" --encoding "$enc" -o /dev/null
done
