#!/bin/sh
# Measures hookrun and its peers side by side and prints the tables of
# docs/performance.md: installs the peers (Deno from the npm registry) into
# bench/peers/node_modules when missing, then runs the comparison bench.
set -eu
cd "$(dirname "$0")/.."
if [ ! -x bench/peers/node_modules/.bin/deno ]; then
  (cd bench/peers && npm install --no-audit --no-fund)
fi
exec nice cargo bench --bench compare
