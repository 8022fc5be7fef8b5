#!/usr/bin/env bash
# The README's test command (`npm test`): installs what is missing, starts the services (or
# reuses running ones), then typecheck, lint, build and every jest test, unit and integration.
# Extra arguments go to jest (e.g. `npm test -- --selectProjects unit`).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
bash scripts/lib/ensure-deps.sh
bash scripts/lib/ensure-chromium.sh
# The Grafana test scrapes a crawl with Debian's prometheus; under npm test a missing one fails it.
bash scripts/lib/ensure-prometheus.sh
export FRESHET_REQUIRE_PROMETHEUS=1
bash scripts/services.sh up
echo "[test] typecheck" >&2; npx tsc -p tsconfig.json --noEmit
echo "[test] lint" >&2; npx eslint .
echo "[test] build" >&2; npx tsc -p tsconfig.build.json
mkdir -p .state
results=.state/jest-results.json
rm -f "$results"
rc=0
npx jest --ci --json --outputFile="$results" "$@" || rc=$?
# A plain closing line that any CI reader understands.
if [ -f "$results" ]; then
  node -e 'const r=require(process.argv[1]);console.log(`tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests} skipped`)' "$ROOT/$results"
fi
exit $rc
