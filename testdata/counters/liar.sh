#!/bin/sh
# A lying model counter for tests and demonstrations: whatever the CNF, it
# counts one model more than there are clauses (never the number of
# solutions), in ganak's style, with exit status 0.
clauses=$(sed -n 's/^p cnf [0-9]* \([0-9]*\).*/\1/p' "$1")
echo "s mc $((clauses + 1))"
echo "c s exact arb int $((clauses + 1))"
exit 0
