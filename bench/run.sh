#!/bin/sh
# Measures hookrun and its peers side by side and prints the tables of
# docs/performance.md: installs the peers (Deno from the npm registry) into
# bench/peers/node_modules when missing, then runs the comparison bench
# (`bench/run.sh scale [sizes…]`: the library-scale bench instead).
set -eu
cd "$(dirname "$0")/.."
if [ ! -x bench/peers/node_modules/.bin/deno ]; then
  (cd bench/peers && npm install --no-audit --no-fund)
fi
if [ "${1:-}" = scale ]; then
  # Library scale: bench/run.sh scale [sizes…]
  shift
  exec nice cargo bench --bench scale -- "$@"
fi
exec nice cargo bench --bench compare
