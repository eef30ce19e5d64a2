#!/bin/sh
# other-proof.sh PROOF CNF: claims UNSATISFIABLE and hands in cadical's
# proof of another formula (x and not x). Use as
# --solver 'other-proof.sh {proof}' --proof.
proof=$1
other="$proof.other.cnf"
printf 'p cnf 1 2\n1 0\n-1 0\n' > "$other"
cadical -q "$other" "$proof" > /dev/null
rm -f "$other"
echo 's UNSATISFIABLE'
exit 20
