#!/usr/bin/env bash
# Installs Debian's chromium for the `render` fetch mode (playwright-core drives it; no browser
# is downloaded at npm install time). Idempotent: nothing happens when /usr/bin/chromium exists.
set -euo pipefail
[ -x /usr/bin/chromium ] && exit 0
log() { echo "[chromium] $*" >&2; }
. "$(dirname "${BASH_SOURCE[0]}")/apt.sh"
log "installing Debian's chromium (apt-get)"
apt_install chromium
[ -x /usr/bin/chromium ] || { log "apt-get finished but /usr/bin/chromium is missing"; exit 1; }
