#!/usr/bin/env bash
# `npm run bench [name...]`: runs the benchmarks under test/bench/ (all, or those named); each
# writes test/bench/results/<name>.json in the format of shared/specs/bench-results.md.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
bash scripts/lib/ensure-deps.sh
bash scripts/services.sh up
# Benchmarks are TypeScript beside the tests: compile the whole project into the state folder.
npx tsc -p tsconfig.json --outDir .state/build
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  for d in test/bench/*/; do [ -f "${d}run.ts" ] && names+=("$(basename "$d")"); done
fi
if [ ${#names[@]} -eq 0 ]; then echo "[bench] no benchmarks yet" >&2; exit 0; fi
for n in "${names[@]}"; do
  echo "[bench] $n" >&2
  node --enable-source-maps ".state/build/test/bench/$n/run.js"
done
