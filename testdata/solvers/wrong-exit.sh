#!/bin/sh
# wrong-exit.sh CODE [SOLVER ARGS...] CNF: a SAT solver that answers as
# SOLVER (default: cadical -q) does, but always exits with status CODE,
# e.g. 20 after printing a model.
code=$1
shift
for cnf; do :; done
if [ $# -le 1 ]; then
	cadical -q "$cnf"
else
	"$@"
fi
exit "$code"
