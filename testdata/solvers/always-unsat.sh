#!/bin/sh
# A lying SAT solver for tests and demonstrations: whatever the CNF, it
# answers UNSATISFIABLE (with the right exit status, 20).
echo 's UNSATISFIABLE'
exit 20
