#!/usr/bin/env bash
# Installs Debian's `prometheus` when it is missing (the Grafana test runs its own prometheus on a
# free port against a real crawl). Idempotent: does nothing when `prometheus` is on the PATH.
# The package's own service would listen on :9090 and start at boot; the test never uses it, so
# it is neither started by the install nor left enabled.
set -euo pipefail
log() { echo "[prometheus] $*" >&2; }
command -v prometheus >/dev/null && exit 0
. "$(dirname "${BASH_SOURCE[0]}")/apt.sh"
command -v apt-get >/dev/null || { log "apt-get is not available; install Prometheus by hand (the Grafana test needs the 'prometheus' binary)"; exit 1; }

# policy-rc.d answering 101 tells invoke-rc.d and deb-systemd-invoke not to start services during
# the install; only created when absent, and removed again.
policy=/usr/sbin/policy-rc.d
made_policy=0
if [ ! -e "$policy" ]; then
  as_root sh -c "printf '#!/bin/sh\nexit 101\n' >$policy && chmod 755 $policy"
  made_policy=1
fi
cleanup() { if [ "$made_policy" = 1 ]; then as_root rm -f "$policy"; fi; }
trap cleanup EXIT

log "installing Debian's prometheus (apt-get)"
apt_install prometheus

# Not at boot either, and stopped if anything started it anyway (only the package's service).
if command -v systemctl >/dev/null && [ -d /run/systemd/system ]; then
  as_root systemctl disable --now prometheus.service >/dev/null 2>&1 || true
elif [ -x /etc/init.d/prometheus ]; then
  as_root /etc/init.d/prometheus stop >/dev/null 2>&1 || true
  command -v update-rc.d >/dev/null && as_root update-rc.d prometheus disable >/dev/null 2>&1 || true
fi
command -v prometheus >/dev/null || { log "prometheus is still missing after the install"; exit 1; }
log "installed $(prometheus --version 2>&1 | head -1)"
