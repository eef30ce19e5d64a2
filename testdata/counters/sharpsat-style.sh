#!/bin/sh
# An honest test counter in sharpSAT's output style: it enumerates the
# models projected onto the "c project" variables with clasp, and prints
# the count as sharpSAT does ("# solutions", the number, "# END").
# Needs clasp.
project=
grep -q '^c project ' "$1" && project="--parse-ext --project"
n=$(clasp $project -n 0 -q "$1" | sed -n 's/^c Models *: *\([0-9][0-9]*\)$/\1/p')
[ -n "$n" ] || exit 1
echo "# solutions"
echo "$n"
echo "# END"
