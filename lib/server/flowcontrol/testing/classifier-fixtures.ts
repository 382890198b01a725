// Requests, users, FlowSchemas and priority levels for the classifier tests.
import { parseRequestInfo, type RequestInfo } from '../../../endpoints/request-info';
import type { ApiObject } from '../../../apimachinery/meta/types';
import type { DigestUser } from '../classifier';

export const req = (method: string, url: string): RequestInfo => {
  const [path = '', query = ''] = url.split('?');
  return parseRequestInfo(method, path, new URLSearchParams(query));
};
export const who = (name: string, ...groups: string[]): DigestUser => ({ name, groups });
export const ALICE = who('alice', 'system:authenticated', 'dev');
export const SA = (ns: string, name: string): DigestUser =>
  who(
    `system:serviceaccount:${ns}:${name}`,
    'system:serviceaccounts',
    `system:serviceaccounts:${ns}`,
    'system:authenticated',
  );

export const level = (name: string, queues = 64): ApiObject => ({
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
export const LEVELS = [level('pl'), level('single', 1), level('reject', 0)];

export type Rule = Record<string, unknown>;
export const schema = (name: string, rules: Rule[], extra: Record<string, unknown> = {}): ApiObject => ({
  metadata: { name, uid: `fs-${name}` },
  spec: { priorityLevelConfiguration: { name: 'pl' }, matchingPrecedence: 500, rules, ...extra },
});
export const users = (...names: string[]) => names.map((name) => ({ kind: 'User', user: { name } }));
export const groups = (...names: string[]) => names.map((name) => ({ kind: 'Group', group: { name } }));
export const sa = (namespace: string, name: string) => [
  { kind: 'ServiceAccount', serviceAccount: { namespace, name } },
];
export const res = (over: Rule = {}): Rule => ({
  verbs: ['*'],
  apiGroups: ['*'],
  resources: ['*'],
  clusterScope: true,
  namespaces: ['*'],
  ...over,
});
export const nonRes = (urls: string[], verbs = ['*']): Rule => ({ verbs, nonResourceURLs: urls });
export const rule = (subjects: unknown[], resourceRules: Rule[] = [], nonResourceRules: Rule[] = []): Rule => ({
  subjects,
  resourceRules,
  nonResourceRules,
});

/** Whether `user`'s request matches schema `x` built from `rules` (otherwise a stand-in takes it). */
