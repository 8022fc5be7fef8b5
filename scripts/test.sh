#!/usr/bin/env bash
# The README's test command (`npm test`): installs what is missing, starts the services (or
# reuses running ones), then typecheck, lint, build and every jest test, unit and integration,
# on the default engine (OpenSearch 2.19); then the engine matrix: the search-side integration
# tests (templates, bulk, search with highlights, aggregations, percolator alerts, the demo) on
# each engine of FRESHET_ENGINES, each started beside the default services and stopped after.
#
#   FRESHET_ENGINES   engines of the matrix (default "opensearch-3 elasticsearch-8");
#                     "default" runs the default engine only
# Extra arguments go to jest's default-engine run (e.g. `npm test -- --selectProjects unit`), and
# then the matrix is left out unless FRESHET_ENGINES names engines.
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
rm -f "$results" .state/jest-results-*.json
rc=0
npx jest --ci --json --outputFile="$results" "$@" || rc=$?

if [ $# -gt 0 ] && [ -z "${FRESHET_ENGINES:-}" ]; then ENGINES=default; else ENGINES=${FRESHET_ENGINES:-opensearch-3 elasticsearch-8}; fi
[ "$ENGINES" = default ] && ENGINES=""
MATRIX_TESTS=(test/integration/search test/integration/alerts test/integration/cli/demo.test.ts)

# An engine this script started is stopped on every way out (by its pid files).
STARTED=""
stop_started() {
  if [ -n "$STARTED" ]; then FRESHET_ENGINE=$STARTED FRESHET_SERVICES=managed bash scripts/services.sh down search || true; STARTED=""; fi
}
trap stop_started EXIT
trap 'stop_started; exit 130' INT TERM

matrix_secs=0
for engine in $ENGINES; do
  t0=$SECONDS
  # The engine's own port: a FRESHET_ES_URL of the caller names the default run's node, not this one.
  url=$(env -u FRESHET_ES_URL FRESHET_ENGINE="$engine" bash scripts/services.sh url)
  echo "[test] engine matrix: $engine at $url" >&2
  # One already answering there is reused and left running; otherwise it is started beside the
  # default services (Redis is reused) and stopped after its tests.
  if FRESHET_ENGINE=$engine FRESHET_ES_URL=$url bash scripts/services.sh status search >/dev/null 2>&1; then
    echo "[test] engine matrix: reusing the $engine node that runs at $url" >&2
  else
    STARTED=$engine
    if ! FRESHET_ENGINE=$engine FRESHET_ES_URL=$url FRESHET_SERVICES=managed bash scripts/services.sh up search; then
      echo "[test] engine matrix: $engine did not start (see above)" >&2
      stop_started; rc=1; continue
    fi
  fi
  t1=$SECONDS
  FRESHET_ENGINE=$engine FRESHET_ES_URL=$url FRESHET_SERVICES=external \
    npx jest --ci --json --outputFile=".state/jest-results-$engine.json" "${MATRIX_TESTS[@]}" --selectProjects integration || rc=1
  stop_started
  echo "[test] engine matrix: $engine took $((SECONDS - t0)) s (start $((t1 - t0)) s, tests $((SECONDS - t1)) s)" >&2
  matrix_secs=$((matrix_secs + SECONDS - t0))
done

# Plain closing lines that any CI reader understands; on the matrix engines, each skipped test
# with the reason its node gave.
summary() { # FILE LABEL
  node -e '
    const r = require(process.argv[1]);
    console.log(`tests${process.argv[2]}: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests} skipped`);
    if (process.argv[2] !== "") for (const f of r.testResults) for (const a of f.assertionResults)
      if (a.status === "pending") console.log(`  skipped: ${a.title}`);
  ' "$ROOT/$1" "$2"
}
[ -f "$results" ] && summary "$results" ""
for engine in $ENGINES; do
  f=.state/jest-results-$engine.json
  if [ -f "$f" ]; then summary "$f" " on $engine"; else echo "tests on $engine: not run"; fi
done
[ -n "$ENGINES" ] && echo "engine matrix: $matrix_secs s"
exit $rc
