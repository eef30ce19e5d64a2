#!/bin/sh
# truncated-proof.sh PROOF CNF: cadical's answer, but its DRAT proof cut
# after three lemmas. Use as --solver 'truncated-proof.sh {proof}' --proof.
proof=$1
cnf=$2
cadical -q --no-binary "$cnf" "$proof.full"
code=$?
head -n 3 "$proof.full" > "$proof"
rm -f "$proof.full"
exit $code
