// Minimal valid objects of each served kind, for tests.
export const FLOWCONTROL = '/apis/flowcontrol.apiserver.orch.io/v1beta3';

export function aDeployment(name: string, extra: Record<string, unknown> = {}): Record<string, any> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels: { app: name } },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] } },
    },
    ...extra,
  };
}

export function anHpa(name: string): Record<string, any> {
  return {
    apiVersion: 'autoscaling/v1',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      minReplicas: 1,
      maxReplicas: 3,
      targetCPUUtilizationPercentage: 80,
    },
  };
}

export function aFlowSchema(name: string, priorityLevel = 'global-default'): Record<string, any> {
  return {
    apiVersion: 'flowcontrol.apiserver.orch.io/v1beta3',
    kind: 'FlowSchema',
    metadata: { name },
    spec: {
      priorityLevelConfiguration: { name: priorityLevel },
      matchingPrecedence: 500,
      distinguisherMethod: { type: 'ByUser' },
      rules: [
        {
          subjects: [{ kind: 'User', user: { name: 'alice' } }],
          resourceRules: [{ verbs: ['get'], apiGroups: ['apps'], resources: ['deployments'], namespaces: ['*'] }],
        },
      ],
    },
  };
}

export function aPriorityLevel(name: string): Record<string, any> {
  return {
    apiVersion: 'flowcontrol.apiserver.orch.io/v1beta3',
    kind: 'PriorityLevelConfiguration',
    metadata: { name },
    spec: { type: 'Limited', limited: { nominalConcurrencyShares: 10, limitResponse: { type: 'Reject' } } },
  };
}

/** One metadata.managedFields entry as the API returns it. */
export interface ManagedFieldsEntry {
  manager: string;
  operation: string;
  apiVersion: string;
  fieldsV1: Record<string, any>;
  subresource?: string;
}
