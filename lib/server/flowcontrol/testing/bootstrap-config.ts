// Kubernetes 1.26 bootstrap FlowSchemas and priority levels (reference 1.7, orch group names) as stored objects, for tests and benchmarks.
import type { ApiObject } from '../../../apimachinery/meta/types';

const EVERYTHING = {
  resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] }],
  nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
};
const COORDINATION = 'coordination.orch.io';
const KCM = 'system:kube-controller-manager';
const SCHEDULER = 'system:kube-scheduler';

const user = (name: string) => ({ kind: 'User', user: { name } });
const group = (name: string) => ({ kind: 'Group', group: { name } });
const serviceAccount = (namespace: string, name: string) => ({ kind: 'ServiceAccount', serviceAccount: { namespace, name } });
const everyone = [group('system:unauthenticated'), group('system:authenticated')];

type Distinguisher = 'ByUser' | 'ByNamespace' | undefined;

function flowSchema(name: string, precedence: number, level: string, distinguisher: Distinguisher, rules: unknown[]): ApiObject {
  return {
    apiVersion: 'flowcontrol.apiserver.orch.io/v1beta3',
    kind: 'FlowSchema',
    metadata: { name, uid: `uid-fs-${name}`, resourceVersion: '1', generation: 1 },
    spec: {
      priorityLevelConfiguration: { name: level },
      matchingPrecedence: precedence,
      ...(distinguisher ? { distinguisherMethod: { type: distinguisher } } : {}),
      rules,
    },
  };
}

function limited(name: string, shares: number, lendablePercent: number, queuing?: [queues: number, handSize: number, queueLengthLimit: number]): ApiObject {
  const limitResponse = queuing ? { type: 'Queue', queuing: { queues: queuing[0], handSize: queuing[1], queueLengthLimit: queuing[2] } } : { type: 'Reject' };
  return {
    apiVersion: 'flowcontrol.apiserver.orch.io/v1beta3',
    kind: 'PriorityLevelConfiguration',
    metadata: { name, uid: `uid-pl-${name}`, resourceVersion: '1', generation: 1 },
    spec: { type: 'Limited', limited: { nominalConcurrencyShares: shares, lendablePercent, limitResponse } },
  };
}

export function bootstrapPriorityLevels(): ApiObject[] {
  return [
    { apiVersion: 'flowcontrol.apiserver.orch.io/v1beta3', kind: 'PriorityLevelConfiguration', metadata: { name: 'exempt', uid: 'uid-pl-exempt', resourceVersion: '1', generation: 1 }, spec: { type: 'Exempt' } },
    limited('catch-all', 5, 0),
    limited('system', 30, 33, [64, 6, 50]),
    limited('node-high', 40, 25, [64, 6, 50]),
    limited('leader-election', 10, 0, [16, 4, 50]),
    limited('workload-high', 40, 50, [128, 6, 50]),
    limited('workload-low', 100, 90, [128, 6, 50]),
    limited('global-default', 20, 50, [128, 6, 50]),
  ];
}

const getCreateUpdate = ['get', 'create', 'update'];

export function bootstrapFlowSchemas(): ApiObject[] {
  return [
    flowSchema('exempt', 1, 'exempt', undefined, [{ subjects: [group('system:masters')], ...EVERYTHING }]),
    flowSchema('probes', 2, 'exempt', undefined, [{ subjects: everyone, nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }] }]),
    flowSchema('system-leader-election', 100, 'leader-election', 'ByUser', [
      {
        subjects: [user(KCM), user(SCHEDULER), serviceAccount('kube-system', '*')],
        resourceRules: [{ verbs: getCreateUpdate, apiGroups: [COORDINATION], resources: ['leases'], namespaces: ['*'] }],
      },
    ]),
    flowSchema('endpoint-controller', 150, 'workload-high', 'ByUser', [
      {
        subjects: [user(KCM), serviceAccount('kube-system', 'endpoint-controller'), serviceAccount('kube-system', 'endpointslicemirroring-controller')],
        resourceRules: [{ verbs: getCreateUpdate, apiGroups: [''], resources: ['endpoints'], namespaces: ['*'] }],
      },
    ]),
    flowSchema('workload-leader-election', 200, 'leader-election', 'ByUser', [
      {
        subjects: [serviceAccount('kube-system', '*')],
        resourceRules: [
          { verbs: getCreateUpdate, apiGroups: [''], resources: ['endpoints', 'configmaps'], namespaces: ['*'] },
          { verbs: getCreateUpdate, apiGroups: [COORDINATION], resources: ['leases'], namespaces: ['*'] },
        ],
      },
    ]),
    flowSchema('system-node-high', 400, 'node-high', 'ByUser', [
      {
        subjects: [group('system:nodes')],
        resourceRules: [
          { verbs: ['*'], apiGroups: [''], resources: ['nodes', 'nodes/status'], clusterScope: true, namespaces: ['*'] },
          { verbs: ['*'], apiGroups: [COORDINATION], resources: ['leases'], namespaces: ['*'] },
        ],
      },
    ]),
    flowSchema('system-nodes', 500, 'system', 'ByUser', [{ subjects: [group('system:nodes')], ...EVERYTHING }]),
    flowSchema('kube-controller-manager', 800, 'workload-high', 'ByNamespace', [{ subjects: [user(KCM)], ...EVERYTHING }]),
    flowSchema('kube-scheduler', 800, 'workload-high', 'ByNamespace', [{ subjects: [user(SCHEDULER)], ...EVERYTHING }]),
    flowSchema('kube-system-service-accounts', 900, 'workload-high', 'ByNamespace', [{ subjects: [serviceAccount('kube-system', '*')], ...EVERYTHING }]),
    flowSchema('service-accounts', 9000, 'workload-low', 'ByUser', [{ subjects: [group('system:serviceaccounts')], ...EVERYTHING }]),
    flowSchema('global-default', 9900, 'global-default', 'ByUser', [{ subjects: everyone, ...EVERYTHING }]),
    flowSchema('catch-all', 10000, 'catch-all', 'ByUser', [{ subjects: everyone, ...EVERYTHING }]),
  ];
}
