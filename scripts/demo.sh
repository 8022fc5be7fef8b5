#!/usr/bin/env bash
# The README's main-job command (`npm run demo`): installs what is missing, starts the services,
# builds, and runs `freshet demo`. Idempotent.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
bash scripts/lib/ensure-deps.sh
bash scripts/services.sh up
npx tsc -p tsconfig.build.json
node bin/freshet.js demo "$@"
