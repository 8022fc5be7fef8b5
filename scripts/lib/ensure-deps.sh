#!/usr/bin/env bash
# Installs npm packages when node_modules is missing or older than package-lock.json. Idempotent.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
[ "$major" -ge 20 ] || { echo "freshet needs Node.js 20 or newer (found $(node --version 2>/dev/null || echo none))" >&2; exit 1; }
stamp=node_modules/.freshet-lock.sha256
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -d node_modules ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "[deps] installing npm packages (npm ci)" >&2
  # npm drops other platforms' optional packages from lock files it writes (npm/cli#4828), and
  # `npm ci` then refuses the lock; `npm install --no-save` installs the same pinned versions.
  npm ci --no-audit --no-fund >&2 || {
    echo "[deps] npm ci refused the lock file; installing the locked versions with npm install --no-save" >&2
    npm install --no-save --no-audit --no-fund >&2
  }
  echo "$want" >"$stamp"
fi
