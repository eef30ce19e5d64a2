#!/bin/sh
# unsat-after.sh K [SOLVER ARGS...] CNF: a lying SAT solver. It answers as
# SOLVER (default: cadical -q) does until the CNF carries K blocking
# clauses (the last clauses, each of n negative literals), then claims
# UNSATISFIABLE: an enumeration through it stops after K solutions.
k=$1
shift
for cnf; do :; done
n=$(sed -n 's/^c n //p' "$cnf")
if [ -z "$n" ]; then
	echo 's UNSATISFIABLE' # not a queens CNF (a probe)
	exit 20
fi
blocked=$(awk -v n="$n" '/^-/ && NF == n + 1 { b++; next } { b = 0 } END { print b + 0 }' "$cnf")
if [ "$blocked" -ge "$k" ]; then
	echo 's UNSATISFIABLE'
	exit 20
fi
if [ $# -le 1 ]; then
	exec cadical -q "$cnf"
fi
exec "$@"
