#!/bin/sh
# A model counter whose exit status (20, UNSATISFIABLE) contradicts its
# count.
echo "s mc 92"
exit 20
