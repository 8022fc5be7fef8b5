#!/usr/bin/env bash
# `npm run bench [name...] [-- options]`: runs the benchmarks under test/bench/ (all, or those
# named); each writes test/bench/results/<name>.json in the format of shared/specs/bench-results.md.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
available=()
for d in test/bench/*/; do [ -f "${d}run.ts" ] && available+=("$(basename "$d")"); done
# Names come first; the first argument that starts with "-" and all after it are passed to each
# benchmark named (`npm run bench schedule -- --rn 1000`).
names=()
while [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; do names+=("$1"); shift; done
args=("$@")
if [ ${#names[@]} -eq 0 ]; then names=(${available[@]+"${available[@]}"}); fi
if [ ${#names[@]} -eq 0 ]; then echo "[bench] no benchmarks yet" >&2; exit 0; fi
for n in "${names[@]}"; do
  if [ ! -f "test/bench/$n/run.ts" ]; then
    echo "[bench] no benchmark named '$n' (have: ${available[*]})" >&2
    exit 2
  fi
done
bash scripts/lib/ensure-deps.sh
bash scripts/services.sh up
# Benchmarks are TypeScript beside the tests: compile the whole project into the state folder.
npx tsc -p tsconfig.json --outDir .state/build
for n in "${names[@]}"; do
  echo "[bench] $n" >&2
  node --enable-source-maps ".state/build/test/bench/$n/run.js" ${args[@]+"${args[@]}"}
done
