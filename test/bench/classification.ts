// APF classification cost per request: 1.26 bootstrap config + 100 extra FlowSchemas, a realistic request mix; prints ns/op and p99.
import type { ApiObject } from '../../lib/apimachinery/meta/types';
import { parseRequestInfo } from '../../lib/endpoints/request-info';
import {
  ANONYMOUS,
  compileClassifier,
  type Classifier,
  type DigestUser,
  type RequestDigest,
} from '../../lib/server/flowcontrol/classifier';
import { priorityAndFairnessHeaders } from '../../lib/server/flowcontrol/headers';
import { bootstrapFlowSchemas, bootstrapPriorityLevels } from '../../lib/server/flowcontrol/testing/bootstrap-config';

const EXTRA_SCHEMAS = Number(process.env['BENCH_EXTRA_SCHEMAS'] ?? 100);
const OPS = Number(process.env['BENCH_OPS'] ?? 2_000_000);
const TARGET_NS = 20_000;
const LEVELS = ['workload-low', 'global-default', 'workload-high'];
const GROUPS = ['apps', '', 'batch', 'autoscaling', 'networking.orch.io'];
const RESOURCES = [
  ['deployments', 'deployments/scale'],
  ['pods', 'configmaps', 'secrets'],
  ['jobs', 'cronjobs'],
  ['horizontalpodautoscalers'],
  ['ingresses'],
];

/** Tenant-style schemas: per-user, per-team and per-namespace service-account rules, spread over precedences 1000–7930. */
function extraFlowSchemas(count: number): ApiObject[] {
  return Array.from({ length: count }, (_, i) => {
    const subjects = [
      i % 3 === 0
        ? { kind: 'User', user: { name: `user-${i}` } }
        : { kind: 'Group', group: { name: `team-${i % 20}` } },
      ...(i % 4 === 0 ? [{ kind: 'ServiceAccount', serviceAccount: { namespace: `ns-${i}`, name: '*' } }] : []),
      ...(i % 5 === 0 ? [{ kind: 'ServiceAccount', serviceAccount: { namespace: 'ci', name: `runner-${i}` } }] : []),
    ];
    const g = i % GROUPS.length;
    const resourceRules = [
      {
        verbs: i % 2 === 0 ? ['get', 'list', 'watch'] : ['*'],
        apiGroups: [GROUPS[g]],
        resources: RESOURCES[g],
        clusterScope: i % 7 === 0,
        namespaces: i % 6 === 0 ? ['*'] : [`ns-${i}`, `ns-${i + 1}`, 'shared'],
      },
      ...(i % 3 === 1
        ? [
            {
              verbs: ['create', 'update', 'patch', 'delete'],
              apiGroups: ['apps'],
              resources: ['deployments'],
              namespaces: [`ns-${i}`],
            },
          ]
        : []),
    ];
    const nonResourceRules = i % 10 === 0 ? [{ verbs: ['get'], nonResourceURLs: ['/metrics', '/debug/'] }] : [];
    return {
      metadata: { name: `tenant-${String(i).padStart(3, '0')}`, uid: `uid-tenant-${i}` },
      spec: {
        priorityLevelConfiguration: { name: LEVELS[i % LEVELS.length] },
        matchingPrecedence: 1000 + i * 70,
        distinguisherMethod: { type: i % 2 ? 'ByUser' : 'ByNamespace' },
        rules: [{ subjects, resourceRules, nonResourceRules }],
      },
    };
  });
}

const digest = (user: DigestUser, method: string, url: string): RequestDigest => {
  const [path = '', query = ''] = url.split('?');
  return { user, info: parseRequestInfo(method, path, new URLSearchParams(query)) };
};
const who = (name: string, ...groups: string[]): DigestUser => ({ name, groups });

/** Weighted request mix: mostly anonymous (no authentication yet), some authenticated tenants, controllers and nodes. */
function requestMix(): RequestDigest[] {
  const weighted: Array<[number, RequestDigest]> = [
    [10, digest(ANONYMOUS, 'GET', '/apis/apps/v1/namespaces/default/deployments')],
    [10, digest(ANONYMOUS, 'GET', '/apis/apps/v1/namespaces/ns-4/deployments/web-1')],
    [3, digest(ANONYMOUS, 'GET', '/apis/apps/v1/namespaces/default/deployments?watch=true')],
    [3, digest(ANONYMOUS, 'GET', '/apis/apps/v1/deployments')],
    [5, digest(ANONYMOUS, 'POST', '/apis/apps/v1/namespaces/default/deployments')],
    [3, digest(ANONYMOUS, 'PUT', '/apis/apps/v1/namespaces/default/deployments/web-1/status')],
    [3, digest(ANONYMOUS, 'PATCH', '/apis/apps/v1/namespaces/default/deployments/web-1/scale')],
    [2, digest(ANONYMOUS, 'DELETE', '/apis/apps/v1/namespaces/default/deployments/web-1')],
    [2, digest(ANONYMOUS, 'GET', '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers')],
    [1, digest(ANONYMOUS, 'GET', '/apis/flowcontrol.apiserver.orch.io/v1beta3/flowschemas')],
    [1, digest(ANONYMOUS, 'GET', '/api/v1/namespaces/kube-system')],
    [6, digest(ANONYMOUS, 'GET', '/healthz')],
    [4, digest(ANONYMOUS, 'GET', '/readyz')],
    [2, digest(ANONYMOUS, 'GET', '/livez')],
    [2, digest(ANONYMOUS, 'GET', '/metrics')],
    [1, digest(ANONYMOUS, 'GET', '/openapi/v2')],
    [1, digest(ANONYMOUS, 'GET', '/apis')],
    [3, digest(who('user-9', 'team-9', 'system:authenticated'), 'GET', '/apis/apps/v1/namespaces/ns-9/deployments')],
    [
      3,
      digest(
        who('user-42', 'team-2', 'system:authenticated'),
        'PATCH',
        '/apis/apps/v1/namespaces/shared/deployments/api',
      ),
    ],
    [2, digest(who('dev', 'team-17', 'system:authenticated'), 'GET', '/api/v1/namespaces/ns-17/pods')],
    [
      3,
      digest(
        who(
          'system:serviceaccount:ns-8:app',
          'system:serviceaccounts',
          'system:serviceaccounts:ns-8',
          'system:authenticated',
        ),
        'GET',
        '/apis/apps/v1/namespaces/ns-8/deployments',
      ),
    ],
    [
      2,
      digest(
        who('system:serviceaccount:ci:runner-5', 'system:serviceaccounts', 'system:authenticated'),
        'POST',
        '/apis/batch/v1/namespaces/ns-5/jobs',
      ),
    ],
    [
      2,
      digest(
        who('system:serviceaccount:default:app', 'system:serviceaccounts', 'system:authenticated'),
        'GET',
        '/api/v1/namespaces/default/configmaps/c',
      ),
    ],
    [
      2,
      digest(
        who('system:serviceaccount:kube-system:ctrl', 'system:serviceaccounts', 'system:authenticated'),
        'PUT',
        '/apis/coordination.orch.io/v1/namespaces/kube-system/leases/ctrl',
      ),
    ],
    [
      3,
      digest(who('system:kube-controller-manager', 'system:authenticated'), 'GET', '/apis/apps/v1/deployments?watch=1'),
    ],
    [2, digest(who('system:node:n1', 'system:nodes', 'system:authenticated'), 'PUT', '/api/v1/nodes/n1/status')],
    [1, digest(who('admin', 'system:masters', 'system:authenticated'), 'DELETE', '/api/v1/namespaces/x')],
  ];
  const out: RequestDigest[] = [];
  for (const [weight, d] of weighted) for (let i = 0; i < weight; i++) out.push(d);
  // Deterministic shuffle so consecutive requests differ (no branch-predictor-friendly runs).
  let seed = 12345;
  for (let i = out.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const j = seed % (i + 1);
    [out[i], out[j]] = [out[j] as RequestDigest, out[i] as RequestDigest];
  }
  return out;
}

function percentileOf(sorted: Float64Array, q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
}

let sink = 0;

function throughput(classifier: Classifier, mix: RequestDigest[], ops: number): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < ops; i++) sink += classifier.classify(mix[i % mix.length] as RequestDigest).distinguisher.length;
  return Number(process.hrtime.bigint() - start) / ops;
}

/** Per-call latencies (ns), each minus the measured cost of an empty timed section. */
function latencies(classifier: Classifier, mix: RequestDigest[], ops: number): Float64Array {
  const overhead = new Float64Array(100_000);
  for (let i = 0; i < overhead.length; i++) {
    const t = process.hrtime.bigint();
    overhead[i] = Number(process.hrtime.bigint() - t);
  }
  const timerNs = overhead.sort()[overhead.length >> 1] ?? 0;
  const out = new Float64Array(ops);
  for (let i = 0; i < ops; i++) {
    const d = mix[i % mix.length] as RequestDigest;
    const t = process.hrtime.bigint();
    sink += classifier.classify(d).distinguisher.length;
    out[i] = Math.max(0, Number(process.hrtime.bigint() - t) - timerNs);
  }
  return out.sort();
}

function main(): void {
  const schemas = [...bootstrapFlowSchemas(), ...extraFlowSchemas(EXTRA_SCHEMAS)];
  const levels = bootstrapPriorityLevels();
  const compileStart = process.hrtime.bigint();
  const classifier = compileClassifier(schemas, levels);
  const compileMs = Number(process.hrtime.bigint() - compileStart) / 1e6;
  const mix = requestMix();

  throughput(classifier, mix, 200_000); // warm-up (JIT)
  const nsPerOp = throughput(classifier, mix, OPS);
  const sorted = latencies(classifier, mix, Math.min(OPS, 1_000_000));
  // Worst case: every request from a user not seen before (the per-user subject cache of 4096 entries always misses).
  const info = digest(ANONYMOUS, 'GET', '/apis/apps/v1/namespaces/default/deployments').info;
  const strangers = Array.from({ length: 10_000 }, (_, i): RequestDigest => ({
    user: who(`stranger-${i}`, `team-${i % 50}`, 'system:authenticated'),
    info,
  }));
  throughput(classifier, strangers, 20_000);
  const uncachedNs = throughput(classifier, strangers, 200_000);
  const headerStart = process.hrtime.bigint();
  const result = classifier.classify(mix[0] as RequestDigest);
  for (let i = 0; i < 500_000; i++) sink += Object.keys(priorityAndFairnessHeaders(result)).length;
  const headersNs = Number(process.hrtime.bigint() - headerStart) / 500_000;

  const lines = [
    `APF classification: ${classifier.order.length} FlowSchemas in matching order (${EXTRA_SCHEMAS} extra), ${mix.length}-request weighted mix, node ${process.version}`,
    `  compile:            ${compileMs.toFixed(2)} ms`,
    `  classify (mix):     ${nsPerOp.toFixed(0)} ns/op over ${OPS} ops`,
    `  per-call latency:   p50 ${percentileOf(sorted, 0.5).toFixed(0)} ns, p99 ${percentileOf(sorted, 0.99).toFixed(0)} ns, p99.9 ${percentileOf(sorted, 0.999).toFixed(0)} ns (timer cost subtracted)`,
    `  uncached users (every request from a new user: subject-index lookup + per-user view build): ${uncachedNs.toFixed(0)} ns/op`,
    `  headers object:     ${headersNs.toFixed(0)} ns/op`,
    `  target: < ${TARGET_NS} ns per request — ${percentileOf(sorted, 0.99) < TARGET_NS && nsPerOp < TARGET_NS && uncachedNs < TARGET_NS ? 'met' : 'NOT met'}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  if (sink === -1) process.stdout.write('\n'); // keeps the work observable to the optimizer
}

main();
