#!/usr/bin/env bash
# Creates .state/venv-scrapy with Scrapy from PyPI for the throughput benchmark; idempotent (a
# stamp holds the pinned version, so a changed pin reinstalls). Prints the venv's python path.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SCRAPY_VERSION=2.19.0
VENV="$ROOT/.state/venv-scrapy"
stamp="$VENV/.freshet-scrapy-version"
if [ "$(cat "$stamp" 2>/dev/null)" != "$SCRAPY_VERSION" ]; then
  command -v python3 >/dev/null || { echo "[scrapy] python3 is needed for the Scrapy contender" >&2; exit 1; }
  if ! python3 -c 'import venv, ensurepip' 2>/dev/null; then
    log() { echo "[scrapy] $*" >&2; }
    . "$ROOT/scripts/lib/apt.sh"
    log "installing python3-venv"
    apt_install python3-venv
  fi
  echo "[scrapy] creating $VENV with scrapy==$SCRAPY_VERSION" >&2
  rm -rf "$VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "scrapy==$SCRAPY_VERSION" >&2
  echo "$SCRAPY_VERSION" >"$stamp"
fi
echo "$VENV/bin/python"
