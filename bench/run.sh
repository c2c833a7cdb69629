#!/bin/sh
# Measures hookrun and its peers side by side and prints the tables of
# docs/performance.md: installs the peers (Deno and isolated-vm from the npm
# registry) into bench/peers/node_modules when missing, then runs the comparison
# bench (`bench/run.sh scale [sizes…]`: the library-scale bench instead).
set -eu
cd "$(dirname "$0")/.."
peers=bench/peers/node_modules
if [ ! -x "$peers/.bin/deno" ] || [ ! -f "$peers/isolated-vm/out/isolated_vm.node" ]; then
  # isolated-vm compiles from source (python3, make, g++) against the headers of
  # the Node.js that runs it: those installed beside node when there are some,
  # else node-gyp downloads them from nodejs.org.
  node_prefix="$(dirname "$(dirname "$(node -p process.execPath)")")"
  if [ -z "${npm_config_nodedir:-}" ] && [ -f "$node_prefix/include/node/common.gypi" ]; then
    export npm_config_nodedir="$node_prefix"
  fi
  (cd bench/peers && npm install --no-audit --no-fund)
fi
if [ "${1:-}" = scale ]; then
  # Library scale: bench/run.sh scale [sizes…]
  shift
  exec nice cargo bench --bench scale -- "$@"
fi
exec nice cargo bench --bench compare
