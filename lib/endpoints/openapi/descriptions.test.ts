// Every field `kubectl explain` can reach from the described kinds has a description, in both OpenAPI documents.
import { groupVersionDocument } from './v3';
import { swaggerDocument } from './v2';
import { fakeRegistry, REVIEW_KINDS, SERVED_RESOURCES } from './testing/fake-registry';

type Json = Record<string, any>;

const FC = 'flowcontrol.apiserver.orch.io';
// Every described version is served here (the fake registry's defaults hold one version per kind).
const registry = fakeRegistry(
  [
    ...SERVED_RESOURCES,
    {
      group: 'autoscaling',
      version: 'v2',
      resource: 'horizontalpodautoscalers',
      kind: 'HorizontalPodAutoscaler',
      namespaced: true,
      status: true,
    },
    { group: FC, version: 'v1beta2', resource: 'flowschemas', kind: 'FlowSchema', namespaced: false, status: true },
    {
      group: FC,
      version: 'v1beta2',
      resource: 'prioritylevelconfigurations',
      kind: 'PriorityLevelConfiguration',
      namespaced: false,
      status: true,
    },
    ...(
      [
        ['roles', 'Role', true],
        ['rolebindings', 'RoleBinding', true],
        ['clusterroles', 'ClusterRole', false],
        ['clusterrolebindings', 'ClusterRoleBinding', false],
      ] as const
    ).map(([resource, kind, namespaced]) => ({
      group: 'rbac.authorization.orch.io',
      version: 'v1',
      resource,
      kind,
      namespaced,
    })),
    { group: '', version: 'v1', resource: 'serviceaccounts', kind: 'ServiceAccount', namespaced: true },
  ],
  REVIEW_KINDS,
);
const ROOTS = [
  'io.k8s.api.apps.v1.Deployment',
  'io.k8s.api.apps.v1.DeploymentList',
  'io.k8s.api.autoscaling.v1.HorizontalPodAutoscaler',
  'io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler',
  'io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerList',
  'io.k8s.api.core.v1.Namespace',
  'io.k8s.api.core.v1.NamespaceList',
  'io.k8s.api.flowcontrol.v1beta2.FlowSchema',
  'io.k8s.api.flowcontrol.v1beta2.PriorityLevelConfiguration',
  'io.k8s.api.flowcontrol.v1beta3.FlowSchema',
  'io.k8s.api.flowcontrol.v1beta3.PriorityLevelConfiguration',
  'io.k8s.api.flowcontrol.v1beta3.FlowSchemaList',
  'io.k8s.api.core.v1.Event',
  'io.k8s.api.core.v1.EventList',
  'io.k8s.api.events.v1.Event',
  'io.k8s.api.events.v1.EventList',
  'io.k8s.api.admissionregistration.v1.ValidatingWebhookConfiguration',
  'io.k8s.api.admissionregistration.v1.ValidatingWebhookConfigurationList',
  'io.k8s.api.admissionregistration.v1.MutatingWebhookConfiguration',
  'io.k8s.api.admissionregistration.v1.MutatingWebhookConfigurationList',
  'io.k8s.api.authorization.v1.SelfSubjectAccessReview',
  'io.k8s.api.authorization.v1.SubjectAccessReview',
  'io.k8s.api.authorization.v1.LocalSubjectAccessReview',
  'io.k8s.api.authorization.v1.SelfSubjectRulesReview',
  'io.k8s.api.authentication.v1.TokenReview',
  'io.k8s.api.rbac.v1.Role',
  'io.k8s.api.rbac.v1.RoleList',
  'io.k8s.api.rbac.v1.ClusterRole',
  'io.k8s.api.rbac.v1.ClusterRoleList',
  'io.k8s.api.rbac.v1.RoleBinding',
  'io.k8s.api.rbac.v1.RoleBindingList',
  'io.k8s.api.rbac.v1.ClusterRoleBinding',
  'io.k8s.api.rbac.v1.ClusterRoleBindingList',
  'io.k8s.api.core.v1.ServiceAccount',
  'io.k8s.api.core.v1.ServiceAccountList',
];

function refsOf(schema: unknown, out: string[]): string[] {
  if (Array.isArray(schema)) schema.forEach((s) => refsOf(s, out));
  else if (schema !== null && typeof schema === 'object') {
    for (const [k, v] of Object.entries(schema)) {
      if (k === '$ref' && typeof v === 'string') out.push(v.slice(v.lastIndexOf('/') + 1));
      else refsOf(v, out);
    }
  }
  return out;
}

/** `<definition>` and `<definition>.<property>` for each reachable definition and property without a description. */
function undescribed(definitions: Json, roots: readonly string[]): { reached: number; missing: string[] } {
  const missing: string[] = [];
  const seen = new Set<string>();
  const queue = [...roots];
  for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
    if (seen.has(name)) continue;
    seen.add(name);
    const def = definitions[name] as Json | undefined;
    if (def === undefined) throw new Error(`no definition ${name}`);
    if (typeof def['description'] !== 'string' || def['description'].trim() === '') missing.push(name);
    for (const [prop, schema] of Object.entries((def['properties'] ?? {}) as Json)) {
      if (typeof schema['description'] !== 'string' || schema['description'].trim() === '')
        missing.push(`${name}.${prop}`);
      queue.push(...refsOf(schema, []));
    }
  }
  return { reached: seen.size, missing };
}

describe('descriptions', () => {
  it('cover every definition and property reachable from the described kinds in /openapi/v2', () => {
    const { reached, missing } = undescribed((swaggerDocument(registry) as Json)['definitions'], ROOTS);
    expect(missing).toEqual([]);
    expect(reached).toBeGreaterThan(150);
  });

  it('leave no definition or property of /openapi/v2 undescribed (Status, DeleteOptions, WatchEvent… included)', () => {
    const definitions = (swaggerDocument(registry) as Json)['definitions'] as Json;
    expect(undescribed(definitions, Object.keys(definitions)).missing).toEqual([]);
  });

  it.each([
    ['apps', 'v1'],
    ['autoscaling', 'v1'],
    ['autoscaling', 'v2'],
    ['', 'v1'],
    [FC, 'v1beta2'],
    [FC, 'v1beta3'],
    ['events.orch.io', 'v1'],
    ['admissionregistration.orch.io', 'v1'],
    ['authorization.orch.io', 'v1'],
    ['authentication.orch.io', 'v1'],
    ['rbac.authorization.orch.io', 'v1'],
  ])(
    'cover every definition and property reachable from the described kinds in /openapi/v3 for %s/%s',
    (group, version) => {
      const schemas = (groupVersionDocument(registry, group, version) as Json)['components']['schemas'] as Json;
      const roots = ROOTS.filter((r) => r in schemas);
      expect(roots.length).toBeGreaterThan(0);
      const { missing } = undescribed(schemas, roots);
      expect(missing).toEqual([]);
    },
  );

  it('are written on the property (beside its $ref) and on the type', () => {
    const schemas = (groupVersionDocument(registry, 'apps', 'v1') as Json)['components']['schemas'] as Json;
    expect(schemas['io.k8s.api.apps.v1.DeploymentSpec']['properties']['replicas']['description']).toMatch(
      /^How many pods should run\. Defaults to 1\./,
    );
    expect(schemas['io.k8s.api.apps.v1.DeploymentSpec']['properties']['strategy']).toMatchObject({
      allOf: [{ $ref: '#/components/schemas/io.k8s.api.apps.v1.DeploymentStrategy' }],
      default: {},
    });
    expect(schemas['io.k8s.api.apps.v1.DeploymentStrategy']['description']).toBe('How a Deployment replaces its pods.');
  });
});
