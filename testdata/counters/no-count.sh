#!/bin/sh
# A model counter that prints no count (and claims satisfiable).
echo "s SATISFIABLE"
exit 10
