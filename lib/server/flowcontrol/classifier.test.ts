// Classification: matching rules per field, ordering, Dangling schemas, distinguishers, stand-ins.
import type { ApiObject } from '../../apimachinery/meta/types';
import type { RequestInfo } from '../../endpoints/request-info';
import { ANONYMOUS, compileClassifier, FALLBACK_CLASSIFIER, requestDigest, type DigestUser } from './classifier';
import { priorityAndFairnessHeaders } from './headers';
import { bootstrapFlowSchemas, bootstrapPriorityLevels } from './testing/bootstrap-config';

import {
  ALICE,
  SA,
  req,
  who,
  level,
  LEVELS,
  schema,
  users,
  groups,
  sa,
  res,
  nonRes,
  rule,
  type Rule,
} from './testing/classifier-fixtures';

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
