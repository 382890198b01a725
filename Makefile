# orch-apiserver: `make run` and `make test` work on a fresh Debian machine with Node 20.
SHELL := /bin/bash
NODE_MODULES_STAMP := node_modules/.package-lock.json
PORT ?= 8080
APT_GET := $(if $(filter 0,$(shell id -u)),apt-get,sudo apt-get)

.PHONY: all deps etcd wrk prometheus chromium haproxy python-client cluster-tools build run test test-unit test-e2e test-cluster bench profile bench-request-cpu bench-workers bench-workers-interleaved bench-follow bench-consistent-quiet bench-list-memory bench-list-speed bench-watchers bench-watch-sync bench-cache-memory bench-cache-fill loadtest lint clean cluster cluster-down cluster-restart

all: build

# etcd (server + etcdctl) from Debian when missing.
etcd:
	@command -v etcd >/dev/null && command -v etcdctl >/dev/null || { \
	  echo "installing etcd-server and etcd-client from Debian"; \
	  $(APT_GET) update -qq && DEBIAN_FRONTEND=noninteractive $(APT_GET) install -y -qq etcd-server etcd-client >/dev/null; }

# wrk (HTTP load generator for `make bench`) from Debian when missing; if that fails the bench falls back to its Node load generator.
wrk:
	@command -v wrk >/dev/null || { \
	  echo "installing wrk from Debian"; \
	  $(APT_GET) update -qq && DEBIAN_FRONTEND=noninteractive $(APT_GET) install -y -qq wrk >/dev/null; } || \
	  echo "warning: could not install wrk; make bench will use only its Node load generator" >&2
	@command -v curl >/dev/null || { \
	  echo "installing curl from Debian (the list benchmarks time LISTs with it)"; \
	  $(APT_GET) update -qq && DEBIAN_FRONTEND=noninteractive $(APT_GET) install -y -qq curl >/dev/null; }

# prometheus (scrapes the built server in test/e2e/prometheus.test.ts) from Debian when missing.
prometheus:
	@command -v prometheus >/dev/null || { \
	  echo "installing prometheus from Debian"; \
	  $(APT_GET) update -qq && DEBIAN_FRONTEND=noninteractive $(APT_GET) install -y -qq --no-install-recommends prometheus >/dev/null; }

# chromium (renders the load-test report in test/e2e/loadtest-report.test.ts) from Debian when missing.
chromium:
	@command -v chromium >/dev/null || { \
	  echo "installing chromium from Debian"; \
	  $(APT_GET) update -qq && DEBIAN_FRONTEND=noninteractive $(APT_GET) install -y -qq --no-install-recommends chromium >/dev/null; }

# The Kubernetes Python client (test/e2e/python-client.test.ts runs it under Debian's python3) from Debian when missing.
python-client:
	@/usr/bin/python3 -c 'import kubernetes' 2>/dev/null || { \
	  echo "installing python3-kubernetes from Debian"; \
	  $(APT_GET) update -qq && DEBIAN_FRONTEND=noninteractive $(APT_GET) install -y -qq --no-install-recommends python3-kubernetes >/dev/null; }

# haproxy (load balancer of the local cluster) from Debian when missing.
haproxy:
	@command -v haproxy >/dev/null || { \
	  echo "installing haproxy from Debian"; \
	  $(APT_GET) update -qq && DEBIAN_FRONTEND=noninteractive $(APT_GET) install -y -qq --no-install-recommends haproxy >/dev/null; }

cluster-tools: etcd haproxy prometheus
	@command -v openssl >/dev/null && command -v curl >/dev/null || { \
	  $(APT_GET) update -qq && DEBIAN_FRONTEND=noninteractive $(APT_GET) install -y -qq --no-install-recommends openssl curl >/dev/null; }

$(NODE_MODULES_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

deps: etcd $(NODE_MODULES_STAMP)

build: $(NODE_MODULES_STAMP)
	npx tsc -p tsconfig.json

run: deps build
	node dist/cmd/apiserver.js --port $(PORT) --data-dir ./data

test: deps cluster-tools chromium python-client build lint
	npx jest --ci --forceExit

# Fault tests of the 3-etcd / 3-replica / haproxy cluster and of etcd member loss and compaction (also part of `make test`).
test-cluster: deps cluster-tools build
	npx jest --ci --forceExit test/cluster test/faults

# prettier (layout, 120 columns) and eslint (typescript-eslint strict) over the sources.
lint: $(NODE_MODULES_STAMP)
	npx prettier --check --log-level warn 'cmd/**/*.ts' 'lib/**/*.ts' 'test/**/*.ts' eslint.config.mjs
	npx eslint --max-warnings 0 .

test-unit: $(NODE_MODULES_STAMP)
	npx jest lib

test-e2e: deps prometheus chromium python-client build
	npx jest test/e2e

bench: deps wrk build
	node dist/test/bench/run.js
	node dist/test/bench/classification.js
	node dist/test/bench/lists-watch.js
	node dist/test/bench/protobuf.js
	node dist/test/bench/apply.js
	node dist/test/bench/apf.js
	node dist/test/bench/auth.js
	node dist/test/bench/watchers-memory.js

# Issue 20's watch write path: 50 concurrent watch-list syncs of 10,000 Deployments (peak RSS against one response) and
# 1,000 watchers at 200 writes/s (delivery p99), each on a fresh server; BENCH_BASE_SCRIPT=<build>/dist/cmd/apiserver.js
# alternates with another build (A/B), BENCH_ROUNDS, BENCH_PHASES=sync|fanout, BENCH_WATCHER_PROCESSES scale it.
bench-watch-sync: deps build
	node dist/test/bench/watch-sync.js

# CPU profile of the create and GET workloads (c64, server under --cpu-prof): per-request CPU by area into docs/benchmarks.md.
# PROFILE_SECONDS (10), PROFILE_CONCURRENCY (64), BENCH_SERVER_ARGS (extra server flags) adjust it.
profile: deps wrk build
	node dist/test/bench/profile.js

# Server CPU per create and per GET at c64 (wrk), no profiler attached; A/B when BENCH_BASE_SCRIPT names another build's
# dist/cmd/apiserver.js (builds alternate round by round). REQUEST_CPU_ROUNDS (3), REQUEST_CPU_SECONDS (6),
# REQUEST_CPU_WARMUP_SECONDS (2); REQUEST_CPU_NODE_FLAGS="|--v8-pool-size=1": variants of the server's node flags.
bench-request-cpu: deps wrk build
	node dist/test/bench/request-cpu.js

# Issue 16: what accepting and rejecting 2,000 connections at once costs in the apiserver (10-seat APF) against a bare
# node:http server answering 429 (accept-to-accept µs, 429 handling µs, CPU per request, GC); BENCH_BASE_SCRIPT: A/B.
bench-accept-cost: deps build
	node dist/test/bench/accept-cost.js

# Issue 19: GET p50/p99 at c16 with V8's survivors and pauses per scavenge (--trace-gc-nvp): consistent GET, its
# resourceVersion=0 control, node:http2 revision reads alone (session.request() and requestStream()); BENCH_BASE_SCRIPT:
# A/B; into docs/benchmarks.md.
bench-get-tail: deps wrk build
	node dist/test/bench/get-tail.js

# Issue 19: where a consistent GET's time goes at c16 (wait for the revision read, etcd, cache, serving; slowest 1 %,
# loop delay, GC), through a --require'd preload; BENCH_BASE_SCRIPT: A/B; into docs/benchmarks.md.
bench-get-phases: deps wrk build
	node dist/test/bench/get-phases.js

.PHONY: bench-accept-cost bench-get-tail bench-get-phases

# Issue 19: what a create allocates and costs in GC: wrk c64 creates against a server under --trace-gc-nvp, scavenges
# per 1,000 creates, scavenge µs and main/other-thread CPU per create; BENCH_BASE_SCRIPT: A/B; into docs/benchmarks.md.
bench-create-gc: deps wrk build
	node dist/test/bench/create-gc.js

.PHONY: bench-create-gc

# In process: CPU and heap per etcd unary call (create-if-absent Txn, batched GETs) by transport (node:http2 against
# grpc-js) and codec, variants alternating round by round on one fresh etcd. ETCD_UNARY_ONLY ('a;b'), _ROUNDS, _CALLS.
.PHONY: bench-etcd-unary
bench-etcd-unary: deps build
	node --max-semi-space-size=256 dist/test/bench/etcd-unary.js

# In process: CPU and heap per received etcd watch event, grpc-js against node:http2 (h2-watch.ts), alternating rounds.
.PHONY: bench-etcd-watch
bench-etcd-watch: deps build
	BENCH_WATCH_PUBLISH=1 node dist/test/bench/watch-transport.js

# Server peak RSS growth per LIST (20 concurrent JSON/protobuf LISTs of 10,000; pretty/YAML/Table/partial/JSON LISTs of 100,000) against one response's size (BENCH_AB_SERVER_SCRIPT: A/B); into docs/benchmarks.md.
bench-list-memory: deps build
	node dist/test/bench/list-memory.js

# In process: CPU per object and old-space growth serializing cached objects as pretty JSON / YAML / Table, accessors against throw-away copies; into docs/benchmarks.md.
.PHONY: bench-list-serialize
bench-list-serialize: deps build
	node --expose-gc dist/test/bench/list-serialize.js

# LIST of 10,000 Deployments from the watch cache (rv=0 and consistent) against the raw etcd range + decode, round by
# round, with curl's floor and the server's CPU per LIST; BENCH_AB_SERVER_SCRIPT=<other dist/cmd/apiserver.js> times
# another build beside this one on the same etcd (A/B). Into docs/benchmarks.md.
bench-list-speed: deps build
	node dist/test/bench/list-speed.js

# Creates/s at concurrency 64 with --workers 1 and 2 (BENCH_WORKERS=1,2,4 …) beside the raw etcd rate; into docs/benchmarks.md.
bench-workers: deps wrk build
	node dist/test/bench/workers-scaling.js

# --workers 2 ÷ --workers 1 and ÷ raw etcd from 5-second slices taken in turn (both servers and etcd running, warm),
# each ratio within one round: what this shared host's minute-to-minute drift cannot move much; into docs/benchmarks.md.
bench-workers-interleaved: deps wrk build
	node dist/test/bench/workers-interleaved.js

# Server CPU per followed etcd write (what every further worker pays per create), end to end with A/B builds
# (BENCH_AB_SERVER_SCRIPT=<other build's dist/cmd/apiserver.js>) and in process (watch response → cached object).
bench-follow: deps build
	node dist/test/bench/follow-cpu.js
	node dist/test/bench/follow-decode.js

# Consistent LISTs of quiet resources (namespaces, ServiceAccounts) during Deployment creates: latency, etcd Ranges and
# fallback LISTs per read (BENCH_AB_SERVER_SCRIPT=<other build's dist/cmd/apiserver.js> for A/B); into docs/benchmarks.md.
bench-consistent-quiet: deps build
	node dist/test/bench/consistent-quiet.js

# What watchers cost (issue 20): 10,000 idle watchers, 1,000 stalled ones beside normal ones under 200 writes/s,
# 50 concurrent watch-list syncs of 10,000 Deployments; BENCH_IDLE_WATCHERS, BENCH_SLOW_WATCHERS, BENCH_SYNCS … scale it.
bench-watchers: deps build
	node dist/test/bench/watchers-memory.js

# Watch cache memory per object, fill time of 100,000 Deployments and GET/LIST CPU from the cache (in process, real etcd).
bench-cache-memory: deps etcd build
	node --expose-gc dist/test/bench/cache-memory.js

# Watch cache fill of 100,000 Deployments, A/B: each fill in a new process, builds alternating, beside raw etcd ranges
# (BENCH_CACHE_BUILD=<other dist>, BENCH_FILL_ROUNDS, BENCH_FILL_PAGES=10000,2500, BENCH_FILL_PROFILE=<path prefix>).
bench-cache-fill: deps etcd build
	node dist/test/bench/cache-fill.js

# The standard load test: a throwaway embedded server + etcd, 60 s at the default mix; results in ./loadtest-results.
# LOADTEST_ARGS adds flags, e.g. LOADTEST_ARGS="--server https://127.0.0.1:6443 --kubeconfig ~/.kube/config".
loadtest: deps build
	node dist/cmd/loadtest.js $(LOADTEST_ARGS)

# Local cluster without Docker (deploy/local/cluster.sh): LB_PORT ?= 6443, PROM_PORT ?= 9090, state under cluster/.
cluster: deps cluster-tools build
	deploy/local/cluster.sh up

cluster-down:
	deploy/local/cluster.sh down

cluster-restart: build
	deploy/local/cluster.sh restart

clean:
	rm -rf dist
