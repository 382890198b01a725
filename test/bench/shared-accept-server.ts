// An EXPERIMENT for apf-probe-ab.ts, not the server's behaviour: this build's apiserver with `--workers N`
// (BENCH_SHARED_WORKERS, default 2) and node:cluster's SCHED_NONE policy, so that every worker accepts from the one
// listening socket (the default on Linux, SCHED_RR, has the primary accept each connection and pass it on). With
// two processes draining the kernel's accept queue, a probe behind a storm of new connections waits for about half
// the work. Each worker keeps its own APF limit (2 × 10 seats here). Run: `BENCH_APF_DECOMPOSE=1
// BENCH_BASE_SCRIPT=$PWD/dist/test/bench/shared-accept-server.js BENCH_BASE_LABEL=shared node
// dist/test/bench/apf-probe-ab.js` (the "server CPU while waiting" column counts the primary only: read the wall ms).
import { join } from 'node:path';

process.env['NODE_CLUSTER_SCHED_POLICY'] = 'none';
if (!process.argv.includes('--workers')) process.argv.push('--workers', process.env['BENCH_SHARED_WORKERS'] ?? '2');

void import(join(__dirname, '..', '..', 'cmd', 'apiserver.js'));
