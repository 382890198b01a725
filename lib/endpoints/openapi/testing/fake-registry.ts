// A registry carrying only the facts OpenAPI reads (definitions, subresources), for unit tests without storage.
import { ResourceRegistry, type ServedResource } from '../../../registry/resource-registry';
import type { ResourceDefinition } from '../../../registry/rest/resource';

interface FakeResource {
  group: string;
  version: string;
  resource: string;
  kind: string;
  namespaced: boolean;
  status?: boolean;
  scale?: boolean;
  putSubresources?: string[];
  /** False where DELETE on the collection is not served (namespaces). */
  deleteCollection?: boolean;
}

/** The resources install.ts serves, as plain facts. */
export const SERVED_RESOURCES: readonly FakeResource[] = [
  {
    group: '',
    version: 'v1',
    resource: 'namespaces',
    kind: 'Namespace',
    namespaced: false,
    status: true,
    putSubresources: ['finalize'],
    deleteCollection: false,
  },
  {
    group: 'apps',
    version: 'v1',
    resource: 'deployments',
    kind: 'Deployment',
    namespaced: true,
    status: true,
    scale: true,
  },
  {
    group: 'autoscaling',
    version: 'v1',
    resource: 'horizontalpodautoscalers',
    kind: 'HorizontalPodAutoscaler',
    namespaced: true,
    status: true,
  },
  {
    group: 'flowcontrol.apiserver.orch.io',
    version: 'v1beta3',
    resource: 'flowschemas',
    kind: 'FlowSchema',
    namespaced: false,
    status: true,
  },
  {
    group: 'flowcontrol.apiserver.orch.io',
    version: 'v1beta3',
    resource: 'prioritylevelconfigurations',
    kind: 'PriorityLevelConfiguration',
    namespaced: false,
    status: true,
  },
  { group: '', version: 'v1', resource: 'events', kind: 'Event', namespaced: true },
  { group: 'events.orch.io', version: 'v1', resource: 'events', kind: 'Event', namespaced: true },
  {
    group: 'admissionregistration.orch.io',
    version: 'v1',
    resource: 'validatingwebhookconfigurations',
    kind: 'ValidatingWebhookConfiguration',
    namespaced: false,
  },
  {
    group: 'admissionregistration.orch.io',
    version: 'v1',
    resource: 'mutatingwebhookconfigurations',
    kind: 'MutatingWebhookConfiguration',
    namespaced: false,
  },
];

/** The create-only review kinds the server lists (group, version, resource, kind, namespaced). */
export const REVIEW_KINDS: ReadonlyArray<[string, string, string, boolean]> = [
  ['authorization.orch.io', 'selfsubjectaccessreviews', 'SelfSubjectAccessReview', false],
  ['authorization.orch.io', 'subjectaccessreviews', 'SubjectAccessReview', false],
  ['authorization.orch.io', 'localsubjectaccessreviews', 'LocalSubjectAccessReview', true],
  ['authorization.orch.io', 'selfsubjectrulesreviews', 'SelfSubjectRulesReview', false],
  ['authentication.orch.io', 'tokenreviews', 'TokenReview', false],
];

export function fakeRegistry(
  resources: readonly FakeResource[] = SERVED_RESOURCES,
  reviews: typeof REVIEW_KINDS = [],
): ResourceRegistry {
  const registry = new ResourceRegistry();
  for (const [group, resource, kind, namespaced] of reviews)
    registry.addCreateOnly({
      group,
      version: 'v1',
      resource,
      kind,
      listKind: `${kind}List`,
      shortNames: [],
      categories: [],
      strategy: { namespaced } as ResourceDefinition['strategy'],
    });
  for (const r of resources) {
    // Stores are never called by the OpenAPI builders; only their presence matters.
    const present = {};
    const served = {
      definition: {
        group: r.group,
        version: r.version,
        resource: r.resource,
        kind: r.kind,
        listKind: `${r.kind}List`,
        shortNames: [],
        categories: [],
        strategy: { namespaced: r.namespaced },
      },
      store: present,
      ...(r.status ? { statusStore: present } : {}),
      ...(r.scale ? { scale: present } : {}),
      putSubresources: new Map((r.putSubresources ?? []).map((name) => [name, present])),
      returnDeletedObject: false,
      deleteCollection: r.deleteCollection ?? true,
    } as unknown as ServedResource;
    registry.add(served);
  }
  return registry;
}
