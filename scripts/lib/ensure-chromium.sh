#!/usr/bin/env bash
# Installs Debian's chromium for the `render` fetch mode (playwright-core drives it; no browser
# is downloaded at npm install time). Idempotent: nothing happens when /usr/bin/chromium exists.
set -euo pipefail
[ -x /usr/bin/chromium ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO=(sudo -n); else
    echo "[chromium] /usr/bin/chromium is missing and installing it needs root (apt-get install chromium)" >&2; exit 1
  fi
else
  SUDO=()
fi
echo "[chromium] installing Debian's chromium (apt-get)" >&2
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update >&2
"${SUDO[@]}" apt-get install -y --no-install-recommends chromium >&2
[ -x /usr/bin/chromium ] || { echo "[chromium] apt-get finished but /usr/bin/chromium is missing" >&2; exit 1; }
