# Sourced by the scripts that install Debian packages on demand (ensure-chromium.sh,
# ensure-prometheus.sh, bench-scrapy-venv.sh): the one root check and apt-get invocation.
# The caller defines log() first.

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"
  elif command -v sudo >/dev/null; then sudo "$@"
  else log "need root to run: $*"; exit 1
  fi
}

# apt_install PKG...: apt-get update, then install without recommends, waiting up to 5 minutes
# for a dpkg lock another install holds.
apt_install() {
  command -v apt-get >/dev/null || { log "apt-get is not available; install $* by hand"; exit 1; }
  as_root apt-get update -qq -o DPkg::Lock::Timeout=300 >&2
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=300 "$@" >&2
}
