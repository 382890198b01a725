// Classification: matching rules per field, ordering, Dangling schemas, distinguishers, stand-ins, 1.26 bootstrap config.
import type { ApiObject } from '../../apimachinery/meta/types';
import { parseRequestInfo, type RequestInfo } from '../../endpoints/request-info';
import { ANONYMOUS, compileClassifier, FALLBACK_CLASSIFIER, requestDigest, type DigestUser } from './classifier';
import { priorityAndFairnessHeaders } from './headers';
import { bootstrapFlowSchemas, bootstrapPriorityLevels } from './testing/bootstrap-config';

const req = (method: string, url: string): RequestInfo => {
  const [path = '', query = ''] = url.split('?');
  return parseRequestInfo(method, path, new URLSearchParams(query));
};
const who = (name: string, ...groups: string[]): DigestUser => ({ name, groups });
const ALICE = who('alice', 'system:authenticated', 'dev');
const SA = (ns: string, name: string): DigestUser =>
  who(
    `system:serviceaccount:${ns}:${name}`,
    'system:serviceaccounts',
    `system:serviceaccounts:${ns}`,
    'system:authenticated',
  );

const level = (name: string, queues = 64): ApiObject => ({
  metadata: { name, uid: `pl-${name}` },
  spec: {
    type: 'Limited',
    limited: {
      nominalConcurrencyShares: 10,
      limitResponse:
        queues > 0 ? { type: 'Queue', queuing: { queues, handSize: 1, queueLengthLimit: 50 } } : { type: 'Reject' },
    },
  },
});
const LEVELS = [level('pl'), level('single', 1), level('reject', 0)];

type Rule = Record<string, unknown>;
const schema = (name: string, rules: Rule[], extra: Record<string, unknown> = {}): ApiObject => ({
  metadata: { name, uid: `fs-${name}` },
  spec: { priorityLevelConfiguration: { name: 'pl' }, matchingPrecedence: 500, rules, ...extra },
});
const users = (...names: string[]) => names.map((name) => ({ kind: 'User', user: { name } }));
const groups = (...names: string[]) => names.map((name) => ({ kind: 'Group', group: { name } }));
const sa = (namespace: string, name: string) => [{ kind: 'ServiceAccount', serviceAccount: { namespace, name } }];
const res = (over: Rule = {}): Rule => ({
  verbs: ['*'],
  apiGroups: ['*'],
  resources: ['*'],
  clusterScope: true,
  namespaces: ['*'],
  ...over,
});
const nonRes = (urls: string[], verbs = ['*']): Rule => ({ verbs, nonResourceURLs: urls });
const rule = (subjects: unknown[], resourceRules: Rule[] = [], nonResourceRules: Rule[] = []): Rule => ({
  subjects,
  resourceRules,
  nonResourceRules,
});

/** Whether `user`'s request matches schema `x` built from `rules` (otherwise a stand-in takes it). */
function matchesOne(rules: Rule[], user: DigestUser, info: RequestInfo): boolean {
  return compileClassifier([schema('x', rules)], LEVELS).classify({ user, info }).flowSchema.name === 'x';
}

describe('rule matching', () => {
  const DEPLOY_LIST = req('GET', '/apis/apps/v1/namespaces/default/deployments');
  const cases: Array<[string, Rule[], DigestUser, RequestInfo, boolean]> = [
    ['user by name', [rule(users('alice'), [res()])], ALICE, DEPLOY_LIST, true],
    ['other user', [rule(users('bob'), [res()])], ALICE, DEPLOY_LIST, false],
    ['user *', [rule(users('*'), [res()])], ANONYMOUS, DEPLOY_LIST, true],
    ['group of the user', [rule(groups('dev'), [res()])], ALICE, DEPLOY_LIST, true],
    [
      'group system:unauthenticated (anonymous)',
      [rule(groups('system:unauthenticated'), [res()])],
      ANONYMOUS,
      DEPLOY_LIST,
      true,
    ],
    [
      'group system:unauthenticated (authenticated user)',
      [rule(groups('system:unauthenticated'), [res()])],
      ALICE,
      DEPLOY_LIST,
      false,
    ],
    ['group *', [rule(groups('*'), [res()])], ANONYMOUS, DEPLOY_LIST, true],
    ['service account by name', [rule(sa('kube-system', 'foo'), [res()])], SA('kube-system', 'foo'), DEPLOY_LIST, true],
    [
      'service account, other name',
      [rule(sa('kube-system', 'foo'), [res()])],
      SA('kube-system', 'bar'),
      DEPLOY_LIST,
      false,
    ],
    [
      'service account * of the namespace',
      [rule(sa('kube-system', '*'), [res()])],
      SA('kube-system', 'bar'),
      DEPLOY_LIST,
      true,
    ],
    [
      'service account * of another namespace',
      [rule(sa('kube-system', '*'), [res()])],
      SA('default', 'bar'),
      DEPLOY_LIST,
      false,
    ],
    [
      'service account * needs a plain SA user name',
      [rule(sa('kube-system', '*'), [res()])],
      who('system:serviceaccount:kube-system:a:b'),
      DEPLOY_LIST,
      false,
    ],
    ['service account subject vs a plain user', [rule(sa('kube-system', 'foo'), [res()])], ALICE, DEPLOY_LIST, false],
    ['verb listed', [rule(users('*'), [res({ verbs: ['list', 'watch'] })])], ALICE, DEPLOY_LIST, true],
    ['verb not listed', [rule(users('*'), [res({ verbs: ['get'] })])], ALICE, DEPLOY_LIST, false],
    [
      'watch verb',
      [rule(users('*'), [res({ verbs: ['watch'] })])],
      ALICE,
      req('GET', '/apis/apps/v1/deployments?watch=true'),
      true,
    ],
    ['api group listed', [rule(users('*'), [res({ apiGroups: ['apps'] })])], ALICE, DEPLOY_LIST, true],
    ['api group not listed', [rule(users('*'), [res({ apiGroups: [''] })])], ALICE, DEPLOY_LIST, false],
    [
      'core group ""',
      [rule(users('*'), [res({ apiGroups: [''] })])],
      ALICE,
      req('GET', '/api/v1/namespaces/default/pods'),
      true,
    ],
    ['resource listed', [rule(users('*'), [res({ resources: ['deployments'] })])], ALICE, DEPLOY_LIST, true],
    ['resource not listed', [rule(users('*'), [res({ resources: ['pods'] })])], ALICE, DEPLOY_LIST, false],
    [
      'subresource needs resource/subresource',
      [rule(users('*'), [res({ resources: ['deployments'] })])],
      ALICE,
      req('PUT', '/apis/apps/v1/namespaces/a/deployments/d/status'),
      false,
    ],
    [
      'deployments/status',
      [rule(users('*'), [res({ resources: ['deployments/status'] })])],
      ALICE,
      req('PUT', '/apis/apps/v1/namespaces/a/deployments/d/status'),
      true,
    ],
    [
      'deployments/status vs the main resource',
      [rule(users('*'), [res({ resources: ['deployments/status'] })])],
      ALICE,
      req('GET', '/apis/apps/v1/namespaces/a/deployments/d'),
      false,
    ],
    [
      'resources * covers subresources',
      [rule(users('*'), [res()])],
      ALICE,
      req('GET', '/apis/apps/v1/namespaces/a/deployments/d/scale'),
      true,
    ],
    [
      'namespace listed',
      [rule(users('*'), [res({ clusterScope: false, namespaces: ['default'] })])],
      ALICE,
      DEPLOY_LIST,
      true,
    ],
    [
      'namespace not listed',
      [rule(users('*'), [res({ clusterScope: false, namespaces: ['other'] })])],
      ALICE,
      DEPLOY_LIST,
      false,
    ],
    [
      'namespaces * (namespaced request)',
      [rule(users('*'), [res({ clusterScope: false, namespaces: ['*'] })])],
      ALICE,
      DEPLOY_LIST,
      true,
    ],
    [
      'namespaces * (no namespace, clusterScope false)',
      [rule(users('*'), [res({ clusterScope: false, namespaces: ['*'] })])],
      ALICE,
      req('GET', '/apis/apps/v1/deployments'),
      false,
    ],
    [
      'namespaces [""] (namespaced request)',
      [rule(users('*'), [res({ clusterScope: false, namespaces: [''] })])],
      ALICE,
      DEPLOY_LIST,
      true,
    ],
    [
      'namespaces [""] (no namespace)',
      [rule(users('*'), [res({ clusterScope: false, namespaces: [''] })])],
      ALICE,
      req('GET', '/apis/apps/v1/deployments'),
      false,
    ],
    [
      'clusterScope (all-namespaces list)',
      [rule(users('*'), [res({ clusterScope: true, namespaces: [] })])],
      ALICE,
      req('GET', '/apis/apps/v1/deployments'),
      true,
    ],
    [
      'clusterScope (cluster-scoped object)',
      [rule(users('*'), [res({ clusterScope: true, namespaces: [] })])],
      ALICE,
      req('DELETE', '/apis/flowcontrol.apiserver.orch.io/v1beta3/flowschemas/f'),
      true,
    ],
    // As in Kubernetes' RequestInfo, a namespace object's own name is the request namespace.
    [
      'namespace object request carries its namespace',
      [rule(users('*'), [res({ clusterScope: false, namespaces: ['ns1'] })])],
      ALICE,
      req('GET', '/api/v1/namespaces/ns1'),
      true,
    ],
    [
      'clusterScope only (namespaced request)',
      [rule(users('*'), [res({ clusterScope: true, namespaces: [] })])],
      ALICE,
      DEPLOY_LIST,
      false,
    ],
    ['resource rule vs non-resource request', [rule(users('*'), [res()])], ALICE, req('GET', '/healthz'), false],
    ['non-resource rule vs resource request', [rule(users('*'), [], [nonRes(['*'])])], ALICE, DEPLOY_LIST, false],
    ['URL exact', [rule(users('*'), [], [nonRes(['/healthz'])])], ALICE, req('GET', '/healthz'), true],
    [
      'URL exact is not a prefix',
      [rule(users('*'), [], [nonRes(['/healthz'])])],
      ALICE,
      req('GET', '/healthz/etcd'),
      false,
    ],
    ['URL exact, other path', [rule(users('*'), [], [nonRes(['/hea'])])], ALICE, req('GET', '/healthz'), false],
    [
      'URL ending in / matches sub-paths',
      [rule(users('*'), [], [nonRes(['/healthz/'])])],
      ALICE,
      req('GET', '/healthz/etcd'),
      true,
    ],
    [
      'URL ending in / matches deeper sub-paths',
      [rule(users('*'), [], [nonRes(['/healthz/'])])],
      ALICE,
      req('GET', '/healthz/poststarthook/x'),
      true,
    ],
    [
      'URL ending in / vs the bare path',
      [rule(users('*'), [], [nonRes(['/healthz/'])])],
      ALICE,
      req('GET', '/healthz'),
      false,
    ],
    ['URL *', [rule(users('*'), [], [nonRes(['*'])])], ALICE, req('GET', '/openapi/v2'), true],
    [
      'non-resource verb is the lower-cased method',
      [rule(users('*'), [], [nonRes(['*'], ['post'])])],
      ALICE,
      req('POST', '/version'),
      true,
    ],
    [
      'non-resource verb not listed',
      [rule(users('*'), [], [nonRes(['*'], ['get'])])],
      ALICE,
      req('POST', '/version'),
      false,
    ],
    [
      'subject and rule must both match in the same rule',
      [rule(users('bob'), [res()]), rule(users('alice'), [], [nonRes(['*'])])],
      ALICE,
      DEPLOY_LIST,
      false,
    ],
    ['any rule of the schema', [rule(users('bob'), [res()]), rule(users('alice'), [res()])], ALICE, DEPLOY_LIST, true],
    ['no rules match nothing', [], ALICE, DEPLOY_LIST, false],
  ];
  it.each(cases)('%s', (_name, rules, user, info, expected) => {
    expect(matchesOne(rules, user, info)).toBe(expected);
  });
});

describe('ordering and configuration', () => {
  const all = [rule(groups('*'), [res()], [nonRes(['*'])])];
  const info = req('GET', '/api/v1/namespaces/default/pods');

  it('prefers the lowest matchingPrecedence, whatever the input order', () => {
    const c = compileClassifier(
      [schema('b', all, { matchingPrecedence: 300 }), schema('a', all, { matchingPrecedence: 400 })],
      LEVELS,
    );
    expect(c.classify({ user: ALICE, info }).flowSchema).toEqual({ name: 'b', uid: 'fs-b' });
  });

  it('breaks precedence ties by name', () => {
    const c = compileClassifier([schema('zeta', all), schema('alpha', all), schema('mid', all)], LEVELS);
    expect(c.classify({ user: ALICE, info }).flowSchema.name).toBe('alpha');
    expect(c.order).toEqual(['exempt', 'alpha', 'mid', 'zeta', 'catch-all']);
  });

  it('skips a schema whose priority level does not exist (Dangling)', () => {
    const c = compileClassifier(
      [
        schema('first', all, { matchingPrecedence: 1, priorityLevelConfiguration: { name: 'missing' } }),
        schema('second', all),
      ],
      LEVELS,
    );
    expect(c.classify({ user: ALICE, info })).toEqual({
      flowSchema: { name: 'second', uid: 'fs-second' },
      priorityLevel: { name: 'pl', uid: 'pl-pl' },
      distinguisher: '',
    });
    expect(c.order).not.toContain('first');
  });

  it('computes the distinguisher only for queuing levels', () => {
    const classify = (extra: Record<string, unknown>, r: RequestInfo) =>
      compileClassifier([schema('s', all, extra)], LEVELS).classify({ user: ALICE, info: r }).distinguisher;
    expect(classify({}, info)).toBe('');
    expect(classify({ distinguisherMethod: { type: 'ByUser' } }, info)).toBe('alice');
    expect(classify({ distinguisherMethod: { type: 'ByNamespace' } }, info)).toBe('default');
    expect(classify({ distinguisherMethod: { type: 'ByNamespace' } }, req('GET', '/api/v1/pods'))).toBe('');
    expect(classify({ distinguisherMethod: { type: 'ByNamespace' } }, req('GET', '/healthz'))).toBe('');
    expect(
      classify({ distinguisherMethod: { type: 'ByUser' }, priorityLevelConfiguration: { name: 'single' } }, info),
    ).toBe('');
    expect(
      classify({ distinguisherMethod: { type: 'ByUser' }, priorityLevelConfiguration: { name: 'reject' } }, info),
    ).toBe('');
  });

  it('imagines the mandatory schemas and levels, with empty UIDs, when they are absent', () => {
    expect(FALLBACK_CLASSIFIER.order).toEqual(['exempt', 'catch-all']);
    expect(FALLBACK_CLASSIFIER.classify(requestDigest(info))).toEqual({
      flowSchema: { name: 'catch-all', uid: '' },
      priorityLevel: { name: 'catch-all', uid: '' },
      distinguisher: '',
    });
    expect(FALLBACK_CLASSIFIER.classify({ user: who('root', 'system:masters'), info }).flowSchema).toEqual({
      name: 'exempt',
      uid: '',
    });
    // A real catch-all level is used by the imagined catch-all schema.
    const c = compileClassifier([], [level('catch-all', 0)]);
    expect(c.classify(requestDigest(info)).priorityLevel).toEqual({ name: 'catch-all', uid: 'pl-catch-all' });
  });

  it('uses catch-all when nothing matches (a user in no group)', () => {
    const c = compileClassifier(bootstrapFlowSchemas(), bootstrapPriorityLevels());
    expect(c.classify({ user: who('nobody'), info }).flowSchema).toEqual({
      name: 'catch-all',
      uid: 'uid-fs-catch-all',
    });
  });

  it('remembers subject matches per user name and groups, not per name', () => {
    const c = compileClassifier(
      [
        schema('devs', [rule(groups('dev'), [res()])]),
        schema('alice', [rule(users('alice'), [res()])], { matchingPrecedence: 600 }),
      ],
      LEVELS,
    );
    for (let i = 0; i < 2; i++) {
      expect(c.classify({ user: ALICE, info }).flowSchema.name).toBe('devs');
      expect(c.classify({ user: who('alice', 'system:authenticated'), info }).flowSchema.name).toBe('alice');
      expect(c.classify({ user: who('bob', 'system:authenticated'), info }).flowSchema.name).toBe('catch-all');
    }
  });

  it('never throws on odd objects', () => {
    const odd = [
      { metadata: {} },
      { metadata: { name: 'no-spec' } },
      { metadata: { name: 'null-spec' }, spec: null },
      { metadata: { name: 'bad-rules' }, spec: { priorityLevelConfiguration: { name: 'pl' }, rules: 'x' } },
      {
        metadata: { name: 'bad-parts' },
        spec: {
          priorityLevelConfiguration: { name: 'pl' },
          matchingPrecedence: 'high',
          rules: [
            null,
            3,
            {
              subjects: [
                null,
                { kind: 'User' },
                { kind: 'Group', group: 'x' },
                { kind: 'ServiceAccount', serviceAccount: { name: '*' } },
              ],
              resourceRules: [{ verbs: 'get' }, null],
              nonResourceRules: [{ nonResourceURLs: [1] }],
            },
          ],
        },
      },
      { metadata: { name: 7 } },
    ] as unknown as ApiObject[];
    const levels = [...LEVELS, { metadata: { name: 'odd' }, spec: 'x' }, null] as unknown as ApiObject[];
    const c = compileClassifier(odd, levels);
    expect(c.order).toEqual(['exempt', 'bad-parts', 'bad-rules', 'catch-all']);
    expect(c.classify(requestDigest(info)).flowSchema.name).toBe('catch-all');
    expect(c.classify({ user: null, info: null } as unknown as Parameters<typeof c.classify>[0]).flowSchema.name).toBe(
      'catch-all',
    );
  });

  it('builds the response headers (orch and Kubernetes names)', () => {
    const c = compileClassifier([schema('s', all)], LEVELS);
    expect(priorityAndFairnessHeaders(c.classify(requestDigest(info)))).toEqual({
      'X-Orch-PF-FlowSchema-UID': 'fs-s',
      'X-Orch-PF-PriorityLevel-UID': 'pl-pl',
      'X-Kubernetes-PF-FlowSchema-UID': 'fs-s',
      'X-Kubernetes-PF-PriorityLevel-UID': 'pl-pl',
    });
  });
});

describe('Kubernetes 1.26 bootstrap configuration', () => {
  const classifier = compileClassifier(bootstrapFlowSchemas(), bootstrapPriorityLevels());
  const NODE = who('system:node:n1', 'system:nodes', 'system:authenticated');
  const KCM = who('system:kube-controller-manager', 'system:authenticated');
  const cases: Array<[string, DigestUser, string, string, string, string, string]> = [
    ['anonymous GET /healthz', ANONYMOUS, 'GET', '/healthz', 'probes', 'exempt', ''],
    ['anonymous GET /readyz', ANONYMOUS, 'GET', '/readyz', 'probes', 'exempt', ''],
    // Spec: `/healthz` is not a prefix entry, so per-check paths are not probes.
    [
      'anonymous GET /healthz/etcd',
      ANONYMOUS,
      'GET',
      '/healthz/etcd',
      'global-default',
      'global-default',
      'system:anonymous',
    ],
    ['anonymous POST /healthz', ANONYMOUS, 'POST', '/healthz', 'global-default', 'global-default', 'system:anonymous'],
    [
      'anonymous list deployments',
      ANONYMOUS,
      'GET',
      '/apis/apps/v1/namespaces/default/deployments',
      'global-default',
      'global-default',
      'system:anonymous',
    ],
    [
      'anonymous create flowschema',
      ANONYMOUS,
      'POST',
      '/apis/flowcontrol.apiserver.orch.io/v1beta3/flowschemas',
      'global-default',
      'global-default',
      'system:anonymous',
    ],
    [
      'system:masters',
      who('admin', 'system:masters', 'system:authenticated'),
      'DELETE',
      '/api/v1/namespaces/x',
      'exempt',
      'exempt',
      '',
    ],
    [
      'kube-system SA lease',
      SA('kube-system', 'ctrl'),
      'PUT',
      '/apis/coordination.orch.io/v1/namespaces/kube-system/leases/l',
      'system-leader-election',
      'leader-election',
      'system:serviceaccount:kube-system:ctrl',
    ],
    [
      'endpoint controller',
      SA('kube-system', 'endpoint-controller'),
      'PUT',
      '/api/v1/namespaces/default/endpoints/e',
      'endpoint-controller',
      'workload-high',
      'system:serviceaccount:kube-system:endpoint-controller',
    ],
    [
      'kube-system SA configmap',
      SA('kube-system', 'ctrl'),
      'GET',
      '/api/v1/namespaces/kube-system/configmaps/c',
      'workload-leader-election',
      'leader-election',
      'system:serviceaccount:kube-system:ctrl',
    ],
    [
      'kube-system SA list deployments',
      SA('kube-system', 'ctrl'),
      'GET',
      '/apis/apps/v1/namespaces/apps/deployments',
      'kube-system-service-accounts',
      'workload-high',
      'apps',
    ],
    [
      'other SA',
      SA('default', 'app'),
      'GET',
      '/apis/apps/v1/namespaces/default/deployments',
      'service-accounts',
      'workload-low',
      'system:serviceaccount:default:app',
    ],
    ['node status', NODE, 'PUT', '/api/v1/nodes/n1/status', 'system-node-high', 'node-high', 'system:node:n1'],
    ['node pods', NODE, 'GET', '/api/v1/namespaces/default/pods', 'system-nodes', 'system', 'system:node:n1'],
    [
      'controller manager, all namespaces',
      KCM,
      'GET',
      '/apis/apps/v1/deployments?watch=1',
      'kube-controller-manager',
      'workload-high',
      '',
    ],
    ['authenticated user', ALICE, 'GET', '/version', 'global-default', 'global-default', 'alice'],
  ];
  it.each(cases)('%s', (_name, user, method, url, fs, pl, distinguisher) => {
    expect(classifier.classify({ user, info: req(method, url) })).toEqual({
      flowSchema: { name: fs, uid: `uid-fs-${fs}` },
      priorityLevel: { name: pl, uid: `uid-pl-${pl}` },
      distinguisher,
    });
  });

  it('orders the schemas as Kubernetes does', () => {
    const precedence = (fs: ApiObject): number => (fs['spec'] as { matchingPrecedence: number }).matchingPrecedence;
    const expected = bootstrapFlowSchemas()
      .sort((a, b) => precedence(a) - precedence(b) || (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''))
      .map((fs) => fs.metadata.name);
    expect(classifier.order).toEqual(expected);
    expect(expected.slice(0, 2)).toEqual(['exempt', 'probes']);
    expect(expected[expected.length - 1]).toBe('catch-all');
  });
});
