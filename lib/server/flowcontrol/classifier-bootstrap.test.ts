// Classification against Kubernetes 1.26's bootstrap FlowSchemas and priority levels.
import type { ApiObject } from '../../apimachinery/meta/types';
import { ANONYMOUS, compileClassifier, type DigestUser } from './classifier';
import { bootstrapFlowSchemas, bootstrapPriorityLevels } from './testing/bootstrap-config';
import { ALICE, SA, req, who } from './testing/classifier-fixtures';

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
