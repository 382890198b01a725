// `make bench` (authentication + RBAC): server CPU per GET and per create at concurrency 16, with AlwaysAllow and
// anonymous requests vs a bearer token checked by RBAC with 1,000 RoleBindings present; updates docs/benchmarks.md.
import { Agent } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { httpRequest, runLoad, type LoadRequest } from './http-load';
import { runBench, withBenchServer } from './bench-server';
import { markdownSection, prependSection } from './report';
import { findPidByCmdline, type PhaseResult } from './stats';
import { DEPLOYMENTS, NAMESPACE, deploymentBody, namespaceBody } from './workloads';
import type { Target } from './report';
import type { IncomingMessage } from 'node:http';
import { buildAuthenticator, staticTokens } from '../../lib/server/authentication/authenticator';
import { RbacAuthorizer } from '../../lib/server/authorization/rbac/authorizer';
import { buildSnapshot } from '../../lib/server/authorization/rbac/policy-cache';
import { PRIVILEGED_GROUPS, unionAuthorizer } from '../../lib/server/authorization/authorizer';
import { attributesOf } from '../../lib/server/authorization/attributes';
import { parseRequestInfo } from '../../lib/endpoints/request-info';
import type { ApiObject } from '../../lib/apimachinery/meta/types';
import {
  BOOTSTRAP_CLUSTER_ROLES,
  BOOTSTRAP_CLUSTER_ROLE_BINDINGS,
  clusterRoleBindingObject,
  clusterRoleObject,
} from '../../lib/registry/rbac/bootstrap/policy';
import { aggregatedRules } from '../../lib/registry/rbac/clusterroles/aggregation-controller';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 8);
const CONCURRENCY = 16;
const WARMUP_SECONDS = Number(process.env['BENCH_WARMUP_SECONDS'] ?? 4);
const BINDINGS = 1000;
const GET_TARGETS = 200;
const TARGET_OVERHEAD = 0.1;
const RBAC = '/apis/rbac.authorization.orch.io/v1';

function log(line: string): void {
  process.stderr.write(`[bench auth] ${line}\n`);
}

const binding = (ns: string, name: string, subject: string): string =>
  JSON.stringify({
    apiVersion: 'rbac.authorization.orch.io/v1',
    kind: 'RoleBinding',
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: 'edit' },
    subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.orch.io', name: subject }],
  });

async function must(
  agent: Agent,
  url: string,
  method: string,
  path: string,
  body: string,
  headers: Record<string, string>,
): Promise<void> {
  const res = await httpRequest(agent, url, method, path, body, 'application/json', headers);
  if (res.status !== 201 && res.status !== 409) throw new Error(`${method} ${path}: ${res.status} ${res.body}`);
}

/** One server configuration: setup as `admin`, then GET and create phases as `user` (headers). */
async function measure(
  label: string,
  serverArgs: string,
  admin: Record<string, string>,
  user: Record<string, string>,
  rbac: boolean,
): Promise<PhaseResult[]> {
  process.env['BENCH_SERVER_ARGS'] = serverArgs;
  return withBenchServer(`auth-${label}`, async (server) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    try {
      await must(agent, server.url, 'POST', '/api/v1/namespaces', namespaceBody, admin);
      if (rbac) {
        log(`${label}: creating ${BINDINGS} RoleBindings`);
        for (let i = 0; i < 20; i++)
          await must(
            agent,
            server.url,
            'POST',
            '/api/v1/namespaces',
            JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: `other-${i}` } }),
            admin,
          );
        // Half in the benchmark's namespace (for other users), half spread over 20 other namespaces; one for the bench user.
        const jobs: Array<Promise<void>> = [];
        for (let i = 0; i < BINDINGS - 1; i++) {
          const ns = i % 2 === 0 ? NAMESPACE : `other-${i % 20}`;
          jobs.push(
            must(
              agent,
              server.url,
              'POST',
              `${RBAC}/namespaces/${ns}/rolebindings`,
              binding(ns, `rb-${i}`, `user-${i}`),
              admin,
            ),
          );
          if (jobs.length >= 16) await Promise.all(jobs.splice(0));
        }
        await Promise.all(jobs);
        await must(
          agent,
          server.url,
          'POST',
          `${RBAC}/namespaces/${NAMESPACE}/rolebindings`,
          binding(NAMESPACE, 'bench-user', 'bench'),
          admin,
        );
        await new Promise((r) => setTimeout(r, 1000));
      }
      for (let i = 0; i < GET_TARGETS; i++)
        await must(agent, server.url, 'POST', DEPLOYMENTS, deploymentBody(`get-${i}`), user);
      // Warm-up (unmeasured): both configurations reach the same JIT state before their phases.
      let w = 0;
      await runLoad(server.url, {
        workload: 'warm-up',
        concurrency: CONCURRENCY,
        seconds: WARMUP_SECONDS,
        next: (): LoadRequest =>
          w++ % 2 === 0
            ? { method: 'GET', path: `${DEPLOYMENTS}/get-${w % GET_TARGETS}`, headers: user }
            : { method: 'POST', path: DEPLOYMENTS, body: deploymentBody(`w-${process.pid}-${w}`), headers: user },
      });
      const serverPid = server.pid;
      const etcdPid = findPidByCmdline('etcd');
      let n = 0;
      const get = await runLoad(
        server.url,
        {
          workload: `GET deployment (${label})`,
          concurrency: CONCURRENCY,
          seconds: SECONDS,
          next: (): LoadRequest => ({ method: 'GET', path: `${DEPLOYMENTS}/get-${n++ % GET_TARGETS}`, headers: user }),
        },
        serverPid,
        etcdPid,
      );
      let c = 0;
      const create = await runLoad(
        server.url,
        {
          workload: `POST deployment (${label})`,
          concurrency: CONCURRENCY,
          seconds: SECONDS,
          next: (): LoadRequest => ({
            method: 'POST',
            path: DEPLOYMENTS,
            body: deploymentBody(`c-${process.pid}-${c++}`),
            headers: user,
          }),
        },
        serverPid,
        etcdPid,
      );
      return [get, create];
    } finally {
      agent.destroy();
    }
  });
}

function cpuPerRequest(r: PhaseResult): number {
  return (r.serverCpuMs ?? Number.NaN) / Math.max(1, r.requests - r.errors);
}

/**
 * The added work alone, in this process: authenticating a bearer token and authorizing a GET and a create against
 * 1,000 RoleBindings plus the bootstrap policy, per request (µs), with a fresh request object each time.
 */
function inProcessCost(): { getMicros: number; createMicros: number } {
  const authenticate = buildAuthenticator({
    anonymous: true,
    clientCertificates: false,
    tokens: [staticTokens(new Map([['bench-token', { name: 'bench', uid: 'u', groups: [] }]]))],
  });
  const clusterRoles = BOOTSTRAP_CLUSTER_ROLES.map(clusterRoleObject);
  for (const role of clusterRoles) {
    const rules = aggregatedRules(role, clusterRoles);
    if (rules) role['rules'] = rules;
  }
  for (const role of clusterRoles) {
    const rules = aggregatedRules(role, clusterRoles);
    if (rules) role['rules'] = rules;
  }
  const rb = (ns: string, name: string, user: string): ApiObject => ({
    ...(JSON.parse(binding(ns, name, user)) as ApiObject),
    metadata: { name, namespace: ns },
  });
  const bindings: ApiObject[] = [rb(NAMESPACE, 'bench-user', 'bench')];
  for (let i = 0; i < BINDINGS - 1; i++)
    bindings.push(rb(i % 2 === 0 ? NAMESPACE : `other-${i % 20}`, `rb-${i}`, `user-${i}`));
  const snapshot = buildSnapshot(
    [],
    clusterRoles.map((r) => [r.metadata.name ?? '', r] as [string, ApiObject]),
    bindings,
    BOOTSTRAP_CLUSTER_ROLE_BINDINGS.map(clusterRoleBindingObject),
  );
  const authorizer = unionAuthorizer([PRIVILEGED_GROUPS, new RbacAuthorizer(() => snapshot)]);
  const measure = (method: string, path: string): number => {
    const query = new URLSearchParams();
    const rounds = 200_000;
    const started = process.hrtime.bigint();
    for (let i = 0; i < rounds; i++) {
      const req = { headers: { authorization: 'Bearer bench-token' }, socket: {} } as unknown as IncomingMessage;
      const user = authenticate(req);
      if (!user || user instanceof Promise) throw new Error('bench token not synchronous');
      const info = parseRequestInfo(method, path, query);
      if (authorizer.authorize(attributesOf(user, info, query)).decision !== 'allow')
        throw new Error(`not allowed: ${method} ${path}`);
    }
    return Number(process.hrtime.bigint() - started) / 1000 / rounds;
  };
  measure('GET', `${DEPLOYMENTS}/warm`);
  return { getMicros: measure('GET', `${DEPLOYMENTS}/get-1`), createMicros: measure('POST', DEPLOYMENTS) };
}

runBench(async () => {
  const cost = inProcessCost();
  log(
    `in-process authentication + RBAC: ${cost.getMicros.toFixed(2)} µs per GET, ${cost.createMicros.toFixed(2)} µs per create`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'orch-bench-auth-'));
  try {
    const tokens = join(dir, 'tokens.csv');
    writeFileSync(tokens, 'bench-admin-token,bench-admin,uid-admin,system:masters\nbench-token,bench,uid-bench\n');
    const baseline = await measure('AlwaysAllow, anonymous', '', {}, {}, false);
    const rbac = await measure(
      'RBAC, bearer token',
      `--token-auth-file=${tokens} --authorization-mode=RBAC`,
      { Authorization: 'Bearer bench-admin-token' },
      { Authorization: 'Bearer bench-token' },
      true,
    );
    const results = [...baseline, ...rbac];
    const targets: Target[] = ['GET', 'POST'].map((verb, i) => {
      const base = cpuPerRequest(baseline[i] as PhaseResult);
      const withAuth = cpuPerRequest(rbac[i] as PhaseResult);
      const overhead = withAuth / base - 1;
      const added = (verb === 'GET' ? cost.getMicros : cost.createMicros) / 1000;
      return {
        name: `${verb} at concurrency ${CONCURRENCY}: server CPU per request with authentication + RBAC (${BINDINGS} RoleBindings) ≤ ${TARGET_OVERHEAD * 100}% above AlwaysAllow`,
        measured: `${(overhead * 100).toFixed(1)}% measured end to end (${withAuth.toFixed(3)} vs ${base.toFixed(3)} ms/request); the added code path alone costs ${(added * 1000).toFixed(2)} µs = ${((100 * added) / base).toFixed(1)}% of the AlwaysAllow request`,
        pass: overhead <= TARGET_OVERHEAD && added / base <= TARGET_OVERHEAD,
      };
    });
    for (const t of targets) log(`${t.pass ? 'PASS' : 'FAIL'} ${t.name}: ${t.measured}`);
    if (process.env['BENCH_NO_DOCS'] !== '1') {
      const notes = [
        `Authentication and RBAC overhead: ${WARMUP_SECONDS} s mixed warm-up, then ${SECONDS} s per phase, one server process per configuration on a fresh embedded etcd; the RBAC run authenticates every request with a static bearer token and authorizes it against ${BINDINGS} RoleBindings (${BINDINGS / 2} in the benchmark namespace naming other users) plus the bootstrap policy.`,
      ];
      prependSection(
        join(__dirname, '..', '..', '..', 'docs', 'benchmarks.md'),
        markdownSection(new Date(), 'node dist/test/bench/auth.js', notes, results, targets),
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
