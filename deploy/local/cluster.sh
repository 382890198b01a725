#!/usr/bin/env bash
# Local cluster without Docker: 3 etcd members, 3 orch-apiserver replicas, haproxy (TLS passthrough), Prometheus.
# Usage: cluster.sh up | down | restart | status. Everything lives under $CLUSTER_DIR (default ./cluster):
# pki/, kubeconfig, tokens.csv, logs/, pids/ (one pid file per process this script started), etcd data.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
CLUSTER_DIR="$(mkdir -p "${CLUSTER_DIR:-$ROOT/cluster}" && cd "${CLUSTER_DIR:-$ROOT/cluster}" && pwd)"
LB_PORT="${LB_PORT:-6443}"
PROM_PORT="${PROM_PORT:-9090}"
READY_TIMEOUT="${READY_TIMEOUT:-90}"
SERVER_JS="$ROOT/dist/cmd/apiserver.js"
PIDS="$CLUSTER_DIR/pids"
LOGS="$CLUSTER_DIR/logs"
PORTS_ENV="$CLUSTER_DIR/ports.env"
# shellcheck source=replica-flags.sh
source "$HERE/replica-flags.sh"

log() { echo "[cluster] $*" >&2; }
die() { log "error: $*"; exit 1; }

free_port() { node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }

# Starts a detached process (own session), records its pid; $1 = name, rest = command.
spawn() {
  local name="$1"; shift
  setsid "$@" >>"$LOGS/$name.log" 2>&1 < /dev/null &
  echo $! > "$PIDS/$name.pid"
}

# True when the pid file names a live process whose command line still contains $2 (guards against reused pids).
alive() {
  local f="$PIDS/$1.pid" pid
  [[ -f "$f" ]] || return 1
  pid="$(cat "$f")"
  [[ -r "/proc/$pid/cmdline" ]] && tr '\0' ' ' < "/proc/$pid/cmdline" | grep -q -- "$2"
}

# Stops one recorded process: SIGTERM, then SIGKILL after $3 seconds (default 20).
stop_one() {
  local name="$1" marker="$2" grace="${3:-20}" pid i
  if alive "$name" "$marker"; then
    pid="$(cat "$PIDS/$name.pid")"
    kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < grace * 10; i++)); do alive "$name" "$marker" || break; sleep 0.1; done
    if alive "$name" "$marker"; then log "$name did not stop in ${grace}s; killing"; kill -KILL "$pid" 2>/dev/null || true; sleep 0.2; fi
  fi
  rm -f "$PIDS/$name.pid"
}

wait_for() { # $1 = what, rest = command that succeeds when ready
  local what="$1" deadline=$((SECONDS + READY_TIMEOUT)); shift
  until "$@" >/dev/null 2>&1; do
    ((SECONDS < deadline)) || die "$what not ready after ${READY_TIMEOUT}s (logs in $LOGS)"
    sleep 0.3
  done
}

https_ok() { curl -sf --max-time 2 --cacert "$CLUSTER_DIR/pki/ca.crt" "$1"; }

gen_pki() {
  [[ -f "$CLUSTER_DIR/pki/apiserver.crt" ]] && return 0
  log "generating a self-signed CA and the serving certificate (openssl)"
  "$HERE/gen-pki.sh" "$CLUSTER_DIR/pki"
  chmod 600 "$CLUSTER_DIR/pki/apiserver.key"
}

gen_auth() {
  [[ -f "$CLUSTER_DIR/admin-token" ]] || openssl rand -hex 24 > "$CLUSTER_DIR/admin-token"
  [[ -f "$CLUSTER_DIR/prometheus-token" ]] || openssl rand -hex 24 > "$CLUSTER_DIR/prometheus-token"
  # Static token file (token,user,uid,"group1,group2") for --token-auth-file.
  { printf '%s,admin,admin,"system:masters"\n' "$(cat "$CLUSTER_DIR/admin-token")"
    printf '%s,prometheus,prometheus,"system:monitoring"\n' "$(cat "$CLUSTER_DIR/prometheus-token")"; } > "$CLUSTER_DIR/tokens.csv"
  chmod 600 "$CLUSTER_DIR/admin-token" "$CLUSTER_DIR/prometheus-token" "$CLUSTER_DIR/tokens.csv"
}

write_kubeconfig() {
  local ca; ca="$(base64 -w0 < "$CLUSTER_DIR/pki/ca.crt")"
  # The admin user is identified by the token of tokens.csv (the replicas check it once --token-auth-file is set);
  # without any credential kubectl would prompt for a username.
  local user="  user: {token: $(cat "$CLUSTER_DIR/admin-token")}"
  cat > "$CLUSTER_DIR/kubeconfig" <<KUBECONFIG
apiVersion: v1
kind: Config
clusters:
- name: orch-local
  cluster:
    server: https://127.0.0.1:$LB_PORT
    certificate-authority-data: $ca
users:
- name: admin
$user
contexts:
- name: orch-local
  context:
    cluster: orch-local
    user: admin
current-context: orch-local
KUBECONFIG
  chmod 600 "$CLUSTER_DIR/kubeconfig"
}

allocate_ports() {
  if [[ -f "$PORTS_ENV" ]]; then source "$PORTS_ENV"; return 0; fi
  {
    for i in 1 2 3; do echo "ETCD${i}_CLIENT=$(free_port)"; echo "ETCD${i}_PEER=$(free_port)"; echo "REPLICA${i}_PORT=$(free_port)"; done
    echo "LB_PORT=$LB_PORT"; echo "PROM_PORT=$PROM_PORT"
  } > "$PORTS_ENV"
  source "$PORTS_ENV"
}

etcd_servers() { local s="" i p; for i in 1 2 3; do p="ETCD${i}_CLIENT"; s+="${s:+,}http://127.0.0.1:${!p}"; done; echo "$s"; }

start_etcd() {
  local i initial="" cp pp
  for i in 1 2 3; do pp="ETCD${i}_PEER"; initial+="${initial:+,}etcd$i=http://127.0.0.1:${!pp}"; done
  local state=new
  [[ -d "$CLUSTER_DIR/etcd/etcd1/member" ]] && state=existing
  for i in 1 2 3; do
    alive "etcd$i" etcd && continue
    cp="ETCD${i}_CLIENT"; pp="ETCD${i}_PEER"
    spawn "etcd$i" etcd --name "etcd$i" --data-dir "$CLUSTER_DIR/etcd/etcd$i" \
      --listen-client-urls "http://127.0.0.1:${!cp}" --advertise-client-urls "http://127.0.0.1:${!cp}" \
      --listen-peer-urls "http://127.0.0.1:${!pp}" --initial-advertise-peer-urls "http://127.0.0.1:${!pp}" \
      --initial-cluster "$initial" --initial-cluster-token orch-local --initial-cluster-state "$state"
  done
  for i in 1 2 3; do cp="ETCD${i}_CLIENT"; wait_for "etcd$i" curl -sf --max-time 2 "http://127.0.0.1:${!cp}/health"; done
}

start_replica() { # $1 = 1..3
  local i="$1" p="REPLICA${1}_PORT"
  ETCD_SERVERS="$(etcd_servers)"
  replica_flags
  spawn "replica$i" node "$SERVER_JS" "${REPLICA_FLAGS[@]}" --port="${!p}"
}

wait_replica() { local p="REPLICA${1}_PORT"; wait_for "replica$1" https_ok "https://127.0.0.1:${!p}/readyz"; }

start_haproxy() {
  alive haproxy haproxy && return 0
  LB_BIND="127.0.0.1:$LB_PORT" REPLICA1_ADDR="127.0.0.1:$REPLICA1_PORT" REPLICA2_ADDR="127.0.0.1:$REPLICA2_PORT" \
    REPLICA3_ADDR="127.0.0.1:$REPLICA3_PORT" spawn haproxy haproxy -db -f "$HERE/haproxy.cfg"
  wait_for "haproxy" https_ok "https://127.0.0.1:$LB_PORT/readyz"
}

start_prometheus() {
  local dir="$CLUSTER_DIR/prometheus" i p json
  mkdir -p "$dir/targets" "$dir/data"
  cp "$HERE/prometheus.yml" "$dir/prometheus.yml"
  mkdir -p "$dir/ca" && cp "$CLUSTER_DIR/pki/ca.crt" "$dir/ca/ca.crt"
  cp "$CLUSTER_DIR/prometheus-token" "$dir/ca/token" && chmod 600 "$dir/ca/token"
  json=""; for i in 1 2 3; do p="REPLICA${i}_PORT"; json+="${json:+,}\"127.0.0.1:${!p}\""; done
  echo "[{\"targets\":[$json],\"labels\":{\"cluster\":\"orch-local\"}}]" > "$dir/targets/apiserver.json"
  json=""; for i in 1 2 3; do p="ETCD${i}_CLIENT"; json+="${json:+,}\"127.0.0.1:${!p}\""; done
  echo "[{\"targets\":[$json],\"labels\":{\"cluster\":\"orch-local\"}}]" > "$dir/targets/etcd.json"
  alive prometheus prometheus && return 0
  spawn prometheus prometheus --config.file="$dir/prometheus.yml" --storage.tsdb.path="$dir/data" \
    --web.listen-address="127.0.0.1:$PROM_PORT" --storage.tsdb.retention.time=1d
  wait_for "prometheus" curl -sf --max-time 2 "http://127.0.0.1:$PROM_PORT/-/ready"
  # Ready means every target (3 replicas, 3 etcd members) was scraped and is up.
  wait_for "prometheus targets" bash -c "curl -sf 'http://127.0.0.1:$PROM_PORT/api/v1/query?query=count(up==1)' | grep -q '\"6\"\\]'"
}

cmd_up() {
  for bin in etcd haproxy prometheus openssl curl node; do command -v "$bin" >/dev/null || die "$bin is missing (run through 'make cluster', which installs it)"; done
  [[ -f "$SERVER_JS" ]] || die "$SERVER_JS is missing (run 'make build')"
  mkdir -p "$PIDS" "$LOGS"
  allocate_ports
  gen_pki
  gen_auth
  write_kubeconfig
  start_etcd
  for i in 1 2 3; do alive "replica$i" apiserver.js || start_replica "$i"; done
  for i in 1 2 3; do wait_replica "$i"; done
  start_haproxy
  start_prometheus
  cat <<SUMMARY
orch-apiserver local cluster is ready
  load balancer   https://127.0.0.1:$LB_PORT  (haproxy, TLS passthrough, stats: logs/haproxy.log)
  replicas        https://127.0.0.1:$REPLICA1_PORT https://127.0.0.1:$REPLICA2_PORT https://127.0.0.1:$REPLICA3_PORT
  etcd            $(etcd_servers)
  prometheus      http://127.0.0.1:$PROM_PORT
  kubeconfig      $CLUSTER_DIR/kubeconfig   (KUBECONFIG=$CLUSTER_DIR/kubeconfig kubectl get ns)
  CA certificate  $CLUSTER_DIR/pki/ca.crt
  admin token     $CLUSTER_DIR/admin-token (tokens.csv for --token-auth-file)
  logs            $LOGS/
  stop with       make cluster-down
SUMMARY
}

cmd_down() {
  [[ -d "$PIDS" ]] || { log "nothing to stop"; return 0; }
  stop_one prometheus prometheus
  stop_one haproxy haproxy
  for i in 1 2 3; do stop_one "replica$i" apiserver.js 30; done
  for i in 1 2 3; do stop_one "etcd$i" etcd; done
  log "stopped every process recorded under $PIDS"
}

# Rolling restart: one replica at a time, each back to ready (and in the load balancer) before the next goes.
cmd_restart() {
  [[ -f "$PORTS_ENV" ]] || die "no cluster under $CLUSTER_DIR (make cluster)"
  source "$PORTS_ENV"
  local i
  for i in 1 2 3; do
    log "restarting replica$i"
    stop_one "replica$i" apiserver.js 30
    start_replica "$i"
    wait_replica "$i"
    # haproxy needs `rise` successful checks before it routes to the replica again.
    sleep 2.5
  done
  log "all replicas restarted"
}

cmd_status() {
  local f name
  for f in "$PIDS"/*.pid; do [[ -f "$f" ]] || continue; name="$(basename "$f" .pid)"; echo "$name pid $(cat "$f") $([[ -d /proc/$(cat "$f") ]] && echo running || echo gone)"; done
}

case "${1:-}" in
  up) cmd_up ;;
  down) cmd_down ;;
  restart) cmd_restart ;;
  status) cmd_status ;;
  *) echo "usage: $0 up|down|restart|status" >&2; exit 2 ;;
esac
